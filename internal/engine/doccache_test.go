package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/testdb"
)

// A node that kept a conference's decoded document (doccache.go) sees
// another node's change of it at its next read, and its own changes too.
func TestConfDocSeenAcrossNodes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		clk := clock.NewFake(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
		a, b := newNode(t, dsn, clk, engine.Config{}), newNode(t, dsn, clk, engine.Config{})
		c, err := a.svc.Create(ctx, engine.Spec{DomainMoid: "d1", OwnerMoid: "a1",
			Doc: specDoc(map[string]any{"name": "n", "duration": 30, "max_join_mt": 8})})
		if err != nil {
			t.Fatal(err)
		}
		set := func(n *node, speaker string) {
			t.Helper()
			for {
				c, err := n.svc.Get(ctx, "d1", c.ID(), engine.StateRunning)
				if err != nil {
					t.Fatal(err)
				}
				c.Roles.Speaker = speaker
				c.SetMember("n", len(speaker))
				if err := n.svc.Update(ctx, c); err == nil {
					return
				}
			}
		}
		get := func(n *node) engine.Conference {
			t.Helper()
			c, err := n.svc.Get(ctx, "d1", c.ID(), engine.StateRunning)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		set(a, "1")
		if got := get(a).Roles.Speaker; got != "1" {
			t.Fatalf("a reads speaker %q after its own change, want 1", got)
		}
		mine := get(a)
		mine.Roles.Speaker = "changed by a caller" // a copy: nothing kept changes
		mine.SetMember("n", 9)
		if got, n := get(a).Roles.Speaker, record.Int(get(a).Document(), "n"); got != "1" || n != 1 {
			t.Fatalf("a reads speaker %q, n %d after a caller changed its copy, want 1, 1", got, n)
		}
		set(b, "22")
		if got, n := get(a).Roles.Speaker, record.Int(get(a).Document(), "n"); got != "22" || n != 2 {
			t.Fatalf("a reads speaker %q, n %d after b's change, want 22, 2", got, n)
		}
		set(a, "333")
		if got := get(b).Roles.Speaker; got != "333" {
			t.Fatalf("b reads speaker %q after a's change, want 333", got)
		}
	})
}
