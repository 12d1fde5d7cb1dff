package store

import "context"

// EventWaker is an optional interface of an EventLog: it wakes the
// readers of the log on every node that shares the store when events are
// committed, so that they need not read the log often to learn of other
// nodes' changes (docs/push.md "How events reach every node"). sqlstore
// implements it on PostgreSQL with LISTEN/NOTIFY.
type EventWaker interface {
	// AnnounceEvents tells the subscribers of every node that events
	// were committed. It returns at once; the notification follows
	// within a few milliseconds, one for the commits of a burst. The
	// store announces its own commits that append events.
	AnnounceEvents()
	// SubscribeEvents returns wake-ups until ctx ends, or
	// errors.ErrUnsupported when the store cannot wake other nodes
	// (SQLite); the caller then reads the log at its own pace.
	SubscribeEvents(ctx context.Context) (Wakeups, error)
}

// Wakeups is a subscription of EventWaker.
type Wakeups interface {
	// C receives after events were committed on any node (several
	// commits may make one receive), and whenever Err changes, which
	// includes a reconnection after which events may have been missed.
	C() <-chan struct{}
	// Err is nil while wake-ups arrive; otherwise it says why they do
	// not (the listener is connecting or reconnecting): poll meanwhile.
	Err() error
}
