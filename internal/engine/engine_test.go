package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

type fixture struct {
	st  *sqlstore.DB
	clk *clock.Fake
	e   *engine.Engine
	c   engine.Conf
}

func setup(t *testing.T, dsn string) *fixture {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, d := range []store.DirectoryEntry{
		{Account: "1001", E164: "1001", Alias: "room-a", IP: "10.0.0.1", Behaviour: "answer", AnswerAfter: 3 * time.Second},
		{Account: "1002", E164: "1002", Behaviour: "offline"},
		{Account: "1003", E164: "1003", Behaviour: "busy"},
	} {
		if err := st.PutDirectoryEntry(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	clk := clock.NewFake(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	f := &fixture{st: st, clk: clk}
	f.use(t, engine.New(st, clk, engine.Config{}, nil, nil, nil))
	return f
}

// use makes e the fixture's engine, with a running conference 1110000
// (automatic calls, three attempts 20 s apart, 8 terminals, 2048 kbps).
func (f *fixture) use(t *testing.T, e *engine.Engine) {
	t.Helper()
	f.e = e
	c, err := e.Conferences().Get(context.Background(), "dom", "1110000", engine.StateRunning)
	if err != nil {
		c, err = e.Conferences().Create(context.Background(), engine.Spec{DomainMoid: "dom", OwnerMoid: "acct", Doc: specDoc(map[string]any{
			"name": "calls", "call_mode": engine.CallAutomatic, "call_times": 3, "call_interval": 20, "max_join_mt": 8, "bitrate": 2048, "duration": 0})})
	}
	if err != nil {
		t.Fatal(err)
	}
	f.c = engine.ConfOf(c)
}

func (f *fixture) advance(t *testing.T, d time.Duration) {
	t.Helper()
	f.clk.Advance(d)
	if err := f.e.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) states(t *testing.T) map[string]string {
	t.Helper()
	ts, err := f.e.List(context.Background(), f.c)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tm := range ts {
		out[tm.Account()] = tm.Rec.State
	}
	return out
}

func TestCallsAnswerFailAndRetry(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		f := setup(t, dsn)
		ctx := context.Background()
		members := []engine.Member{
			{Callee: media.Callee{Account: "1001", Bitrate: 1024}, CallMode: -1},
			{Callee: media.Callee{Account: "1002"}, CallMode: -1},
			{Callee: media.Callee{Account: "1003"}, CallMode: -1},
			{Callee: media.Callee{Account: "172.16.0.9"}, CallMode: -1},
			{Callee: media.Callee{Account: "1001"}, CallMode: engine.CallManual},
		}
		ts, err := f.e.Add(ctx, f.c, members)
		if err != nil {
			t.Fatal(err)
		}
		if len(ts) != 5 || ts[0].MtID() != "1" || ts[4].MtID() != "5" {
			t.Fatalf("Add = %d terminals, ids %s..%s", len(ts), ts[0].MtID(), ts[len(ts)-1].MtID())
		}
		// The offline terminal failed at once and waits to be called again.
		if got := f.states(t); got["1002"] != engine.StateCalling || got["1003"] != engine.StateCalling {
			t.Fatalf("after add: %v", got)
		}
		if tm, _ := f.e.Get(ctx, f.c, "2"); tm.Own.Redial != model.Some(true) || !tm.Rec.DueAt.Equal(f.clk.Now().Add(20*time.Second)) {
			t.Fatalf("offline terminal not scheduled for a redial in 20s: %s at %v", tm.Rec.Data, tm.Rec.DueAt)
		}
		f.advance(t, 2*time.Second) // the IP terminal answers after 2 s
		tm, _ := f.e.Get(ctx, f.c, "4")
		if tm.Rec.State != engine.StateOnline || tm.IP() != "172.16.0.9" {
			t.Fatalf("IP terminal after 2s: %s %s", tm.Rec.State, tm.Rec.Data)
		}
		tm, _ = f.e.Get(ctx, f.c, "1")
		if tm.Rec.State != engine.StateCalling {
			t.Fatalf("1001 after 2s: %s, want still ringing", tm.Rec.State)
		}
		f.advance(t, time.Second) // 1001 answers after 3 s
		tm, _ = f.e.Get(ctx, f.c, "1")
		chn := tm.Doc.VSndChn
		if tm.Rec.State != engine.StateOnline || tm.Doc.Online != model.Some(1) ||
			tm.Doc.Alias != model.Some("room-a") || len(chn) != 1 || chn[0].Bitrate != model.Some(1024) {
			t.Fatalf("1001 after 3s: %s %s", tm.Rec.State, tm.Rec.Data)
		}
		// The manual member was never called.
		if tm, _ := f.e.Get(ctx, f.c, "5"); tm.Rec.State != engine.StateIdle || tm.Own.Attempts != model.Some(0) {
			t.Fatalf("manual member: %s %v", tm.Rec.State, tm.Own.Attempts)
		}
		// Offline 1002 is retried every 20 s, 3 attempts in all.
		for i := 0; i < 5; i++ {
			f.advance(t, 20*time.Second)
			f.advance(t, time.Second) // busy answers its failure after 1 s
		}
		for _, id := range []string{"2", "3"} {
			tm, _ := f.e.Get(ctx, f.c, id)
			if tm.Rec.State != engine.StateIdle || tm.Own.Attempts != model.Some(3) {
				t.Fatalf("terminal %s after retries: %s attempts %v", id, tm.Rec.State, tm.Own.Attempts)
			}
		}
		// Hang up and call again.
		if err := f.e.Hangup(ctx, f.c, []string{"1"}); err != nil {
			t.Fatal(err)
		}
		if tm, _ := f.e.Get(ctx, f.c, "1"); tm.Rec.State != engine.StateIdle || tm.Doc.VSndChn == nil || len(tm.Doc.VSndChn) != 0 {
			t.Fatalf("after hangup: %s %s", tm.Rec.State, tm.Rec.Data)
		}
		if err := f.e.Call(ctx, f.c, []string{"1"}); err != nil {
			t.Fatal(err)
		}
		f.advance(t, 3*time.Second)
		if tm, _ := f.e.Get(ctx, f.c, "1"); tm.Rec.State != engine.StateOnline {
			t.Fatalf("after recall: %s", tm.Rec.State)
		}
	})
}

func TestMaxJoinAndRemove(t *testing.T) {
	f := setup(t, testdb.SQLite(t))
	ctx := context.Background()
	f.c.MaxJoinMt = 2
	if _, err := f.e.Add(ctx, f.c, []engine.Member{{Callee: media.Callee{Account: "a"}}, {Callee: media.Callee{Account: "b"}}, {Callee: media.Callee{Account: "c"}}}); err != engine.ErrFull {
		t.Fatalf("Add beyond max_join_mt = %v, want ErrFull", err)
	}
	if ts, _ := f.e.List(ctx, f.c); len(ts) != 0 {
		t.Fatalf("a refused Add left %d terminals", len(ts))
	}
	if _, err := f.e.Add(ctx, f.c, []engine.Member{{Callee: media.Callee{Account: "a"}}, {Callee: media.Callee{Account: "b"}}}); err != nil {
		t.Fatal(err)
	}
	if err := f.e.Remove(ctx, f.c, []string{"1", "9"}); err != engine.ErrNotFound {
		t.Fatalf("Remove with an unknown terminal = %v", err)
	}
	if ts, _ := f.e.List(ctx, f.c); len(ts) != 2 {
		t.Fatalf("a refused Remove removed terminals: %d left", len(ts))
	}
	if err := f.e.Remove(ctx, f.c, []string{"1"}); err != nil {
		t.Fatal(err)
	}
	if err := f.e.RemoveAll(ctx, f.c); err != nil {
		t.Fatal(err)
	}
	if ts, _ := f.e.List(ctx, f.c); len(ts) != 0 {
		t.Fatalf("RemoveAll left %d", len(ts))
	}
}
