package engine_test

import (
	"context"
	"errors"
	"github.com/confer-platform/confer/internal/api"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/wire"
)

// apprCode is the platform's code of err, as the API edge answers it.
func apprCode(err error) int {
	var we *wire.Error
	if errors.As(api.Failure(err), &we) {
		return we.Code
	}
	return 0
}

// Who is held: with video_approval on, accounts that are not
// administrators of their domain (and unknown ones); never with it off.
// Approval of a booked conference books it, one whose start passed keeps
// its slot, one whose slot ended is dropped; several nodes approving at
// once start it once.
func TestApproval(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		clk := clock.NewFake(t0)
		st, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(st.CreateDomain(ctx, store.Domain{Moid: "d", Name: "d", CreatedAt: t0}))
		must(st.CreateAccount(ctx, store.Account{Moid: "adm", DomainMoid: "d", Username: "adm", PasswordHash: "x", Admin: true, CreatedAt: t0}))
		must(st.CreateAccount(ctx, store.Account{Moid: "usr", DomainMoid: "d", Username: "usr", PasswordHash: "x", CreatedAt: t0}))
		nodes := []*node{newNode(t, dsn, clk, engine.Config{}), newNode(t, dsn, clk, engine.Config{})}
		svc := nodes[0].svc

		for _, acct := range []string{"adm", "usr", "nobody"} {
			if held, err := svc.NeedsApproval(ctx, "d", acct); err != nil || held {
				t.Fatalf("approval off: NeedsApproval(%s) = %v, %v", acct, held, err)
			}
		}
		must(engine.SetApproval(ctx, st, "d", engine.Approval{Real: 1, Video: 1}, t0))
		must(engine.SetApproval(ctx, st, "d", engine.Approval{Real: 0, Video: 1}, t0)) // replaces
		if a, err := engine.GetApproval(ctx, st, "d"); err != nil || a != (engine.Approval{Video: 1}) {
			t.Fatalf("GetApproval = %+v, %v", a, err)
		}
		for acct, want := range map[string]bool{"adm": false, "usr": true, "nobody": true} {
			if held, err := svc.NeedsApproval(ctx, "d", acct); err != nil || held != want {
				t.Fatalf("NeedsApproval(%s) = %v, %v; want %v", acct, held, err, want)
			}
		}
		specOf := func(owner string, start time.Time, duration, ports int) engine.Spec {
			return engine.Spec{DomainMoid: "d", OwnerMoid: owner, Start: start, Doc: specDoc(map[string]any{"name": "c", "max_join_mt": ports, "duration": duration})}
		}
		spec := func(owner string, start time.Time, duration int) engine.Spec {
			return specOf(owner, start, duration, 8)
		}
		c, err := svc.CreateOrHold(ctx, spec("adm", time.Time{}, 0))
		if err != nil || c.Rec.State != engine.StateRunning {
			t.Fatalf("an administrator's conference: %+v, %v", c.Rec, err)
		}

		// Instant, approved by two nodes at once: starts once.
		c, err = svc.CreateOrHold(ctx, spec("usr", time.Time{}, 0))
		if err != nil || c.Rec.State != engine.StatePending || c.MeetingID() == "" {
			t.Fatalf("held: %+v, %v", c.Rec, err)
		}
		var wg sync.WaitGroup
		var oks, notFound int32
		var mu sync.Mutex
		for _, n := range nodes {
			for i := 0; i < 2; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := n.svc.Approve(ctx, "d", c.ID())
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						oks++
					case apprCode(err) == wire.CodeConfNotFound:
						notFound++
					default:
						t.Error(err)
					}
				}()
			}
		}
		wg.Wait()
		if oks != 1 || notFound != 3 || sum(nodes, func(n *node) int32 { return n.started.Load() }) != 2 {
			t.Fatalf("concurrent approvals: %d ok, %d not found, %d started (1 + the administrator's)", oks, notFound,
				sum(nodes, func(n *node) int32 { return n.started.Load() }))
		}

		// Booked for 10:00 for 30 minutes.
		booked, err := svc.CreateOrHold(ctx, spec("usr", t0.Add(time.Hour), 30))
		must(err)
		late, err := svc.CreateOrHold(ctx, spec("usr", t0.Add(time.Hour), 30))
		must(err)
		gone, err := svc.CreateOrHold(ctx, spec("usr", t0.Add(time.Hour), 30))
		must(err)
		if ps, err := svc.Pending(ctx, "d", "usr"); err != nil || len(ps) != 3 {
			t.Fatalf("Pending = %d, %v", len(ps), err)
		}
		b, err := svc.Approve(ctx, "d", booked.ID())
		if err != nil || b.Rec.State != engine.StateBooked || !b.Rec.DueAt.Equal(t0.Add(time.Hour)) {
			t.Fatalf("approve booked: %+v, %v", b.Rec, err)
		}
		clk.Set(t0.Add(70 * time.Minute)) // after its start, before its end
		l, err := svc.Approve(ctx, "d", late.ID())
		if err != nil || l.Rec.State != engine.StateRunning || l.EndTimeText() != "2026-03-01T10:30:00+00:00" {
			t.Fatalf("approve after the start keeps the slot: %+v %v, %v", l.Rec, l.EndTimeText(), err)
		}
		clk.Set(t0.Add(2 * time.Hour)) // after its end: dropped
		if _, err := svc.Approve(ctx, "d", gone.ID()); apprCode(err) != wire.CodeConfNotFound {
			t.Fatalf("approve after the slot = %v", err)
		}
		if _, err := svc.Get(ctx, "d", gone.ID(), engine.StatePending); apprCode(err) != wire.CodeConfNotFound {
			t.Fatalf("dropped conference still pending: %v", err)
		}
		if err := svc.Reject(ctx, "d", gone.ID()); apprCode(err) != wire.CodeConfNotFound {
			t.Fatalf("reject of a dropped conference = %v", err)
		}
		// Too large for the platform: refused at once.
		big := specOf("usr", time.Time{}, 0, 5000)
		if _, err := svc.CreateOrHold(ctx, big); apprCode(err) != api.CodeNoResource {
			t.Fatalf("hold beyond the platform = %v", err)
		}
	})
}
