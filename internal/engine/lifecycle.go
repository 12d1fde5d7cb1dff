package engine

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// sweepAfter is how long an ended record may linger before RunDue deletes
// it. Ending deletes the record at once; a record stays ended only when
// the node that ended it stopped in between.
const sweepAfter = time.Minute

// End ends a booked or running conference of the domain: a running one
// stops, a booked one is cancelled. 12103 when there is none (also when
// another request ended it first: ending happens once).
func (s *Conferences) End(ctx context.Context, domainMoid, confID string) error {
	c, err := s.Get(ctx, domainMoid, confID)
	if err != nil {
		return err
	}
	done, err := s.finish(ctx, c.Rec, false)
	if err != nil {
		return err
	}
	if !done {
		return notFound(confID)
	}
	return nil
}

// finish moves a record from its state to ended, which succeeds for one
// caller only, deletes it (freeing its number) and tells the engine. With
// swap the change is made only if the record is unchanged since it was
// read (time-driven ends: conference control may have moved the end);
// otherwise while it is still in its state. It reports whether this call
// made the change.
func (s *Conferences) finish(ctx context.Context, rec store.Record, swap bool) (bool, error) {
	prev := rec.State
	now := s.clk.Now()
	rec.State, rec.DueAt, rec.UpdatedAt = StateEnded, now, now
	var err error
	if swap {
		err = s.st.SwapRecord(ctx, rec)
	} else {
		err = s.st.UpdateRecord(ctx, rec, prev)
	}
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if err := s.st.DeleteRecord(ctx, record.KindConf, rec.DomainMoid, rec.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return true, err // RunDue sweeps it later
	}
	if prev == StateRunning {
		c, err := decode(rec)
		if err != nil {
			return true, err
		}
		s.eng.ended(ctx, c)
	}
	return true, nil
}

// RunDue performs the time-driven changes due at the clock's now: running
// conferences whose end time has come end (and those whose start's
// follow-up did not finish have it run again, start_pending.go), then
// booked conferences whose start time has come start (capacity
// permitting; otherwise they stay booked and are tried again at the next
// call), and ended records left by
// an interrupted ending are deleted. Each change is a conditional state
// update, so it happens exactly once even when several nodes run it.
func (s *Conferences) RunDue(ctx context.Context) error {
	now := s.clk.Now()
	var errs []error
	ending, err := s.st.DueRecords(ctx, record.KindConf, StateRunning, now)
	errs = append(errs, err)
	for _, rec := range ending {
		if c, ok := pendingStart(rec, now); ok { // its follow-up did not finish (start_pending.go)
			errs = append(errs, s.resumeStart(ctx, c))
			continue
		}
		_, err := s.finish(ctx, rec, true)
		errs = append(errs, err)
	}
	starting, err := s.st.DueRecords(ctx, record.KindConf, StateBooked, now)
	errs = append(errs, err)
	for _, rec := range starting {
		errs = append(errs, s.start(ctx, rec, now))
	}
	stale, err := s.st.DueRecords(ctx, record.KindConf, StateEnded, now.Add(-sweepAfter))
	errs = append(errs, err)
	for _, rec := range stale {
		if err := s.st.DeleteRecord(ctx, record.KindConf, rec.DomainMoid, rec.ID); !errors.Is(err, store.ErrNotFound) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// start turns a booked conference whose start time has come into a
// running one. The booked slot stands: start_time and end_time are not
// moved, so a conference that had to wait for capacity ends at its booked
// end, and one whose end passed while it waited is dropped unstarted.
func (s *Conferences) start(ctx context.Context, rec store.Record, now time.Time) error {
	c, err := decode(rec)
	if err != nil {
		return err
	}
	var end time.Time
	if e := c.EndTimeText(); e != "" {
		if end, err = record.ParseTime(e); err != nil {
			return err
		}
	}
	if !end.IsZero() && !now.Before(end) {
		_, err := s.finish(ctx, rec, true)
		return err
	}

	started, err := s.admitStart(ctx, &c, end, now)
	if err != nil || !started {
		return err
	}
	s.eng.started(ctx, c) // outside the capacity lock, as in Create
	return nil
}

// admitStart turns the booked conference c running when there is
// capacity, under the capacity lock (capacity.go); false when it stays
// booked (full, or changed by someone else).
func (s *Conferences) admitStart(ctx context.Context, c *Conference, end, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.admit(ctx, c.Rec.DomainMoid, Reserved(*c)); err != nil {
		return false, nil // full: stays booked, tried again at the next tick
	}
	rec, booked := c.Rec, c.Rec
	var err error
	rec.State, rec.DueAt, rec.UpdatedAt = StateRunning, s.markStart(c, end, now), now
	if rec.Data, _, err = encodeConf(*c); err != nil {
		return false, err
	}
	if err := s.st.SwapRecord(ctx, rec); errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) {
		return false, nil // started, changed or ended by someone else; seen again at the next tick if still due
	} else if err != nil {
		return false, err
	}
	rec.Version++
	if err := s.recheck(ctx, rec.DomainMoid); err != nil {
		booked.UpdatedAt = now
		if err := s.st.UpdateRecord(ctx, booked, StateRunning); err != nil && !errors.Is(err, store.ErrNotFound) {
			return false, err
		}
		return false, nil
	}
	c.Rec = rec
	return true, nil
}

// Update writes a conference's document, state and due time (for the
// engine and conference control) over the version it was read at:
// store.ErrConflict when it changed meanwhile (read again and retry),
// store.ErrNotFound when it has ended.
func (s *Conferences) Update(ctx context.Context, c Conference) error {
	return s.update(ctx, c, func(rec store.Record) error { return s.st.SwapRecord(ctx, rec) })
}

// update encodes c's document, lets swap write it, and keeps the
// document for the bytes written.
func (s *Conferences) update(ctx context.Context, c Conference, swap func(rec store.Record) error) error {
	data, roles, err := encodeConf(c)
	if err != nil {
		return err
	}
	rec := c.Rec
	rec.Data, rec.UpdatedAt = data, s.clk.Now()
	key := docKey(rec.DomainMoid, rec.ID)
	if err := swap(rec); err != nil {
		s.docs.forget(key)
		return err
	}
	// The next read of these bytes (this node's next control of the
	// conference) decodes nothing: the document's members are what
	// decoding them gives (a setter writes a member through its JSON,
	// record.SetKept), and so are the own members when ownValid.
	if c.ownValid() {
		rec.Version++ // every swap stores the next version (sqlstore updateRecord)
		kept := c.cloneOwn()
		kept.Roles, kept.Doc = roles, c.Doc.clone()
		s.docs.put(key, rec, kept)
	} else {
		s.docs.forget(key)
	}
	return nil
}
