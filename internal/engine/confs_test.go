package engine_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// node is one Confer process: its own store connection and Service on the
// shared database, counting the changes its hooks see.
type node struct {
	svc            *engine.Conferences
	started, ended atomic.Int32
	// stop makes the node stop (a panic of errStopped, which runAll and
	// stopped recover) when it follows a start up, before it marks the
	// start done.
	stop bool
}

var errStopped = errors.New("the node stopped")

// stopped runs f on a node that may stop (node.stop).
func stopped(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil && v != errStopped {
			panic(v)
		}
	}()
	return f()
}

func newNode(t *testing.T, dsn string, clk clock.Clock, cfg engine.Config) *node {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	n := &node{}
	n.svc = engine.New(st, clk, cfg, nil, nil, func(*engine.Engine) engine.Features { return counting{n: n} }).Conferences()
	return n
}

// counting counts the starts and ends that its node follows up.
type counting struct {
	engine.NoFeatures
	n *node
}

func (c counting) Started(context.Context, engine.Conference) engine.Change {
	c.n.started.Add(1)
	if c.n.stop {
		panic(errStopped)
	}
	return engine.Change{}
}
func (c counting) Ended(context.Context, engine.Conference) (engine.Effects, error) {
	c.n.ended.Add(1)
	return engine.Effects{}, nil
}

// runAll runs RunDue on every node at once, several times.
func runAll(t *testing.T, nodes []*node) {
	t.Helper()
	var wg sync.WaitGroup
	for _, n := range nodes {
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := stopped(func() error { return n.svc.RunDue(context.Background()) }); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
}

func sum(nodes []*node, f func(*node) int32) int32 {
	var s int32
	for _, n := range nodes {
		s += f(n)
	}
	return s
}

// Booked conferences start once and timed ones end once, however many
// nodes run the due work at the same time; the capacity holds across
// nodes; what could not start stays booked.
func TestRunDueExactlyOnceAcrossNodes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		clk := clock.NewFake(start)
		cfg := engine.Config{MaxConfs: 3}
		nodes := []*node{newNode(t, dsn, clk, cfg), newNode(t, dsn, clk, cfg)}
		for i := 0; i < 5; i++ {
			_, err := nodes[0].svc.Create(ctx, engine.Spec{DomainMoid: "d1", OwnerMoid: "a1",
				Doc:   specDoc(map[string]any{"name": "booked", "duration": 30, "max_join_mt": 8}),
				Start: start.Add(time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
		}
		clk.Advance(time.Hour)
		runAll(t, nodes)
		if got := sum(nodes, func(n *node) int32 { return n.started.Load() }); got != 3 {
			t.Fatalf("started %d conferences, want 3 (the capacity)", got)
		}
		running, err := nodes[1].svc.List(ctx, "d1", "", engine.StateRunning)
		if err != nil || len(running) != 3 {
			t.Fatalf("running = %d, %v; want 3", len(running), err)
		}
		booked, _ := nodes[1].svc.List(ctx, "d1", "", engine.StateBooked)
		if len(booked) != 2 {
			t.Fatalf("booked = %d, want 2 waiting for capacity", len(booked))
		}

		// The three end at 10:30; the two waiting then start and end at
		// their booked end, 10:30 too, so they are dropped unstarted.
		clk.Advance(30 * time.Minute)
		runAll(t, nodes)
		if got := sum(nodes, func(n *node) int32 { return n.ended.Load() }); got != 3 {
			t.Fatalf("ended %d conferences, want 3", got)
		}
		if got := sum(nodes, func(n *node) int32 { return n.started.Load() }); got != 3 {
			t.Fatalf("started %d conferences in all, want 3", got)
		}
		u, err := nodes[0].svc.Usage(ctx)
		if err != nil || u.Confs != 0 || u.Ports != 0 {
			t.Fatalf("usage after the end = %+v, %v", u, err)
		}
	})
}

// Concurrent instant creations on two nodes never exceed the capacity.
func TestCreateCapacityAcrossNodes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		clk := clock.NewFake(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
		cfg := engine.Config{MaxConfs: 4}
		nodes := []*node{newNode(t, dsn, clk, cfg), newNode(t, dsn, clk, cfg)}
		var wg sync.WaitGroup
		var ok atomic.Int32
		for i := 0; i < 12; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := nodes[i%2].svc.Create(context.Background(), engine.Spec{DomainMoid: "d1",
					Doc: specDoc(map[string]any{"name": "c", "max_join_mt": 8})})
				if err == nil {
					ok.Add(1)
				}
			}()
		}
		wg.Wait()
		u, err := nodes[0].svc.Usage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if u.Confs > 4 || int(ok.Load()) != u.Confs || u.Confs == 0 {
			t.Fatalf("%d creations succeeded, %d running; want at most 4, equal", ok.Load(), u.Confs)
		}
	})
}

// An ending interrupted between the state change and the deletion is
// finished by RunDue a minute later, freeing the number.
func TestSweepEndedRecords(t *testing.T) {
	dsn := testdb.SQLite(t)
	ctx := context.Background()
	clk := clock.NewFake(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	n := newNode(t, dsn, clk, engine.Config{})
	c, err := n.svc.Create(ctx, engine.Spec{DomainMoid: "d1", Doc: specDoc(map[string]any{"name": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := c.Rec
	rec.State, rec.DueAt = engine.StateEnded, clk.Now()
	if err := st.UpdateRecord(ctx, rec, engine.StateRunning); err != nil {
		t.Fatal(err)
	}
	if _, err := n.svc.Get(ctx, "d1", c.ID()); err == nil {
		t.Fatal("an ended conference is still found")
	}
	clk.Advance(2 * time.Minute)
	if err := n.svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetRecord(ctx, record.KindConf, "d1", c.ID()); err != store.ErrNotFound {
		t.Fatalf("ended record not swept: %v", err)
	}
}
