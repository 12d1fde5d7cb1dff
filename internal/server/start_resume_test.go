package server_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A conference start is a write followed by its follow-up (the features
// set at creation, the calls to the invitees); the write marks the start
// pending until the follow-up is done (engine/start_pending.go). A
// node that stops in between leaves the mark, and another node runs the
// follow-up once the start's lease is over (docs/deployment.md
// "Time-driven work").

// resumeParams books a conference for start inviting the IP terminals
// ips (they answer two seconds after their call), which mixes them and is
// recorded from its start.
func resumeParams(name string, start time.Time, ips ...string) map[string]any {
	p := confParams(name, ips...)
	p["x_confer_start_time"] = start.Format(record.TimeLayout)
	var mix []any
	for _, ip := range ips {
		mix = append(mix, map[string]any{"name": ip, "account": ip, "account_type": 7})
	}
	p["mix"] = map[string]any{"mode": 1, "members": mix}
	p["recorder"] = map[string]any{"publish_mode": 0, "dual_stream": 0, "anonymous": 0, "recorder_mode": 1, "vrs_id": ""}
	return p
}

// stoppedStart runs a node that starts the booked conference due on st
// and stops right after the write that starts it: the first step of the
// follow-up (Features.Started) stops it, so the follow-up never runs.
func stoppedStart(ctx context.Context, st store.Store, clk clock.Clock) (err error) {
	e := engine.New(st, clk, engine.Config{}, nil, nil, func(*engine.Engine) engine.Features { return stopAtStart{} })
	defer func() {
		if v := recover(); v != nil && v != errStopped {
			panic(v)
		}
	}()
	return e.Conferences().RunDue(ctx)
}

// stopAtStart stops the node (a panic that stoppedStart recovers) when a
// conference's start is followed up.
type stopAtStart struct{ engine.NoFeatures }

var errStopped = errors.New("the node stopped")

func (stopAtStart) Started(context.Context, engine.Conference) engine.Change { panic(errStopped) }

// storedConf reads conference id's record and document.
func storedConf(t *testing.T, st store.Store, domain, id string) (store.Record, map[string]any) {
	t.Helper()
	rec, err := st.GetRecord(context.Background(), record.KindConf, domain, id)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return rec, doc
}

// callsOf lists conference id's terminals as "account state attempts",
// sorted.
func callsOf(t *testing.T, st store.Store, id string) []string {
	t.Helper()
	recs, _, err := st.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindMT, OwnerMoid: id})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, rec := range recs {
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%v %s %v", doc["account"], rec.State, doc["_attempts"]))
	}
	sort.Strings(out)
	return out
}

// everyoneOnce is what callsOf reads when each of ips was called once and
// answered.
func everyoneOnce(ips ...string) string {
	var out []string
	for _, ip := range ips {
		out = append(out, ip+" "+engine.StateOnline+" 1")
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// checkFeaturesOnce checks through c that conference id mixes each of ips
// once and is recorded once.
func checkFeaturesOnce(t *testing.T, c *testserver.Client, id string, ips ...string) {
	t.Helper()
	mixed := map[string]int{}
	for _, m := range testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/mixs/1", nil))["members"].([]any) {
		mixed[m.(map[string]any)["account"].(string)]++
	}
	for _, ip := range ips {
		if mixed[ip] != 1 {
			t.Errorf("mix members by account = %v, want each of %v once", mixed, ips)
			break
		}
	}
	if recs := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/recorders", nil))["recorders"].([]any); len(recs) != 1 {
		t.Errorf("recordings = %v, want the creation's once", recs)
	}
}

// A node starts a booked conference and stops before calling anyone. The
// two other nodes, ticking at the same moments, leave it alone for the
// start's lease, then one of them runs the follow-up: every invitee is
// called exactly once, the mix and the recording exist once, the mark is
// gone and never shows in a reply.
func TestNodesStartFollowUpMovesToAnotherNode(t *testing.T) {
	dsn := testdb.Postgres(t)
	opt := testserver.Options{Auth: longAuth()}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ctx := context.Background()
	ca := a.LoggedIn(t)
	cb := on(t, b, ca)
	ips := []string{"10.8.0.1", "10.8.0.2", "10.8.0.3"}
	start := a.Clock.Now().Add(time.Minute)
	id := testserver.MustOK(t, ca.Do("POST", "/api/v1/mc/confs", testserver.Params(t, resumeParams("resumed", start, ips...))))["conf_id"].(string)
	domain := confDomain(t, a)

	// The node that starts it has its own connections, closed as it stops.
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	a.Clock.Advance(time.Minute)
	if err := stoppedStart(ctx, st, a.Clock); err != nil {
		t.Fatal(err)
	}
	st.Close()
	rec, doc := storedConf(t, a.Store, domain, id)
	if rec.State != engine.StateRunning || doc[engine.DocStartPending] == nil {
		t.Fatalf("after the stopped start: state %s, pending mark %v", rec.State, doc[engine.DocStartPending])
	}
	for k := range testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/confs/"+id, nil)) {
		if strings.HasPrefix(k, "_") {
			t.Errorf("the conference's reply shows the internal field %s", k)
		}
	}

	ab := func() int64 { n, _ := dials(a.Srv.Calls(), b.Srv.Calls()); return n }
	attempts := ab()
	advance(t, a.Clock, engine.StartLease-time.Second, a, b)
	if got := callsOf(t, a.Store, id); len(got) != 0 {
		t.Fatalf("terminals within the start's lease: %v, want none (the start is its node's)", got)
	}
	advance(t, a.Clock, 4*time.Second, a, b) // the lease ends; the calls are answered 2 s later
	if got, want := strings.Join(callsOf(t, a.Store, id), ", "), everyoneOnce(ips...); got != want {
		t.Errorf("terminals after the lease: %s; want %s", got, want)
	}
	if n := ab() - attempts; n != int64(len(ips)) {
		t.Errorf("calls dialled by the two nodes = %d, want %d (each invitee once)", n, len(ips))
	}
	checkFeaturesOnce(t, cb, id, ips...)
	rec, doc = storedConf(t, a.Store, domain, id)
	if doc[engine.DocStartPending] != nil || !rec.DueAt.IsZero() {
		t.Errorf("after the follow-up: pending mark %v, due %v; want neither (a permanent conference)", doc[engine.DocStartPending], rec.DueAt)
	}

	advance(t, a.Clock, time.Minute, a, b)
	if got, want := strings.Join(callsOf(t, a.Store, id), ", "), everyoneOnce(ips...); got != want {
		t.Errorf("terminals a minute later: %s; want %s", got, want)
	}
	if n := ab() - attempts; n != int64(len(ips)) {
		t.Errorf("calls dialled a minute later = %d, want %d", n, len(ips))
	}
	checkFeaturesOnce(t, ca, id, ips...)
}

