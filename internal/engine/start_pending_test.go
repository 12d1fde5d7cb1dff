package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
)

// A start whose follow-up is not marked done (StartDone: its node stopped
// first) has its follow-up run again once, by one of the nodes, when the start's lease ends;
// while that node holds the lease nobody else runs it, and the conference
// still ends at its end. A start marked done is left alone.
func TestStartPendingResumedOnce(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		clk := clock.NewFake(start)
		nodes := []*node{newNode(t, dsn, clk, engine.Config{}), newNode(t, dsn, clk, engine.Config{})}
		started := func() int32 { return sum(nodes, func(n *node) int32 { return n.started.Load() }) }
		ended := func() int32 { return sum(nodes, func(n *node) int32 { return n.ended.Load() }) }
		nodes[0].stop = true // it stops after the write that starts the conference
		if err := stopped(func() error {
			_, err := nodes[0].svc.Create(ctx, engine.Spec{DomainMoid: "d1", OwnerMoid: "a1",
				Doc: specDoc(map[string]any{"name": "left pending", "duration": 1, "max_join_mt": 8})})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		l, err := nodes[1].svc.List(ctx, "d1", "", engine.StateRunning)
		if err != nil || len(l) != 1 {
			t.Fatalf("the stopped start: %v %v", l, err)
		}
		c := l[0]
		if c.StartPending() == "" || !c.Rec.DueAt.Equal(start.Add(engine.StartLease)) {
			t.Fatalf("a new conference: pending mark %v, due %v; want the mark, due at the lease's end", c.StartPending(), c.Rec.DueAt)
		}
		steps := []struct {
			at              time.Duration
			started, ending int32
		}{
			{engine.StartLease - time.Second, 1, 0},
			{engine.StartLease, 2, 0},                  // resumed once
			{engine.StartLease + 15*time.Second, 2, 0}, // its lease holds
			{time.Minute, 2, 1},                        // its end comes first
		}
		for _, s := range steps {
			clk.Set(start.Add(s.at))
			runAll(t, nodes)
			if started() != s.started || ended() != s.ending {
				t.Errorf("at %v: started %d times, ended %d; want %d, %d", s.at, started(), ended(), s.started, s.ending)
			}
		}

		done, err := nodes[1].svc.Create(ctx, engine.Spec{DomainMoid: "d1", OwnerMoid: "a1",
			Doc: specDoc(map[string]any{"name": "followed up", "duration": 0, "max_join_mt": 8})})
		if err != nil {
			t.Fatal(err)
		}
		if err := nodes[1].svc.StartDone(ctx, done); err != nil {
			t.Fatal(err)
		}
		got, err := nodes[0].svc.Get(ctx, "d1", done.ID())
		if err != nil {
			t.Fatal(err)
		}
		if got.StartPending() != "" || !got.Rec.DueAt.IsZero() {
			t.Errorf("after StartDone: pending mark %v, due %v; want neither (a permanent conference)", got.StartPending(), got.Rec.DueAt)
		}
		before := started()
		clk.Advance(2 * engine.StartLease)
		runAll(t, nodes)
		if started() != before {
			t.Errorf("a start marked done was run again: %d starts, want %d", started(), before)
		}
	})
}
