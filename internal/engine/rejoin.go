package engine

import (
	"bytes"
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// DocRejoin holds the key of the client that joined as the terminal
// (media.Participant.Rejoin): the same client joining again is this
// terminal (issue 35; docs/join-page.md "Reconnection").
const DocRejoin = "_rejoin"

// DocCaller holds the identity of a caller (media.Participant.Caller):
// the same caller calling in again takes this terminal back while it is
// offline, instead of a new record (issue 38 item 8).
const DocCaller = "_caller"

// rejoin gives a client that joins again its terminal back: the terminal
// of c whose DocRejoin is key, online again with fields (its name, kind)
// and its mt_id, whatever it was (offline after a leave or a lost
// connection, or still online: a restart's participant not yet taken
// offline, a session the client replaces). Its controls (mute, silence)
// stay as they were. ok is false when c has no such terminal. Coming
// back from offline counts against max_join_mt (ErrFull) as a new
// terminal would. The key is the doc's field (DocRejoin, DocCaller);
// with offline only a terminal that is offline is taken (a caller's:
// a second call at once is a terminal of its own).
func (e *Engine) rejoin(ctx context.Context, c Conf, a arrival, offline bool) (t Terminal, ok bool, err error) {
	field, key := a.KeyField, a.Key
	id, err := e.rejoinFind(ctx, c, field, key, offline)
	if err != nil || id == "" {
		return Terminal{}, false, err
	}
	for try := 0; ; try++ {
		err = e.st.Atomic(ctx, func(tx store.Tx) error {
			rec, err := tx.GetRecord(record.KindMT, c.DomainMoid, id)
			if err != nil {
				return err
			}
			t, err = DecodeTerminal(rec)
			if err != nil {
				return err
			}
			if t.Doc.key(field) != key || offline && rec.State != StateIdle {
				return store.ErrNotFound // replaced or taken meanwhile
			}
			if rec.State != StateOnline && c.MaxJoinMt > 0 {
				n, err := countedTerminals(tx, c) // it does not count while offline
				if err != nil {
					return err
				}
				if n >= c.MaxJoinMt {
					return ErrFull
				}
			}
			a.apply(&t)
			t.Own.Lost = model.Opt[bool]{}
			delete(t.Doc.Extra, DocLost) // of another form
			t.Doc.Online, t.Own.Chase = model.Some(1), model.Some(false)
			t.Doc.setChannels(c.Bitrate)
			if t.Rec.Data, err = encodeTerminal(t); err != nil {
				return err
			}
			t.Rec.State, t.Rec.UpdatedAt = StateOnline, e.clk.Now()
			if err := tx.SwapRecord(t.Rec); err != nil {
				return err
			}
			t.Rec.Version++
			return nil
		})
		switch {
		case err == nil:
			return t, true, nil
		case errors.Is(err, store.ErrNotFound):
			return Terminal{}, false, nil // deleted meanwhile: a new terminal
		case errors.Is(err, store.ErrConflict) && try < 5:
			continue
		}
		return Terminal{}, false, err
	}
}

// rejoinFind returns the record id of c's terminal whose field is key
// (with offline, of an offline one), "" for none.
func (e *Engine) rejoinFind(ctx context.Context, c Conf, field, key string, offline bool) (string, error) {
	q := store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID}
	if offline {
		q.States = []string{StateIdle}
	}
	recs, _, err := e.st.ListRecords(ctx, q)
	if err != nil {
		return "", err
	}
	mark := []byte(key)
	for _, r := range recs {
		if !bytes.Contains(r.Data, mark) {
			continue
		}
		t, err := DecodeTerminal(r)
		if err != nil {
			return "", err
		}
		if t.Doc.key(field) == key {
			return r.ID, nil
		}
	}
	return "", nil
}
