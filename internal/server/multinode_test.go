package server_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Several conferd nodes on one PostgreSQL database are one platform
// (issue 12, docs/deployment.md): each node here is a server.Server on its
// own HTTP listener with its own connection pool to the same schema, and
// the nodes share a fake clock.

// twoNodes starts nodes A and B on a fresh PostgreSQL schema; the test
// skips without CONFER_TEST_POSTGRES.
func twoNodes(t *testing.T) (a, b *testserver.Node) {
	t.Helper()
	dsn := testdb.Postgres(t)
	opt := testserver.Options{Auth: longAuth()}
	a = testserver.StartNode(t, dsn, nil, opt)
	b = testserver.StartNode(t, dsn, a.Clock, opt)
	return a, b
}

// longAuth keeps logins alive while the tests move the clock.
func longAuth() auth.Config {
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	return cfg
}

// tickAll runs the time-driven work of every node at once, twice each, as
// nodes whose tickers fire together do.
func tickAll(t *testing.T, nodes ...*testserver.Node) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(nodes))
	for _, n := range nodes {
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := n.Srv.Tick(context.Background()); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Tick: %v", err)
	}
}

// advance moves the shared clock by d a second at a time, ticking every
// node at each second.
// dials sums the calls attempted and failed by engines.
func dials(counts ...*engine.CallCounts) (attempted, failed int64) {
	for _, c := range counts {
		attempted += c.Attempted.Load()
		failed += c.Failed.Load()
	}
	return attempted, failed
}

func advance(t *testing.T, clk *clock.Fake, d time.Duration, nodes ...*testserver.Node) {
	t.Helper()
	for s := time.Duration(0); s < d; s += time.Second {
		clk.Advance(time.Second)
		tickAll(t, nodes...)
	}
}

// on returns a client of node n with the token and session of c (logged
// in on another node: tokens and sessions are in the shared database).
func on(t *testing.T, n *testserver.Node, c *testserver.Client) *testserver.Client {
	o := n.Client(t)
	o.Token, o.Cookie = c.Token, c.Cookie
	return o
}

