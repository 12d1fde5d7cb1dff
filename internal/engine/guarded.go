package engine

import (
	"context"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// A change of speaker or chairman (vc/control_speaker.go) needs the
// conference and whether one of its terminals is online, and may store
// the role only while that terminal still is. With a store that can
// (store.GuardedWriter) the first is one statement and the second a
// condition of the write, instead of a read of the terminal before the
// write and another after it.

// GetWithTerminal is Get of a conference with the record state of its
// terminal mtID ("" when it has no such terminal), read in one statement.
// ok is false, and nothing is read, when the store cannot or mtID is
// cascaded (another conference's terminal): use Get and Engine.State.
func (s *Conferences) GetWithTerminal(ctx context.Context, domainMoid, confID, mtID string, states ...string) (c Conference, mtState string, ok bool, err error) {
	gw, can := s.st.(store.GuardedWriter)
	if !can || !local(mtID) {
		return Conference{}, "", false, nil
	}
	rec, mtState, err := gw.GetRecordAndState(ctx, record.KindConf, domainMoid, confID, record.KindMT, recID(confID, mtID))
	c, err = s.got(rec, err, domainMoid, confID, states)
	return c, mtState, true, err
}

// UpdateWhileOnline is Update that stores c only while its terminal mtID
// is online (store.ErrConflict otherwise: read again); for a GetWithTerminal
// that answered ok.
func (s *Conferences) UpdateWhileOnline(ctx context.Context, c Conference, mtID string) error {
	gw := s.st.(store.GuardedWriter)
	return s.update(ctx, c, func(rec store.Record) error {
		return gw.SwapRecordWhile(ctx, rec, record.KindMT, recID(c.ID(), mtID), StateOnline)
	})
}

// local tells whether mtID is a terminal of the conference itself, not a
// path into a subordinate one (Resolve).
func local(mtID string) bool {
	_, _, cascaded := splitPath(mtID)
	return !cascaded
}

// Kept is the conference as this node last read or wrote it, read from
// nothing (doccache.go), when it is in one of states; ok is false when
// nothing is kept, the store is no store.GuardedWriter or mtID is
// cascaded (GetWithTerminal answers those). It is taken from the cache,
// not copied: until a write or a read keeps the conference again, the
// next Kept finds nothing. It may be stale: it is only the base of an
// UpdateWhileOnline, which the store refuses (store.ErrConflict) unless
// the stored conference is still the kept version of the kept creation,
// and an answer it would give otherwise (an error of the change) must
// come from a read (GetWithTerminal).
func (s *Conferences) Kept(domainMoid, confID, mtID string, states ...string) (Conference, bool) {
	if _, can := s.st.(store.GuardedWriter); !can || !local(mtID) {
		return Conference{}, false
	}
	c, ok := s.docs.take(docKey(domainMoid, confID))
	if !ok {
		return Conference{}, false
	}
	for _, st := range states {
		if c.Rec.State == st {
			return c, true
		}
	}
	return Conference{}, false
}
