package mc_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

const cfBooked = "/api/v1/mc/booked_confs"

// cfLongAuth keeps tokens and sessions alive while tests move the clock
// by hours.
func cfLongAuth() auth.Config {
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	return cfg
}

// cfBookedIDs lists the conf_ids of a booked-conference list reply.
func cfBookedIDs(t testing.TB, r testserver.Reply) []string {
	t.Helper()
	ids := []string{}
	for _, el := range testserver.MustOK(t, r)["booked_confs"].([]any) {
		ids = append(ids, el.(map[string]any)["conf_id"].(string))
	}
	return ids
}

// A conference whose start_time lies ahead is booked; at its start time it
// starts by itself, once, leaves the booked list and shows in vc; at its
// end time it ends.
func TestBookedConfStarts(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Auth: cfLongAuth()})
		c := env.LoggedIn(t)
		admin := cfDomain(t, env, testserver.AdminUser)
		body := testserver.MustOK(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant("planning", map[string]any{
			"x_confer_start_time": "2026-03-01T10:00:00+00:00", "duration": 60, "call_times": 4,
			"invite_members": []any{map[string]any{"name": "hall", "account": "1234567", "account_type": 5, "protocol": 0}},
		}))))
		id, mid := body["conf_id"].(string), body["meeting_id"].(string)

		list := testserver.MustOK(t, c.Do("GET", cfBooked, nil))
		cfEqual(t, "booked total", list["total"], 1)
		entry := list["booked_confs"].([]any)[0].(map[string]any)
		for k, want := range map[string]any{"conf_id": id, "meeting_id": mid, "name": "planning",
			"start_time": "2026-03-01T10:00:00+00:00", "end_time": "2026-03-01T11:00:00+00:00", "duration": 60,
			"bitrate": 2048, "max_join_mt": 8, "invited_mt_num": 1,
			"creator": map[string]any{"name": "admin", "account": admin.Moid, "account_type": 1, "telephone": "", "mobile": ""},
		} {
			cfEqual(t, "booked list "+k, entry[k], want)
		}
		info := testserver.MustOK(t, c.Do("GET", cfBooked+"/"+id, nil))
		cfEqual(t, "booked info call_times", info["call_times"], 4)
		cfEqual(t, "booked info start_time", info["start_time"], "2026-03-01T10:00:00+00:00")
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
		cfEqual(t, "running before the start", cfTotal(t, c.Do("GET", "/api/v1/vc/confs", nil)), 0)

		env.Advance(t, 59*time.Minute)
		cfEqual(t, "booked a minute before", cfBookedIDs(t, c.Do("GET", cfBooked, nil)), []string{id})
		env.Advance(t, time.Minute)
		env.Tick(t) // a second run changes nothing
		cfEqual(t, "booked after the start", cfTotal(t, c.Do("GET", cfBooked, nil)), 0)
		testserver.MustFail(t, c.Do("GET", cfBooked+"/"+id, nil), wire.CodeConfNotFound)
		got := cfGet(t, c, id)
		cfEqual(t, "started meeting_id", got["meeting_id"], mid)
		cfEqual(t, "started start_time", got["start_time"], "2026-03-01T10:00:00+00:00")
		cfEqual(t, "running", cfTotal(t, c.Do("GET", "/api/v1/vc/confs", nil)), 1)

		env.Advance(t, 30*time.Minute)
		cfGet(t, c, id)
		env.Advance(t, 30*time.Minute)
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
	})
}

