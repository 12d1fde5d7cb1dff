package engine

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Add makes members terminals of the conference and, unless their call
// mode is manual, calls them. It returns the new terminals in order.
//
// A batch costs two store transactions whatever its size (issue 11): the
// first counts the conference's terminals against max_join_mt (ErrFull),
// numbers the new ones and creates their records; then the calls are
// placed (together when the backend is a media.BatchDialer, whose writes
// of the calls, the simulation's ringing calls, join the second) and the
// second stores them all. Each terminal's events are those
// of a terminal added, then called, one by one: its creation, then its
// change to calling. A call that cannot be placed ends the batch with its
// error; the terminals before it stay, called.
func (e *Engine) Add(ctx context.Context, c Conf, members []Member) ([]Terminal, error) {
	now := e.clk.Now()
	var ts []Terminal
	err := e.st.Atomic(ctx, func(tx store.Tx) error {
		ts = ts[:0]
		if c.MaxJoinMt > 0 {
			n, err := countedTerminals(tx, c) // participants that left do not count (participants.go)
			if err != nil {
				return err
			}
			if n+len(members) > c.MaxJoinMt {
				return ErrFull
			}
		}
		// The numbers in one statement, the records in another (PostgreSQL:
		// one round trip each; docs/benchmarks.md "Batch additions on
		// PostgreSQL").
		nums, err := store.NextNumbers(tx, "mt:"+c.ConfID, len(members), 1, 1<<31)
		if err != nil {
			return err
		}
		recs := make([]store.Record, 0, len(members))
		for i, m := range members {
			t, err := newTerminal(c, m, strconv.FormatInt(nums[i], 10), now)
			if err != nil {
				return err
			}
			ts = append(ts, t)
			recs = append(recs, t.Rec)
		}
		return store.CreateRecords(tx, recs)
	})
	if err != nil {
		return nil, err
	}

	var dialed []int // indexes of ts
	answered := make([]bool, len(ts))
	var callErr error
	var write func(store.Tx) error // the backend's writes of the calls (media.BatchDialer)
	if bd, ok := e.media.(media.BatchDialer); ok {
		var cut int
		if cut, dialed, write, callErr, err = e.placeBatch(ctx, c, ts, members, bd, answered); err != nil {
			return nil, err
		}
		ts = ts[:cut]
	} else {
		for i, m := range members {
			if !toCall(ts[i], m) {
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
	}
	if stored, err := e.saveAll(ctx, ts, dialed, write); err != nil {
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

// toCall tells whether Add calls the new terminal t of m: unless its call
// mode is manual.
func toCall(t Terminal, m Member) bool {
	return t.CallMode() != CallManual || m.Chase || m.Dial
}

// placeBatch is Add's placeCall for each terminal to call, with the calls
// that go out through the media backend placed by one DialBatch (in the
// simulation one directory read per terminal and no write of its own:
// its ringing calls commit with the terminals; docs/benchmarks.md "Login
// and batches"). It returns where ts is cut (the first terminal whose
// call could not be placed, len(ts) when all were), the indexes of ts
// called, in order, stamped, the backend's writes for saveAll and the
// call's error; err is a stamping error, which ends Add.
func (e *Engine) placeBatch(ctx context.Context, c Conf, ts []Terminal, members []Member, bd media.BatchDialer,
	answered []bool) (cut int, dialed []int, write func(store.Tx) error, callErr, err error) {
	cut = len(ts)
	var todo, out []int // indexes to call; of them, those through the backend
	var calls []media.Call
	for i, m := range members {
		if !toCall(ts[i], m) {
			continue
		}
		call, peer, isPeer, perr := e.dialPeer(ctx, c, ts[i].callee())
		if perr != nil {
			cut, callErr = i, perr
			break
		}
		todo = append(todo, i)
		if isPeer {
			answered[i] = calling(&ts[i], call, peer, true)
			continue
		}
		out = append(out, i)
		calls = append(calls, media.Call{MtID: ts[i].MtID(), Callee: ts[i].callee()})
	}
	if len(calls) > 0 {
		pre := make([]Terminal, len(out))
		for k, i := range out {
			pre[k] = ts[i]
		}
		e.predial(c, pre)
		ids, w, derr := bd.DialBatch(ctx, c.ConfID, calls)
		if derr != nil {
			e.undial(c, pre)
			cut, callErr = out[0], derr
		} else {
			write = w
			for k, i := range out {
				setAddress(&ts[i], ids[k])
				calling(&ts[i], linkCall{}, Peer{}, false)
			}
		}
	}
	for _, i := range todo {
		if i >= cut {
			break
		}
		if err := stamp(&ts[i], e.clk.Now()); err != nil {
			return 0, nil, nil, nil, err
		}
		dialed = append(dialed, i)
	}
	return cut, dialed, write, callErr, nil
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
	t := newTerminalOf(mtID, bitrate, mode)
	d := &t.Doc
	d.Account, d.AccountType, d.Protocol = model.Some(m.Callee.Account), model.Some(m.Callee.AccountType), model.Some(m.Callee.Protocol)
	d.Type, d.Alias = model.Some(1), model.Some(m.Callee.Account)
	t.Own.Chase = model.Some(m.Chase)
	rec := store.Record{Kind: record.KindMT, ID: recID(c.ConfID, mtID), DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID,
		State: StateIdle, CreatedAt: now, UpdatedAt: now}
	return t.created(rec)
}

// stamp encodes a terminal's document into its record, changed at now.
func stamp(t *Terminal, now time.Time) error {
	data, err := encodeTerminal(*t)
	t.Rec.Data, t.Rec.UpdatedAt = data, now
	return err
}

// saveAll stores the terminals ts[i] of idx (stamped) over the versions
// they were read at, in one transaction with the backend's writes of
// their calls (write, when not nil); when one of them changed meanwhile,
// the calls first, then the terminals one by one, so that the others are
// still stored. It returns how many of idx, in order, are stored.
func (e *Engine) saveAll(ctx context.Context, ts []Terminal, idx []int, write func(store.Tx) error) (int, error) {
	if len(idx) == 0 {
		return 0, nil
	}
	err := e.st.Atomic(ctx, func(tx store.Tx) error {
		if write != nil {
			if err := write(tx); err != nil {
				return err
			}
		}
		recs := make([]store.Record, len(idx))
		for k, i := range idx {
			recs[k] = ts[i].Rec
		}
		return store.SwapRecords(tx, recs)
	})
	if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
		if write != nil {
			// A replaced call can be marked reported in between: read again.
			err = e.st.Atomic(ctx, write)
			for try := 0; try < 3 && errors.Is(err, store.ErrConflict); try++ {
				err = e.st.Atomic(ctx, write)
			}
			if err != nil {
				return 0, err
			}
		}
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

// Count returns the number of terminals of a conference that count
// toward max_join_mt (its own, not its subordinates'; participants that
// left do not count, participants.go).
func (e *Engine) Count(ctx context.Context, c Conf) (int, error) {
	all, err := e.st.CountRecords(ctx, store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID})
	if err != nil {
		return 0, err
	}
	gone, err := leftParticipants(func(q store.RecordQuery) ([]store.Record, error) {
		recs, _, err := e.st.ListRecords(ctx, q)
		return recs, err
	}, c)
	return all - len(gone), err
}
