// Package lifecycle holds the goroutine group a server owns: every
// background goroutine of the node (the push tailer, the tick, the
// janitor, recording and playback watchers) runs in it, and the server's
// Stop waits for all of them before the store closes
// (docs/architecture.md "One lifecycle"). It is etcd's GoAttach: a
// goroutine asked for once the group stops is not started.
package lifecycle

import (
	"context"
	"sync"
)

// Group is a set of goroutines that share one context and are waited for
// together. The zero value is not usable: make one with NewGroup.
type Group struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.RWMutex // held for reading by Go, for writing by Stop
	stopping bool
	wg       sync.WaitGroup
}

// NewGroup returns a running group; its context ends at Stop.
func NewGroup() *Group {
	ctx, cancel := context.WithCancel(context.Background())
	return &Group{ctx: ctx, cancel: cancel}
}

// Go runs f in a goroutine of the group with the group's context, and
// reports whether it did: once Stop began, f is not run (the caller
// treats it as cancelled), so that nothing new starts while Stop waits.
// A nil group runs nothing.
func (g *Group) Go(f func(ctx context.Context)) bool {
	if g == nil {
		return false
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.stopping {
		return false
	}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f(g.ctx)
	}()
	return true
}

// Context is the group's context: it ends when Stop begins.
func (g *Group) Context() context.Context { return g.ctx }

// Stopping reports whether Stop began.
func (g *Group) Stopping() bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.stopping
}

// Close refuses new goroutines and cancels the group's context, without
// waiting: the owner then stops what the goroutines wait on (media, files)
// and calls Wait.
func (g *Group) Close() {
	g.mu.Lock()
	g.stopping = true
	g.mu.Unlock()
	g.cancel()
}

// Wait waits for every goroutine of the group to return, at most until
// ctx ends; it returns ctx's error when it gave up.
func (g *Group) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { g.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stop is Close then Wait.
func (g *Group) Stop(ctx context.Context) error {
	g.Close()
	return g.Wait(ctx)
}
