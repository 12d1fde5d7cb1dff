package lifecycle

import (
	"context"
	"testing"
)

// TestGroup: Stop ends the group's context, waits for its goroutines and
// refuses new ones; a nil group runs nothing.
func TestGroup(t *testing.T) {
	g := NewGroup()
	started, release := make(chan struct{}), make(chan struct{})
	finished := false
	if !g.Go(func(ctx context.Context) {
		close(started)
		<-ctx.Done()
		<-release
		finished = true
	}) {
		t.Fatal("Go refused before Stop")
	}
	<-started
	g.Close()
	if !g.Stopping() || g.Context().Err() == nil {
		t.Fatal("after Close the group is not stopping or its context is not done")
	}
	if g.Go(func(context.Context) { t.Error("a goroutine ran after Close") }) {
		t.Fatal("Go accepted after Close")
	}
	close(release)
	if err := g.Wait(context.Background()); err != nil || !finished {
		t.Fatalf("Wait = %v, goroutine finished %v", err, finished)
	}
	var none *Group
	if none.Go(func(context.Context) {}) {
		t.Fatal("a nil group ran a goroutine")
	}
}
