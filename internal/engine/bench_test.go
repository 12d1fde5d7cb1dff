package engine_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// Engine benchmarks through the real store (docs/benchmarks.md, issue 11):
// SQLite by default, PostgreSQL with CONFER_BENCH_POSTGRES=1 and
// CONFER_TEST_POSTGRES.
//
//	go test ./internal/engine -run '^$' -bench . -benchtime 2s

// benchEngine is an engine on a fresh store with the simulated media
// backend and a fake clock.
func benchEngine(b *testing.B) (*engine.Engine, *clock.Fake) {
	dsn := testdb.SQLite(b)
	if os.Getenv("CONFER_BENCH_POSTGRES") == "1" {
		dsn = testdb.Postgres(b)
	}
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	clk := clock.NewFake(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	return engine.New(st, clk, engine.Config{MaxConfs: 1 << 20, MaxPorts: 1 << 30}, nil, nil, nil), clk
}

// benchConf is the running conference n (number 1110000+n: automatic
// calls, max_join_mt 192), created on first use.
func benchConf(b *testing.B, e *engine.Engine, n int) engine.Conf {
	ctx := context.Background()
	id := fmt.Sprint(1110000 + n)
	c, err := e.Conferences().Get(ctx, "dom", id, engine.StateRunning)
	if err != nil {
		c, err = e.Conferences().Create(ctx, engine.Spec{DomainMoid: "dom", OwnerMoid: "acct", Number: id, Doc: specDoc(map[string]any{
			"name": id, "call_mode": engine.CallAutomatic, "call_times": 3, "call_interval": 20, "max_join_mt": 192, "bitrate": 2048, "duration": 0})})
	}
	if err != nil {
		b.Fatal(err)
	}
	return engine.ConfOf(c)
}

// ipMembers are n terminals called by IP address (the simulation answers
// them after 2 seconds); seq makes the addresses distinct (up to 6.25
// million terminals).
func ipMembers(seq, n int) []engine.Member {
	ms := make([]engine.Member, n)
	for i := range ms {
		k := seq*n + i
		ip := fmt.Sprintf("10.%d.%d.%d", 77+k/62500%100, k/250%250, 1+k%250)
		ms[i] = engine.Member{Callee: media.Callee{Account: ip}, CallMode: -1}
	}
	return ms
}

// onlineConfs adds confs conferences of mts IP terminals each and lets
// the calls be answered, so that nothing is due afterwards.
func onlineConfs(b *testing.B, e *engine.Engine, clk *clock.Fake, confs, mts int) []engine.Conf {
	ctx := context.Background()
	cs := make([]engine.Conf, confs)
	for i := range cs {
		cs[i] = benchConf(b, e, i)
		if _, err := e.Add(ctx, cs[i], ipMembers(i, mts)); err != nil {
			b.Fatal(err)
		}
	}
	clk.Advance(media.DefaultAnswerAfter)
	if err := e.RunDue(ctx); err != nil {
		b.Fatal(err)
	}
	if tm, err := e.Get(ctx, cs[0], "1"); err != nil || tm.Rec.State != engine.StateOnline {
		b.Fatalf("terminal 1 after the answer: %s %v", tm.Rec.State, err)
	}
	return cs
}

// benchControl runs one state change of an online terminal per op, over
// the terminals of 4 conferences of 8, alternating on and off.
func benchControl(b *testing.B, change func(e *engine.Engine, c engine.Conf, mtID string, on bool) error) {
	e, clk := benchEngine(b)
	cs := onlineConfs(b, e, clk, 4, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % 32
		if err := change(e, cs[k/8], fmt.Sprint(1+k%8), (i/32)%2 == 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetMute: mute or unmute an online terminal (read, apply through
// the backend, one committed swap with its event).
func BenchmarkSetMute(b *testing.B) {
	benchControl(b, func(e *engine.Engine, c engine.Conf, mtID string, on bool) error {
		_, err := e.SetMute(context.Background(), c, mtID, on)
		return err
	})
}

func BenchmarkSetSilence(b *testing.B) {
	benchControl(b, func(e *engine.Engine, c engine.Conf, mtID string, on bool) error {
		_, err := e.SetSilence(context.Background(), c, mtID, on)
		return err
	})
}

// BenchmarkSetCallMode: switch an online terminal between manual and
// automatic calling (a member property; no call is placed while online).
func BenchmarkSetCallMode(b *testing.B) {
	benchControl(b, func(e *engine.Engine, c engine.Conf, mtID string, on bool) error {
		mode := engine.CallManual
		if on {
			mode = engine.CallAutomatic
		}
		_, err := e.SetCallMode(context.Background(), c, mtID, mode)
		return err
	})
}

// BenchmarkHangupCall: hang an online terminal up and call it again (two
// state changes: online to idle, idle to calling with its due time).
// After each round of the 32 terminals, the answers are settled with the
// timer stopped, so that every op starts from an online terminal.
func BenchmarkHangupCall(b *testing.B) {
	e, clk := benchEngine(b)
	cs := onlineConfs(b, e, clk, 4, 8)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % 32
		if k == 0 && i > 0 {
			b.StopTimer()
			clk.Advance(media.DefaultAnswerAfter)
			if err := e.RunDue(ctx); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		ids := []string{fmt.Sprint(1 + k%8)}
		if err := e.Hangup(ctx, cs[k/8], ids); err != nil {
			b.Fatal(err)
		}
		if err := e.Call(ctx, cs[k/8], ids); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddBatch10: add 10 IP terminals to a conference in one call
// (Engine.Add: two transactions, then the calls), 19 batches per
// conference of max_join_mt 192, then the next conference.
func BenchmarkAddBatch10(b *testing.B) {
	e, _ := benchEngine(b)
	ctx := context.Background()
	var c engine.Conf
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%19 == 0 {
			b.StopTimer()
			c = benchConf(b, e, i/19)
			b.StartTimer()
		}
		if _, err := e.Add(ctx, c, ipMembers(i, 10)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunDueIdle: one tick of RunDue over 100 running conferences of
// 4 online terminals with nothing due (the cost of an idle tick).
func BenchmarkRunDueIdle(b *testing.B) {
	e, clk := benchEngine(b)
	onlineConfs(b, e, clk, 100, 4)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clk.Advance(time.Second)
		if err := e.RunDue(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
