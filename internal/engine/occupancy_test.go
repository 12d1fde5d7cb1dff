package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

type occFixture struct {
	st  *sqlstore.DB
	clk *clock.Fake
	e   *Engine
}

func occSetup(t *testing.T, dsn string) *occFixture {
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clock.NewFake(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	return &occFixture{st, clk, New(st, clk, Config{}, nil, nil, nil)}
}

// conf stores a conference record in state and returns its engine view.
func (f *occFixture) conf(t *testing.T, id, state string) Conf {
	now := f.clk.Now()
	err := f.st.CreateRecord(context.Background(), store.Record{Kind: record.KindConf, ID: id, DomainMoid: "dom",
		State: state, Data: []byte(`{"name":"conf ` + id + `"}`), CreatedAt: now, UpdatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	return Conf{DomainMoid: "dom", ConfID: id, CallMode: CallAutomatic, CallTimes: 1, CallInterval: 20 * time.Second, Bitrate: 1024}
}

// ringing adds the IP terminal account to c, called, with its answer as
// the media plane reports it (CallOutcome) for settle to apply.
func (f *occFixture) ringing(t *testing.T, e *Engine, c Conf, account string) Terminal {
	ts, err := e.Add(context.Background(), c, []Member{{Callee: media.Callee{Account: account}, CallMode: -1}})
	if err != nil || len(ts) != 1 || ts[0].Rec.State != StateCalling {
		t.Fatalf("add %s: %v %v", account, ts, err)
	}
	setIdentity(&ts[0], media.Answered, media.Identity{Alias: account, IP: account, MtType: 1})
	return ts[0]
}

// Two nodes answering calls of one terminal in two conferences at once:
// exactly one brings it online, the other's call is busy.
func TestOccupancyRace(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		f := occSetup(t, dsn)
		g := occSetup(t, dsn) // a second node on the same database
		g.clk = f.clk
		g.e = New(g.st, f.clk, Config{}, nil, nil, nil)
		ctx := context.Background()
		for i := 0; i < 10; i++ {
			a, b := f.conf(t, fmt.Sprint(2000+2*i), StateRunning), f.conf(t, fmt.Sprint(2001+2*i), StateRunning)
			acct := fmt.Sprintf("10.7.0.%d", i+1)
			ta, tb := f.ringing(t, f.e, a, acct), f.ringing(t, g.e, b, acct)
			var wg sync.WaitGroup
			var errA, errB error
			wg.Add(2)
			go func() { defer wg.Done(); _, errA = f.e.settle(ctx, a, ta) }()
			go func() { defer wg.Done(); _, errB = g.e.settle(ctx, b, tb) }()
			wg.Wait()
			if errA != nil || errB != nil {
				t.Fatalf("settle: %v, %v", errA, errB)
			}
			online := 0
			for _, c := range []Conf{a, b} {
				got, err := f.e.getLocal(ctx, c, "1")
				if err != nil {
					t.Fatal(err)
				}
				if got.Rec.State == StateOnline {
					online++
				} else if code := got.Own.OccupyCode.Value; code != CodeOccupiedHere {
					t.Errorf("round %d: the busy call's code = %d", i, code)
				}
			}
			if online != 1 {
				t.Fatalf("round %d: %d conferences have the terminal online, want 1", i, online)
			}
		}
	})
}

// A stale occupancy record (its holder gone, not online, or in a
// conference that ended) is taken over; a live one is not.
func TestOccupancySelfHealing(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		f := occSetup(t, dsn)
		ctx := context.Background()
		ended := f.conf(t, "3000", "ended")
		live := f.conf(t, "3001", StateRunning)
		// a terminal left online in an ended conference (its removal leaked)
		te := f.ringing(t, f.e, ended, "10.8.0.1")
		if te, err := f.e.settle(ctx, ended, te); err != nil || te.Rec.State != StateOnline {
			t.Fatalf("settle: %v %v", te.Rec.State, err)
		}
		// a record naming a terminal that does not exist
		now := f.clk.Now()
		data, _ := json.Marshal(holder{Domain: "dom", ConfID: live.ConfID, MtID: "99"})
		if err := f.st.CreateRecord(ctx, store.Record{Kind: KindOccupancy, ID: "ip:10.8.0.2", DomainMoid: occupancyDomain,
			State: occHeld, Data: data, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		c := f.conf(t, "3002", StateRunning)
		for i, acct := range []string{"10.8.0.1", "10.8.0.2"} {
			tm := f.ringing(t, f.e, c, acct)
			tm, err := f.e.settle(ctx, c, tm)
			if err != nil || tm.Rec.State != StateOnline {
				t.Fatalf("%s: state %s, err %v, want online over a stale record", acct, tm.Rec.State, err)
			}
			rec, err := f.st.GetRecord(ctx, KindOccupancy, occupancyDomain, "ip:"+acct)
			var h holder
			_ = json.Unmarshal(rec.Data, &h)
			if err != nil || rec.State != occHeld || h != (holder{"dom", c.ConfID, fmt.Sprint(i + 1)}) {
				t.Fatalf("%s: occupancy %+v %s, %v", acct, h, rec.State, err)
			}
		}
		// now live: another running conference finds it busy
		d := f.conf(t, "3003", StateRunning)
		tm, err := f.e.settle(ctx, d, f.ringing(t, f.e, d, "10.8.0.1"))
		if err != nil || tm.Rec.State == StateOnline || tm.Own.OccupyCode.Value != CodeOccupiedHere || tm.Own.OccupyConfName.Value != "conf 3002" {
			t.Fatalf("busy: %s %v, %v", tm.Rec.State, tm.Doc, err)
		}
		// hung up, the record is free and the next call takes it
		if err := f.e.hangupLocal(ctx, c, []string{"1"}); err != nil {
			t.Fatal(err)
		}
		if rec, err := f.st.GetRecord(ctx, KindOccupancy, occupancyDomain, "ip:10.8.0.1"); err != nil || rec.State != occFree {
			t.Fatalf("after the hang-up: %s, %v", rec.State, err)
		}
		tm, err = f.e.dial(ctx, d, tm)
		if err != nil || tm.Rec.State != StateCalling {
			t.Fatalf("redial: %s, %v", tm.Rec.State, err)
		}
		setIdentity(&tm, media.Answered, media.Identity{Alias: "10.8.0.1", IP: "10.8.0.1", MtType: 1}) // its answer
		if tm, err := f.e.settle(ctx, d, tm); err != nil || tm.Rec.State != StateOnline || tm.Own.OccupyCode.Set {
			t.Fatalf("after the hang-up: %s %v, %v", tm.Rec.State, tm.Doc, err)
		}
	})
}
