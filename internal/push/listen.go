package push

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// listener is the tailer's subscription to the store's wake-ups
// (store.EventWaker; LISTEN/NOTIFY on PostgreSQL): while it is live, a
// commit on any node wakes the tailer, so the log is read every
// SafetyPoll only; otherwise (SQLite, or a listener reconnecting) every
// Poll. Reading the log 20 times a second was 46 % of an idle node's CPU
// on PostgreSQL (docs/benchmarks.md).
type listener struct {
	sub    store.Wakeups // nil when the store cannot wake the tailer
	live   bool
	warned bool
}

func (t *tailer) listen(ctx context.Context) *listener {
	l := &listener{}
	w, ok := t.s.cfg.Events.(store.EventWaker)
	if !ok {
		return l
	}
	sub, err := w.SubscribeEvents(ctx)
	if err != nil {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.s.log.Warn("push: not woken by other nodes' commits; reading the event log every "+t.s.opt.Poll.String(), "err", err)
		}
		return l
	}
	l.sub = sub
	return l
}

// c receives the wake-ups; nil (never) without a subscription.
func (l *listener) c() <-chan struct{} {
	if l.sub == nil {
		return nil
	}
	return l.sub.C()
}

// interval is how long the tailer waits for a wake-up before reading the
// log anyway.
func (l *listener) interval(o Options) time.Duration {
	if l.live {
		return o.SafetyPoll
	}
	return o.Poll
}

// update takes the subscription's state after a wake-up (every change of
// it wakes) and logs a loss once, and the recovery after it.
func (l *listener) update(t *tailer) {
	err := l.sub.Err()
	switch {
	case err == nil && !l.live:
		l.live = true
		if l.warned {
			l.warned = false
			t.s.log.Info("push: woken by other nodes' commits again; reading the event log every " + t.s.opt.SafetyPoll.String())
		}
	case err != nil:
		l.live = false
		if !l.warned {
			l.warned = true
			t.s.log.Warn("push: not woken by other nodes' commits; reading the event log every "+t.s.opt.Poll.String()+" until the listener is back", "err", err)
		}
	}
}