// The booked list orders by start time, pages, and filters by the window
// start_time..end_time; times keep the offset they were booked with.
func TestBookedListOrderAndWindow(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	book := func(name, start string) string {
		return cfCreate(t, c, cfInstant(name, map[string]any{"x_confer_start_time": start, "duration": 30}))
	}
	a := book("a", "2026-03-01T12:00:00+00:00")
	b := book("b", "2026-03-01T10:00:00+00:00")
	cc := book("c", "2026-03-01T19:00:00+08:00") // 11:00 UTC
	ids := func(q url.Values) []string { return cfBookedIDs(t, c.Do("GET", cfBooked, q)) }
	cfEqual(t, "ascending", ids(nil), []string{b, cc, a})
	cfEqual(t, "descending", ids(url.Values{"order": {"1"}}), []string{a, cc, b})
	r := c.Do("GET", cfBooked, url.Values{"start": {"1"}, "count": {"1"}})
	cfEqual(t, "page", cfBookedIDs(t, r), []string{cc})
	cfEqual(t, "page total", r.Body["total"], 3)
	cfEqual(t, "from 11:45", ids(url.Values{"start_time": {"2026-03-01T11:45:00+00:00"}}), []string{a})
	cfEqual(t, "until 11:15", ids(url.Values{"end_time": {"2026-03-01T11:15:00+00:00"}}), []string{b, cc})
	// The platform's clients also send times without an offset, in the
	// platform's zone (docs/api.md "Times").
	local := time.Date(2026, 3, 1, 11, 45, 0, 0, time.UTC).In(time.Local).Format("2006-01-02 15:04:05")
	cfEqual(t, "from 11:45 UTC as a wall-clock time", ids(url.Values{"start_time": {local}}), []string{a})
	info := testserver.MustOK(t, c.Do("GET", cfBooked+"/"+cc, nil))
	cfEqual(t, "offset kept", []any{info["start_time"], info["end_time"]},
		[]any{"2026-03-01T19:00:00+08:00", "2026-03-01T19:30:00+08:00"})
	d := testserver.MustFail(t, c.Do("GET", cfBooked, url.Values{"start_time": {"noon"}}), wire.CodeInvalidParam)
	if !strings.Contains(d, "start_time") {
		t.Errorf("description %q does not name start_time", d)
	}
}

// A booked conference that finds the platform full at its start time
// stays booked and starts when room is made; one whose slot passes while
// waiting is dropped.
func TestBookedWaitsForCapacity(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Conference: engine.Config{MaxConfs: 1}})
	c := env.LoggedIn(t)
	running := cfCreate(t, c, cfInstant("running", nil))
	waiting := cfCreate(t, c, cfInstant("waiting", map[string]any{"x_confer_start_time": "2026-03-01T09:10:00+00:00", "duration": 30}))
	env.Advance(t, 10*time.Minute)
	testserver.MustOK(t, c.Do("GET", cfBooked+"/"+waiting, nil))
	testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+waiting, nil), wire.CodeConfNotFound)
	testserver.MustOK(t, c.Do("DELETE", cfPath+"/"+running, nil))
	env.Advance(t, time.Second)
	cfEqual(t, "started late, booked end kept", cfGet(t, c, waiting)["end_time"], "2026-03-01T09:40:00+00:00")

	dropped := cfCreate(t, c, cfInstant("dropped", map[string]any{"x_confer_start_time": "2026-03-01T09:20:00+00:00", "duration": 10}))
	env.Advance(t, 10*time.Minute) // 09:20:01, full
	testserver.MustOK(t, c.Do("GET", cfBooked+"/"+dropped, nil))
	env.Advance(t, 10*time.Minute) // 09:30:01, its slot is over
	testserver.MustFail(t, c.Do("GET", cfBooked+"/"+dropped, nil), wire.CodeConfNotFound)
	testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+dropped, nil), wire.CodeConfNotFound)
}

// Booked conferences live in the store: a process started after a
// restart starts them.
func TestBookedSurvivesRestart(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		id := cfCreate(t, c, cfInstant("after restart", map[string]any{"x_confer_start_time": "2026-03-01T10:00:00+00:00"}))

		ctx := context.Background()
		st, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		later := clock.NewFake(env.Clock.Now().Add(time.Hour))
		if err := testserver.EngineNode(st, later, engine.Config{}).Conferences().RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		cfEqual(t, "started by the new process", cfGet(t, c, id)["name"], "after restart")
		cfEqual(t, "booked", cfTotal(t, c.Do("GET", cfBooked, nil)), 0)
	})
}

// Booked conferences are the domain's: another domain neither sees nor
// ends them. Ending a booked conference cancels it.
func TestBookedIsolationAndCancel(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Auth: cfLongAuth()})
		c := env.LoggedIn(t)
		id := cfCreate(t, c, cfInstant("booked", map[string]any{"x_confer_start_time": "2026-03-01T10:00:00+00:00"}))
		bob := env.Account(t, "other", "bob", true)
		cfEqual(t, "bob's booked list", cfTotal(t, bob.Do("GET", cfBooked, nil)), 0)
		testserver.MustFail(t, bob.Do("GET", cfBooked+"/"+id, nil), wire.CodeConfNotFound)
		testserver.MustFail(t, bob.Do("DELETE", cfPath+"/"+id, nil), wire.CodeConfNotFound)
		testserver.MustOK(t, c.Do("GET", cfBooked+"/"+id, nil))

		testserver.MustOK(t, c.Do("DELETE", cfPath+"/"+id, nil))
		cfEqual(t, "booked after cancel", cfTotal(t, c.Do("GET", cfBooked, nil)), 0)
		env.Advance(t, time.Hour)
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
	})
}
