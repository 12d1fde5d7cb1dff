package engine

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// Add makes members terminals of the conference and, unless their call
// mode is manual, calls them. It returns the new terminals in order.
//
// A batch costs two store transactions whatever its size (issue 11): the
// first counts the conference's terminals against max_join_mt (ErrFull),
// numbers the new ones and creates their records; then the calls are
// placed and the second stores them all. Each terminal's events are those
// of a terminal added, then called, one by one: its creation, then its
// change to calling. A call that cannot be placed ends the batch with its
// error; the terminals before it stay, called.
func (e *Engine) Add(ctx context.Context, c Conf, members []Member) ([]Terminal, error) {
	now := e.clk.Now()
	var ts []Terminal
	err := e.st.Atomic(ctx, func(tx store.Tx) error {
		ts = ts[:0]
		if c.MaxJoinMt > 0 {
			n, err := tx.CountRecords(store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID})
			if err != nil {
				return err
			}
			if n+len(members) > c.MaxJoinMt {
				return ErrFull
			}
		}
		for _, m := range members {
			n, err := tx.NextNumber("mt:"+c.ConfID, 1, 1<<31)
			if err != nil {
				return err
			}
			t, err := newTerminal(c, m, strconv.FormatInt(n, 10), now)
			if err != nil {
				return err
			}
			if err := tx.CreateRecord(t.Rec); err != nil {
				return err
			}
			ts = append(ts, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	var dialed []int // indexes of ts
	answered := make([]bool, len(ts))
	var callErr error
	for i, m := range members {
		if num(ts[i].Doc["call_mode"]) == CallManual && !m.Chase && !m.Dial {
			continue
		}
		if answered[i], callErr = e.placeCall(ctx, c, &ts[i]); callErr != nil {
			ts = ts[:i]
			break
		}
		if err := stamp(&ts[i], e.clk.Now()); err != nil {
			return nil, err
		}
		dialed = append(dialed, i)
	}
	if stored, err := e.saveAll(ctx, ts, dialed); err != nil {
		var unstored []Terminal // their calls are hung up; the stored ones' outcomes follow
		for _, i := range dialed[stored:] {
			unstored = append(unstored, ts[i])
		}
		e.calls.Attempted.Add(int64(stored))
		e.abandon(ctx, c, unstored)
		e.undial(c, ts)
		return nil, err
	}
	e.calls.Attempted.Add(int64(len(dialed)))
	for _, i := range dialed {
		if ts[i], err = e.dialed(ctx, c, ts[i], answered[i]); err != nil {
			return ts, err
		}
	}
	return ts, callErr
}

// newTerminal is the record of a new terminal, idle.
func newTerminal(c Conf, m Member, mtID string, now time.Time) (Terminal, error) {
	mode := m.CallMode
	if mode < 0 {
		mode = c.CallMode
	}
	bitrate := m.Callee.Bitrate
	if bitrate == 0 {
		bitrate = c.Bitrate
	}
	doc := map[string]any{
		"mt_id": mtID, "account": m.Callee.Account, "account_type": m.Callee.AccountType,
		"protocol": m.Callee.Protocol, "bitrate": bitrate, "call_mode": mode, "online": 0,
		"type": 1, "alias": m.Callee.Account, "e164": "", "ip": "",
		"silence": 0, "mute": 0, "dual": 0, "mix": 0, "vmp": 0, "rec": 0, "poll": 0, "upload": 0, "inspection": 0,
		"rcv_volume": 15, "snd_volume": 15, "_attempts": 0, "_chase": m.Chase,
	}
	data, err := shape.Encode(doc)
	rec := store.Record{Kind: record.KindMT, ID: recID(c.ConfID, mtID), DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID,
		State: StateIdle, Data: data, CreatedAt: now, UpdatedAt: now}
	return Terminal{rec, doc}, err
}

// stamp encodes a terminal's document into its record, changed at now.
func stamp(t *Terminal, now time.Time) error {
	data, err := shape.Encode(t.Doc)
	t.Rec.Data, t.Rec.UpdatedAt = data, now
	return err
}

// saveAll stores the terminals ts[i] of idx (stamped) over the versions
// they were read at, in one transaction; when one of them changed
// meanwhile, one by one, so that the others are still stored. It returns
// how many of idx, in order, are stored.
func (e *Engine) saveAll(ctx context.Context, ts []Terminal, idx []int) (int, error) {
	if len(idx) == 0 {
		return 0, nil
	}
	err := e.st.Atomic(ctx, func(tx store.Tx) error {
		for _, i := range idx {
			if err := tx.SwapRecord(ts[i].Rec); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
		for n, i := range idx {
			if err := e.st.SwapRecord(ctx, ts[i].Rec); err != nil {
				return n, err
			}
			ts[i].Rec.Version++
		}
		return len(idx), nil
	}
	if err != nil {
		return 0, err
	}
	for _, i := range idx {
		ts[i].Rec.Version++
	}
	return len(idx), nil
}

// Count returns the number of terminals of a conference (its own, not its
// subordinates').
func (e *Engine) Count(ctx context.Context, c Conf) (int, error) {
	return e.st.CountRecords(ctx, store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID})
}