// The follow-up does only what is left. A node starts a booked conference,
// calls the first invitee, adds the second without calling it and stops;
// when the lease ends, the server calls the second and adds and calls the
// others, and starts the mix and the recording. A follow-up that runs once
// more (its end not stored) changes nothing.
func TestStartFollowUpResumesWhatIsLeft(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Auth: longAuth()})
		ctx := context.Background()
		admin := env.LoggedIn(t)
		ips := []string{"10.8.1.1", "10.8.1.2", "10.8.1.3", "10.8.1.4"}
		id := testserver.MustOK(t, admin.Do("POST", "/api/v1/mc/confs",
			testserver.Params(t, resumeParams("left", env.Clock.Now().Add(time.Minute), ips...))))["conf_id"].(string)
		attempts, _ := dials(env.Srv.Calls())

		env.Clock.Advance(time.Minute)
		if err := stoppedStart(ctx, env.Store, env.Clock); err != nil {
			t.Fatal(err)
		}
		acct, err := env.Store.AccountByUsername(ctx, testserver.AdminUser)
		if err != nil {
			t.Fatal(err)
		}
		eng := engine.New(env.Store, env.Clock, engine.Config{}, nil, nil, nil)
		byBoth := func() int64 { n, _ := dials(env.Srv.Calls(), eng.Calls()); return n }
		c, err := eng.Conferences().Get(ctx, acct.DomainMoid, id, engine.StateRunning)
		if err != nil {
			t.Fatal(err)
		}
		invited := engine.Invited(c)
		if _, err := eng.Add(ctx, engine.ConfOf(c), invited[:1]); err != nil {
			t.Fatal(err)
		}
		quiet := invited[1] // Add's first step only: stored, not called
		quiet.Dial, quiet.CallMode = false, engine.CallManual
		if _, err := eng.Add(ctx, engine.ConfOf(c), []engine.Member{quiet}); err != nil {
			t.Fatal(err)
		}

		for s := time.Duration(0); s < engine.StartLease-time.Second; s += time.Second {
			env.Advance(t, time.Second)
		}
		if got, want := strings.Join(callsOf(t, env.Store, id), ", "), "10.8.1.1 online 1, 10.8.1.2 idle 0"; got != want {
			t.Fatalf("terminals within the start's lease: %s; want %s", got, want)
		}
		for s := 0; s < 4; s++ {
			env.Advance(t, time.Second)
		}
		if got, want := strings.Join(callsOf(t, env.Store, id), ", "), everyoneOnce(ips...); got != want {
			t.Errorf("terminals after the lease: %s; want %s", got, want)
		}
		if n := byBoth() - attempts; n != int64(len(ips)) {
			t.Errorf("calls dialled = %d, want %d (each invitee once)", n, len(ips))
		}
		checkFeaturesOnce(t, admin, id, ips...)

		// The follow-up's end is lost: the mark is back, due now.
		rec, doc := storedConf(t, env.Store, acct.DomainMoid, id)
		doc[engine.DocStartPending] = env.Clock.Now().Format(time.RFC3339Nano)
		if rec.Data, err = shape.Encode(doc); err != nil {
			t.Fatal(err)
		}
		rec.DueAt = env.Clock.Now()
		if err := env.Store.SwapRecord(ctx, rec); err != nil {
			t.Fatal(err)
		}
		env.Tick(t)
		for s := 0; s < 5; s++ {
			env.Advance(t, time.Second)
		}
		if got, want := strings.Join(callsOf(t, env.Store, id), ", "), everyoneOnce(ips...); got != want {
			t.Errorf("terminals after the follow-up ran again: %s; want %s", got, want)
		}
		if n := byBoth() - attempts; n != int64(len(ips)) {
			t.Errorf("calls dialled after the follow-up ran again = %d, want %d", n, len(ips))
		}
		checkFeaturesOnce(t, admin, id, ips...)
		rec, doc = storedConf(t, env.Store, acct.DomainMoid, id)
		if doc[engine.DocStartPending] != nil || !rec.DueAt.IsZero() {
			t.Errorf("after the follow-up ran again: pending mark %v, due %v; want neither", doc[engine.DocStartPending], rec.DueAt)
		}
	})
}