// confParams is an instant conference calling IP terminals, which answer
// after two seconds.
func confParams(name string, ips ...string) map[string]any {
	var members []any
	for i, ip := range ips {
		members = append(members, map[string]any{"name": fmt.Sprint("m", i+1), "account": ip, "account_type": 7, "bitrate": 1024, "protocol": 0})
	}
	return map[string]any{"create_type": 1, "name": name, "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"call_times": 3, "call_interval": 20, "invite_members": members,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
}

// confEvents returns the events of conference id after seq.
func confEvents(t *testing.T, n *testserver.Node, seq int64, id string) []store.Event {
	t.Helper()
	evs, err := n.Store.EventsSince(context.Background(), seq, 100000)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Event
	for _, e := range evs {
		if e.Kind == record.KindConf && e.ID == id {
			out = append(out, e)
		}
	}
	return out
}

func lastSeq(t *testing.T, n *testserver.Node) int64 {
	t.Helper()
	s, err := n.Store.LastEventSeq(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A conference created through node A is controlled through node B (the
// speaker, a terminal added) and read back through A with B's changes.
func TestNodesCreateControlRead(t *testing.T) {
	a, b := twoNodes(t)
	ca := a.LoggedIn(t)
	cb := on(t, b, ca)
	id := testserver.MustOK(t, ca.Do("POST", "/api/v1/mc/confs", testserver.Params(t, confParams("nodes", "10.4.0.1", "10.4.0.2"))))["conf_id"].(string)
	advance(t, a.Clock, 3*time.Second, a, b)

	testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/confs/"+id, nil))
	testserver.MustOK(t, cb.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, map[string]any{"mt_id": "2"})))
	testserver.MustOK(t, cb.Do("POST", "/api/v1/vc/confs/"+id+"/mts", testserver.Params(t, map[string]any{"mts": []any{
		map[string]any{"account": "10.4.0.3", "account_type": 7, "bitrate": 1024, "protocol": 0, "forced_call": 0, "call_mode": 2}}})))
	advance(t, a.Clock, 3*time.Second, a, b)

	if sp := testserver.MustOK(t, ca.Do("GET", "/api/v1/vc/confs/"+id+"/speaker", nil)); sp["mt_id"] != "2" {
		t.Errorf("speaker read on A = %v, want mt 2 set on B", sp)
	}
	mts := testserver.MustOK(t, ca.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any)
	online := map[string]bool{}
	for _, m := range mts {
		m := m.(map[string]any)
		online[m["mt_id"].(string)] = m["online"] == float64(1)
	}
	if len(mts) != 3 || !online["1"] || !online["2"] || !online["3"] {
		t.Errorf("terminals read on A = %v, want 1 to 3 online (3 added on B)", mts)
	}
}

// pollAt reads the conference poll's poll_index and current terminal
// through a node.
func pollAt(t *testing.T, c *testserver.Client, id string) (int, string) {
	t.Helper()
	p := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/poll", nil))
	cur, _ := p["cur_poll_mt"].(map[string]any)
	mt, _ := cur["mt_id"].(string)
	return int(p["poll_index"].(float64)), mt
}

// A poll started through node A moves once per keep_time while both
// nodes run the time-driven work: each turn is stored once (one update
// of the conference), never twice. Node A then dies; the poll carries on
// through B, on time, still stored once a turn.
func TestNodesPollSurvivesItsNode(t *testing.T) {
	a, b := twoNodes(t)
	ca := a.LoggedIn(t)
	cb := on(t, b, ca)
	id := testserver.MustOK(t, ca.Do("POST", "/api/v1/mc/confs", testserver.Params(t, confParams("poll", "10.5.0.1", "10.5.0.2", "10.5.0.3"))))["conf_id"].(string)
	advance(t, a.Clock, 3*time.Second, a, b)
	testserver.MustOK(t, ca.Do("PUT", "/api/v1/vc/confs/"+id+"/poll", testserver.Params(t, map[string]any{
		"mode": 1, "num": 0, "keep_time": 10, "members": []any{map[string]any{"mt_id": "1"}, map[string]any{"mt_id": "2"}, map[string]any{"mt_id": "3"}}})))
	tickAll(t, a, b) // the first turn is stored
	order := []string{"1", "2", "3"}

	// turn checks a 10-second turn: the poll stands on mt for its 10
	// seconds as read through every node given, and the turn's start is
	// one stored update of the conference.
	turn := func(mt string, readers []*testserver.Client, nodes ...*testserver.Node) {
		t.Helper()
		from := lastSeq(t, b)
		for s := 0; s < 10; s++ {
			for _, c := range readers {
				if _, got := pollAt(t, c, id); got != mt {
					t.Fatalf("second %d of %s's turn: cur_poll_mt %q", s, mt, got)
				}
			}
			advance(t, a.Clock, time.Second, nodes...)
		}
		var updates int
		for _, e := range confEvents(t, b, from, id) {
			if e.Op == store.OpUpdate {
				updates++
			}
		}
		if updates != 1 {
			t.Errorf("turn of %s: %d updates of the conference stored, want 1", mt, updates)
		}
	}
	for i := 0; i < 4; i++ { // 1, 2, 3, 1 with A and B
		turn(order[i%3], []*testserver.Client{ca, cb}, a, b)
	}
	a.Kill()
	for i := 4; i < 8; i++ { // 2, 3, 1, 2 with B alone
		turn(order[i%3], []*testserver.Client{cb}, b)
	}
	if idx, mt := pollAt(t, cb, id); idx != 3 || mt != "3" {
		t.Errorf("after 8 turns: poll_index %d, cur_poll_mt %q; want 3, \"3\"", idx, mt)
	}
}

// Time-driven work runs once across nodes that tick at the same moments:
// a booked conference starts once (its invitee is added and called
// once), a busy invitee's calls are retried call_times times in all, and
// the conference ends once when its duration is over.
func TestNodesTimeDrivenWorkOnce(t *testing.T) {
	a, b := twoNodes(t)
	ctx := context.Background()
	if err := a.Store.PutDirectoryEntry(ctx, store.DirectoryEntry{Account: "5556001", E164: "5556001", MtType: 1, Behaviour: "busy"}); err != nil {
		t.Fatal(err)
	}
	ca := a.LoggedIn(t)
	p := confParams("booked")
	p["x_confer_start_time"] = a.Clock.Now().Add(time.Minute).Format(record.TimeLayout)
	p["duration"] = 2
	p["invite_members"] = []any{map[string]any{"name": "busy", "account": "5556001", "account_type": 5, "bitrate": 1024, "protocol": 0}}
	id := testserver.MustOK(t, ca.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	from := lastSeq(t, a)
	attempts, failed := dials(a.Srv.Calls(), b.Srv.Calls())

	advance(t, a.Clock, 59*time.Second, a, b)
	if evs := confEvents(t, a, from, id); len(evs) != 0 {
		t.Fatalf("changes before the start: %v", evs)
	}
	advance(t, a.Clock, 62*time.Second, a, b) // started at 1:00, three calls at 1:00, 1:21, 1:42
	rec, err := a.Store.GetRecord(ctx, record.KindConf, confDomain(t, a), id)
	if err != nil || rec.State != engine.StateRunning {
		t.Fatalf("conference after its start: %v, %v", rec.State, err)
	}
	mts, _, err := a.Store.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, OwnerMoid: id})
	if err != nil || len(mts) != 1 {
		t.Fatalf("terminals of the started conference: %d, %v; want the invitee once", len(mts), err)
	}
	doc, err := shape.Decode(mts[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if n := fmt.Sprint(doc["_attempts"]); n != "3" {
		t.Errorf("attempts stored on the terminal = %s, want 3", n)
	}
	nowAttempts, nowFailed := dials(a.Srv.Calls(), b.Srv.Calls())
	if n := nowAttempts - attempts; n != 3 {
		t.Errorf("calls dialled by the two nodes = %d, want 3 (call_times)", n)
	}
	if n := nowFailed - failed; n != 3 {
		t.Errorf("failed calls counted by the two nodes = %d, want 3", n)
	}

	advance(t, a.Clock, 60*time.Second, a, b) // ends at 3:00
	var starts, deletes int
	prev := engine.StateBooked // at from
	for _, e := range confEvents(t, a, from, id) {
		if e.State == engine.StateRunning && prev == engine.StateBooked {
			starts++
		}
		if e.Op == store.OpDelete {
			deletes++
		}
		prev = e.State
	}
	if starts != 1 || deletes != 1 {
		t.Errorf("conference started %d times and was deleted %d times, want once each", starts, deletes)
	}
	if _, err := a.Store.GetRecord(ctx, record.KindConf, confDomain(t, a), id); err == nil {
		t.Error("the conference is still stored after its end")
	}
}

// confDomain is the fixture administrator's user domain.
func confDomain(t *testing.T, n *testserver.Node) string {
	t.Helper()
	acct, err := n.Store.AccountByUsername(context.Background(), testserver.AdminUser)
	if err != nil {
		t.Fatal(err)
	}
	return acct.DomainMoid
}
