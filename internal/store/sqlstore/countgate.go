package sqlstore

import (
	"context"
	"sync"
	"time"
)

// countGate coalesces concurrent reads of the event counter where each is
// a query (PostgreSQL: a round trip; walstamp.go spares SQLite the query).
// Kept pages and listings (confpage.go, keys.go) read the counter on every
// list; sixteen lists in flight made sixteen round trips for one value.
//
// A read answers a caller only if it started after the caller arrived, so
// the counter it returns includes every commit acknowledged before the
// caller's request began, on any node: the freshness of a read of its
// own (read-your-writes across nodes). A caller arriving while a read is
// in flight shares the next read, started as soon as that one ends; a
// caller arriving when none is in flight reads at once.
type countGate struct {
	mu      sync.Mutex
	running bool
	next    *countRead // the read that callers arriving now share
}

type countRead struct {
	ctx    context.Context
	done   chan struct{}
	n      int64
	err    error
	shared int // callers waiting for it (tests)
}

// countReadTimeout bounds a shared read, which no single caller's context
// may cancel for the others.
const countReadTimeout = 10 * time.Second

func (g *countGate) do(ctx context.Context, read func(context.Context) (int64, error)) (int64, error) {
	g.mu.Lock()
	if g.next == nil {
		g.next = &countRead{ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
	}
	r := g.next
	r.shared++
	if !g.running { // nothing in flight: read now, in this goroutine
		g.next, g.running = nil, true
		g.mu.Unlock()
		g.run(r, read)
		return r.n, r.err
	}
	g.mu.Unlock()
	select {
	case <-r.done:
		return r.n, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// run performs r, then starts the read the callers who arrived meanwhile
// wait for.
func (g *countGate) run(r *countRead, read func(context.Context) (int64, error)) {
	ctx, cancel := context.WithTimeout(r.ctx, countReadTimeout)
	r.n, r.err = read(ctx)
	cancel()
	close(r.done)
	g.mu.Lock()
	next := g.next
	g.next, g.running = nil, next != nil
	g.mu.Unlock()
	if next != nil {
		go g.run(next, read)
	}
}

// waiting is the number of callers waiting for the next read (tests).
func (g *countGate) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.next == nil {
		return 0
	}
	return g.next.shared
}
