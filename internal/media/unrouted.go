package media

import "context"

// Unrouted is the backend of the numbers no real endpoint takes when the
// simulated terminals are off (conferd without --simulated-terminals,
// issue 39): a call to such a number is never placed, and the terminal
// goes offline at once with the outcome NoRoute, which push reports as
// A3 20406 and nms as an alarm (docs/sip.md "Which numbers are called").
// A platform must never show a terminal in a call that does not exist.
type Unrouted struct {
	Events Events
}

// NoSimulation returns the Unrouted backend, for engine.New.
func NoSimulation() func(Events) Backend {
	return func(ev Events) Backend { return &Unrouted{Events: ev} }
}

// Dial reports NoRoute before it returns: the terminal is offline.
func (u *Unrouted) Dial(ctx context.Context, conf, mt string, c Callee) (Identity, error) {
	id := undirected(c)
	return id, u.Events.CallOutcome(ctx, conf, mt, NoRoute, id)
}

// Hangup has no call to end.
func (*Unrouted) Hangup(ctx context.Context, conf, mt string) error { return nil }

// Apply has no media to control.
func (*Unrouted) Apply(ctx context.Context, conf, mt string, c Control) error { return nil }

// SetBroadcast has no media to route.
func (*Unrouted) SetBroadcast(ctx context.Context, conf string, b Broadcast) error { return nil }

// SetMix has no media to route.
func (*Unrouted) SetMix(ctx context.Context, conf string, m Mix) error { return nil }

// SetDual has no media to route.
func (*Unrouted) SetDual(ctx context.Context, conf, mt string) error { return nil }

// EndConference has nothing to release.
func (*Unrouted) EndConference(ctx context.Context, conf string) error { return nil }
