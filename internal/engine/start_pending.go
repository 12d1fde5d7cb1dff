package engine

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// A conference start is a write (the record becomes running) followed by
// its follow-up, Engine.started: the features set at creation and the
// calls to the invitees (conference.go). A node that stops between the two
// must not leave the conference running with nobody called (issue 12,
// docs/deployment.md "Time-driven work"). So the write that starts a
// conference also marks its start pending (DocStartPending) and makes the
// conference due StartLease later; the node that runs the follow-up
// removes the mark when it is done (StartDone), which makes the conference
// due at its end again. A mark still there when the conference comes due
// means the follow-up did not finish: RunDue takes a lease on it and runs
// the follow-up again, which does what is left (it is idempotent). A conference whose end comes first just ends.

// DocStartPending is the internal field of a running conference whose
// start's follow-up is not known to be done: the start time (RFC 3339
// with nanoseconds). Replies never show it: they hold only the fields of
// their reply schema (shape.Project), as for every internal "_" field.
const DocStartPending = "_start_pending"

// StartLease is how long a start's follow-up may take before another node
// runs it again, the lease of the engine's due calls (engine/claim.go).
const StartLease = 30 * time.Second

// markStart marks a conference that starts at now with end as pending
// until its follow-up is done, and returns its due time: the lease's end,
// or its own end when that comes first.
func (s *Conferences) markStart(c *Conference, end, now time.Time) time.Time {
	c.setStartPending(now.UTC().Format(time.RFC3339Nano))
	return DueOf(*c, end)
}

// DueOf is the due time of a running conference ending at end (zero:
// never): its end, or the end of its start's lease while the start is
// pending and the lease ends first. A change of a running conference's
// end stores this as its due time.
func DueOf(c Conference, end time.Time) time.Time {
	mark, err := time.Parse(time.RFC3339Nano, c.StartPending())
	if err != nil {
		return end
	}
	if due := mark.Add(StartLease); end.IsZero() || due.Before(end) {
		return due
	}
	return end
}

// endOf reads a conference's end (zero for a permanent one).
func endOf(c Conference) (time.Time, error) {
	e := c.EndTimeText()
	if e == "" {
		return time.Time{}, nil
	}
	return record.ParseTime(e)
}

// StartDone removes the pending mark of c's start once its follow-up is
// done, and makes the conference due at its end again. It does nothing
// when the conference ended, or when the mark is not c's (removed by
// another node, or a later conference under the same number).
func (s *Conferences) StartDone(ctx context.Context, c Conference) error {
	mark := c.StartPending()
	if mark == "" {
		return nil
	}
	for {
		cur, err := s.Get(ctx, c.Rec.DomainMoid, c.ID(), StateRunning)
		if errors.Is(err, ErrConfNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if cur.StartPending() != mark || cur.MeetingID() != c.MeetingID() {
			return nil
		}
		cur.setStartPending("")
		if cur.Rec.DueAt, err = endOf(cur); err != nil {
			return err
		}
		err = s.Update(ctx, cur)
		switch {
		case errors.Is(err, store.ErrConflict):
			continue // changed meanwhile: read it again
		case errors.Is(err, store.ErrNotFound):
			return nil
		}
		return err
	}
}

// pendingStart tells whether a running conference that came due is a
// start whose follow-up did not finish, rather than one whose end came.
func pendingStart(rec store.Record, now time.Time) (Conference, bool) {
	c, err := decode(rec)
	if err != nil || c.StartPending() == "" {
		return Conference{}, false
	}
	end, err := endOf(c)
	if err != nil || (!end.IsZero() && !now.Before(end)) {
		return Conference{}, false
	}
	return c, true
}

// resumeStart runs the follow-up again for a start whose follow-up did
// not finish, under a lease so that of several nodes one runs it, and
// another only when that one stops too (store.Claimer). The lease is named
// by the mark, which the follow-up's own writes to the conference leave
// alone, so it holds while they bump the record's version.
func (s *Conferences) resumeStart(ctx context.Context, c Conference) error {
	if cl, ok := s.st.(store.Claimer); ok {
		now := s.clk.Now()
		name := "start/" + c.Rec.DomainMoid + "/" + c.ID() + "@" + c.StartPending()
		mine, err := cl.Claim(ctx, name, now, now.Add(StartLease))
		if err != nil || !mine {
			return err
		}
	}
	s.eng.started(ctx, c)
	return nil
}
