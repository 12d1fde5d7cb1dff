package vc_test

import (
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Helpers of the conference list and info tests (prefix cf).

func cfParams(t testing.TB, v any) url.Values {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return url.Values{"params": {string(b)}}
}

func cfOK(t testing.TB, r testserver.Reply) map[string]any {
	t.Helper()
	if !r.OK() {
		t.Fatalf("want success, got %s", r.Raw)
	}
	return r.Body
}

func cfCode(t testing.TB, r testserver.Reply, code int) {
	t.Helper()
	if r.OK() || r.Code() != code {
		t.Fatalf("want error %d, got %s", code, r.Raw)
	}
}

func cfAccount(t testing.TB, env *testserver.Env, domain, user string, admin bool) *testserver.Client {
	t.Helper()
	if _, err := auth.CreateAccount(context.Background(), env.Store, domain, user, "pw-"+user, admin, env.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	c := env.Client(t)
	if r := c.Login(user, "pw-"+user); !r.OK() {
		t.Fatalf("login %s: %s", user, r.Raw)
	}
	return c
}

// cfCreate creates an instant conference through mc and returns conf_id.
func cfCreate(t testing.TB, c *testserver.Client, name string, extra map[string]any) string {
	t.Helper()
	p := map[string]any{"name": name, "bitrate": 1024, "max_join_mt": 8, "duration": 0,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	for k, v := range extra {
		p[k] = v
	}
	return cfOK(t, c.Do("POST", "/api/v1/mc/confs", cfParams(t, p)))["conf_id"].(string)
}

// cfIDs returns the conf_ids of a vc list reply, and its total.
func cfIDs(t testing.TB, r testserver.Reply) ([]string, int) {
	t.Helper()
	body := cfOK(t, r)
	ids := []string{}
	for _, el := range body["confs"].([]any) {
		ids = append(ids, el.(map[string]any)["conf_id"].(string))
	}
	return ids, int(body["total"].(float64))
}

func cfSame(t testing.TB, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s = %s, want %s", what, g, w)
	}
}

func cfKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func cfNames(ps []catalog.Param) []string {
	var ns []string
	for _, p := range ps {
		ns = append(ns, p.Name)
	}
	sort.Strings(ns)
	return ns
}

// The list holds the domain's running conferences in start order, pages
// with start and count, keeps the caller's own with own_conf, and every
// entry carries every field of the reference.
func TestConfList(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		admin.Level = "3"
		carol := cfAccount(t, env, "default", "carol", false)
		carol.Level = "3"
		bob := cfAccount(t, env, "other", "bob", true)
		var mine []string
		for _, n := range []string{"one", "two", "three"} {
			mine = append(mine, cfCreate(t, admin, n, nil))
			env.Advance(t, time.Minute)
		}
		carols := cfCreate(t, carol, "carols", nil)
		bobs := cfCreate(t, bob, "bobs", nil)
		cfCreate(t, admin, "later", map[string]any{"x_confer_start_time": "2026-03-02T09:00:00+00:00"}) // booked: not listed

		ids, total := cfIDs(t, admin.Do("GET", "/api/v1/vc/confs", nil))
		cfSame(t, "list", ids, append(append([]string{}, mine...), carols))
		cfSame(t, "total", total, 4)
		ids, total = cfIDs(t, admin.Do("GET", "/api/v1/vc/confs", url.Values{"start": {"1"}, "count": {"2"}}))
		cfSame(t, "page", ids, mine[1:3])
		cfSame(t, "page total", total, 4)
		ids, _ = cfIDs(t, admin.Do("GET", "/api/v1/vc/confs", url.Values{"count": {"0"}, "start": {"3"}}))
		cfSame(t, "rest", ids, []string{carols})
		ids, total = cfIDs(t, admin.Do("GET", "/api/v1/vc/confs", url.Values{"own_conf": {"1"}}))
		cfSame(t, "own", ids, mine)
		cfSame(t, "own total", total, 3)
		ids, _ = cfIDs(t, carol.Do("GET", "/api/v1/vc/confs", url.Values{"own_conf": {"1"}}))
		cfSame(t, "carol's own", ids, []string{carols})
		ids, total = cfIDs(t, bob.Do("GET", "/api/v1/vc/confs", nil))
		cfSame(t, "other domain", ids, []string{bobs})
		cfSame(t, "other domain total", total, 1)

		ep, _ := catalog.Lookup("vc.confs.list")
		var elem []catalog.Param
		for _, p := range ep.Reply {
			if p.Name == "confs" {
				elem = p.Fields
			}
		}
		first := cfOK(t, admin.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)[0].(map[string]any)
		cfSame(t, "fields of a listed conference", cfKeys(first), cfNames(elem))
		cfSame(t, "name", first["name"], "one")
		cfSame(t, "bitrate", first["bitrate"], 1024)
		cfSame(t, "start_time", first["start_time"], "2026-03-01T09:00:00+00:00")
		cfSame(t, "end_time of a permanent conference", first["end_time"], "")

		// Older callers see the older shape: at API-Level 1 (6.0.0.3.0) no
		// enable_rtc (6.1.0.4.0), but meeting_id (5.2.0.4.0).
		admin.Level = ""
		first = cfOK(t, admin.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)[0].(map[string]any)
		if _, has := first["enable_rtc"]; has {
			t.Errorf("enable_rtc listed at API-Level 1")
		}
		if first["meeting_id"] == "" || first["meeting_id"] == nil {
			t.Errorf("meeting_id missing at API-Level 1")
		}
	})
}

// The info of a running conference carries every field of the reference;
// unknown, booked, ended and other domains' conferences answer 12103.
func TestConfInfo(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"
		id := cfCreate(t, c, "info", map[string]any{"call_times": 2, "call_interval": 15, "cascade_mode": 1,
			"mix": map[string]any{"mode": 1}})
		got := cfOK(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil))
		ep, _ := catalog.Lookup("vc.confs.get")
		want := append(cfNames(ep.Reply), "success")
		sort.Strings(want)
		cfSame(t, "fields of the info", cfKeys(got), want)
		for k, want := range map[string]any{"conf_id": id, "name": "info", "call_times": 2, "call_interval": 15,
			"cascade_mode": 1, "mix_enable": 1, "vmp_enable": 0, "max_join_mt": 8, "need_password": 0} {
			cfSame(t, k, got[k], want)
		}

		booked := cfCreate(t, c, "booked", map[string]any{"x_confer_start_time": "2026-03-01T12:00:00+00:00"})
		ended := cfCreate(t, c, "ended", nil)
		cfOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+ended, nil))
		bob := cfAccount(t, env, "other", "bob", true)
		for _, tc := range []struct {
			who *testserver.Client
			id  string
		}{{c, "999999"}, {c, booked}, {c, ended}, {bob, id}} {
			cfCode(t, tc.who.Do("GET", "/api/v1/vc/confs/"+tc.id, nil), wire.CodeConfNotFound)
		}
	})
}
