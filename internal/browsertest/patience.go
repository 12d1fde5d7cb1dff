package browsertest

import (
	"context"
	"testing"
	"time"
)

// margin is how long before go test's -timeout a wait gives up, so that
// the failure names what was awaited instead of the timeout's panic.
const margin = time.Minute

// Deadline is when a test's waits give up: a minute before go test's
// -timeout, or the zero time when there is none. Tests wait for events
// until then, never for a wall-clock budget of their own, which a loaded
// machine overruns (issue 41: go test ./... under load).
func Deadline(t testing.TB) time.Time {
	d, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return time.Time{}
	}
	at, ok := d.Deadline()
	if !ok {
		return time.Time{}
	}
	return at.Add(-margin)
}

// Patient returns ctx bounded by Deadline(t) only (not at all without a
// -timeout).
func Patient(t testing.TB, ctx context.Context) (context.Context, context.CancelFunc) {
	if at := Deadline(t); !at.IsZero() {
		return context.WithDeadline(ctx, at)
	}
	return context.WithCancel(ctx)
}

// Expired tells whether Deadline(t) has passed.
func Expired(t testing.TB) bool {
	at := Deadline(t)
	return !at.IsZero() && time.Now().After(at)
}

// Expiry returns a channel that fires at Deadline(t) (never without a
// deadline): a select's bound that only go test's -timeout sets.
func Expiry(t testing.TB) <-chan time.Time {
	at := Deadline(t)
	if at.IsZero() {
		return nil
	}
	return time.After(time.Until(at))
}
