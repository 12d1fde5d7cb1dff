package sqlstore

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// Callers that arrive while a read is in flight share the next read, and
// every caller's answer comes from a read that started after it arrived.
func TestCountGateSharesOnlyLaterReads(t *testing.T) {
	var g countGate
	var clock, reads atomic.Int64
	release := make(chan struct{})
	first := make(chan struct{})
	read := func(context.Context) (int64, error) {
		started := clock.Add(1)
		if reads.Add(1) == 1 {
			close(first)
			<-release // the first read stays in flight while the others arrive
		}
		return started, nil
	}
	const callers = 50
	arrived := make([]int64, callers+1)
	got := make([]int64, callers+1)
	var wg sync.WaitGroup
	wg.Go(func() { arrived[0] = clock.Add(1); got[0], _ = g.do(context.Background(), read) })
	<-first
	var in sync.WaitGroup
	for i := 1; i <= callers; i++ {
		in.Add(1)
		wg.Go(func() {
			arrived[i] = clock.Add(1)
			in.Done()
			got[i], _ = g.do(context.Background(), read)
		})
	}
	in.Wait()
	for g.waiting() < callers {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	for i := range got {
		if got[i] <= arrived[i] {
			t.Errorf("caller %d arrived at %d and got a read started at %d", i, arrived[i], got[i])
		}
	}
	if n := reads.Load(); n != 2 {
		t.Errorf("%d reads for %d callers arriving during one read, want the next read shared", n, callers+1)
	}
}

// A caller whose context ends stops waiting; the shared read goes on for
// the others.
func TestCountGateCallerCancelled(t *testing.T) {
	var g countGate
	release := make(chan struct{})
	inFlight := make(chan struct{})
	var once sync.Once
	read := func(context.Context) (int64, error) {
		once.Do(func() { close(inFlight); <-release })
		return 7, nil
	}
	go func() { _, _ = g.do(context.Background(), read) }()
	<-inFlight
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.do(ctx, read); err == nil {
		t.Fatal("a cancelled caller got an answer while the read was blocked")
	}
	close(release)
	if n, err := g.do(context.Background(), read); n != 7 || err != nil {
		t.Fatalf("after: %d, %v", n, err)
	}
}
