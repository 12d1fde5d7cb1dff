package mc_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

const areaPath = "/api/v1/mc/meeting_room_areas"

func areaCreate(t testing.TB, c *testserver.Client, name string) string {
	t.Helper()
	r := testserver.MustOK(t, c.Do("POST", areaPath, testserver.Params(t, map[string]any{"area": name})))
	id, _ := r["id"].(string)
	if _, err := strconv.Atoi(id); err != nil {
		t.Fatalf("area id %q is not a numeric string: %v", id, r)
	}
	return id
}

func areaNames(t testing.TB, c *testserver.Client, q url.Values) (string, float64) {
	t.Helper()
	l := testserver.MustOK(t, c.Do("GET", areaPath, q))
	var names []string
	for _, x := range l["meeting_room_areas"].([]any) {
		names = append(names, x.(map[string]any)["area"].(string))
	}
	return strings.Join(names, ","), l["total"].(float64)
}

func TestMeetingRoomAreas(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		sh := areaCreate(t, admin, "上海")
		env.Advance(t, time.Minute)
		bj := areaCreate(t, admin, "北京")
		if sh == bj {
			t.Fatalf("two areas share the id %s", sh)
		}
		l := testserver.MustOK(t, admin.Do("GET", areaPath, nil))
		tplEqual(t, "list", l, map[string]any{"success": 1, "total": 2, "meeting_room_areas": []any{
			map[string]any{"id": sh, "area": "上海"}, map[string]any{"id": bj, "area": "北京"}}})

		// Modify: the new name, and the area moves to the end (last modified).
		env.Advance(t, time.Minute)
		r := testserver.MustOK(t, admin.Do("POST", areaPath+"/"+sh, testserver.Params(t, map[string]any{"area": "上海 浦东"})))
		if _, ok := r["id"]; ok {
			t.Errorf("modify reply carries id: %v", r)
		}
		if got, total := areaNames(t, admin, nil); got != "北京,上海 浦东" || total != 2 {
			t.Fatalf("after modify: %s (%v)", got, total)
		}
		if got, _ := areaNames(t, admin, url.Values{"order": {"1"}}); got != "上海 浦东,北京" {
			t.Fatalf("order 1: %s", got)
		}

		// Name checks: required, at most 60 characters (60 Chinese ones fit).
		for _, body := range []map[string]any{{}, {"area": ""}, {"area": "   "}, {"area": strings.Repeat("区", 61)}} {
			d := testserver.MustFail(t, admin.Do("POST", areaPath, testserver.Params(t, body)), wire.CodeInvalidParam)
			if !strings.Contains(d, "parameter area:") {
				t.Errorf("description %q does not name area", d)
			}
		}
		testserver.MustFail(t, admin.Do("POST", areaPath+"/"+bj, testserver.Params(t, map[string]any{"area": strings.Repeat("x", 61)})), wire.CodeInvalidParam)
		long := areaCreate(t, admin, strings.Repeat("区", 60))

		// Users of the domain list areas; only administrators change them.
		carol := env.Account(t, auth.DefaultDomain, "carol", false)
		if _, total := areaNames(t, carol, nil); total != 3 {
			t.Fatalf("a user of the domain sees %v areas", total)
		}
		testserver.MustFail(t, carol.Do("POST", areaPath, testserver.Params(t, map[string]any{"area": "广州"})), wire.CodeNoPermission)
		testserver.MustFail(t, carol.Do("POST", areaPath+"/"+bj, testserver.Params(t, map[string]any{"area": "广州"})), wire.CodeNoPermission)
		testserver.MustFail(t, carol.Do("DELETE", areaPath+"/"+bj, nil), wire.CodeNoPermission)

		// Another domain neither sees nor changes them.
		bob := env.Account(t, "other", "bob", true)
		if got, total := areaNames(t, bob, nil); total != 0 || got != "" {
			t.Fatalf("another domain sees %s (%v)", got, total)
		}
		for _, r := range []testserver.Reply{
			bob.Do("POST", areaPath+"/"+bj, testserver.Params(t, map[string]any{"area": "taken"})),
			bob.Do("DELETE", areaPath+"/"+bj, nil),
		} {
			if d := testserver.MustFail(t, r, wire.CodeInvalidParam); !strings.Contains(d, "parameter id:") {
				t.Errorf("description %q does not name the id", d)
			}
		}
		areaCreate(t, bob, "北京") // names are per domain, and may repeat
		if got, total := areaNames(t, admin, url.Values{"count": {"0"}}); total != 3 || !strings.Contains(got, "北京") || strings.Contains(got, "taken") {
			t.Fatalf("the domain's areas changed: %s (%v)", got, total)
		}

		// Delete (also POST with _method=DELETE); then the id is unknown.
		testserver.MustOK(t, admin.Do("DELETE", areaPath+"/"+bj, nil))
		testserver.MustOK(t, admin.Do("POST", areaPath+"/"+long+"?_method=DELETE", nil))
		testserver.MustFail(t, admin.Do("DELETE", areaPath+"/"+bj, nil), wire.CodeInvalidParam)
		testserver.MustFail(t, admin.Do("POST", areaPath+"/"+bj, testserver.Params(t, map[string]any{"area": "x"})), wire.CodeInvalidParam)
		if got, total := areaNames(t, admin, nil); got != "上海 浦东" || total != 1 {
			t.Fatalf("after delete: %s (%v)", got, total)
		}
	})
}

func TestMeetingRoomAreaPaging(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	for i := 0; i < 12; i++ {
		areaCreate(t, admin, "A"+strconv.Itoa(i))
		env.Advance(t, time.Second)
	}
	for _, tc := range []struct {
		q    url.Values
		want string
	}{
		{nil, "A0,A1,A2,A3,A4,A5,A6,A7,A8,A9"}, // count defaults to 10
		{url.Values{"start": {"10"}}, "A10,A11"},
		{url.Values{"start": {"2"}, "count": {"3"}}, "A2,A3,A4"},
		{url.Values{"count": {"2"}, "order": {"1"}}, "A11,A10"},
		{url.Values{"start": {"20"}}, ""},
	} {
		if got, total := areaNames(t, admin, tc.q); got != tc.want || total != 12 {
			t.Errorf("list %v = %s (total %v), want %s (total 12)", tc.q, got, total, tc.want)
		}
	}
	if got, _ := areaNames(t, admin, url.Values{"count": {"0"}}); strings.Count(got, ",") != 11 {
		t.Errorf("count 0 = %s, want all 12", got)
	}
}

// Areas exist from 5.2.0.4.0 (seed 001).
func TestMeetingRoomAreasRelease(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.2.0.2.0"})
	c := env.LoggedIn(t)
	testserver.MustFail(t, c.Do("GET", areaPath, nil), wire.CodeNotSupported)
	testserver.MustFail(t, c.Do("POST", areaPath, testserver.Params(t, map[string]any{"area": "x"})), wire.CodeNotSupported)
	testserver.MustFail(t, c.Do("POST", areaPath+"/1", testserver.Params(t, map[string]any{"area": "x"})), wire.CodeNotSupported)
	testserver.MustFail(t, c.Do("DELETE", areaPath+"/1", nil), wire.CodeNotSupported)
	env = testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.2.0.4.0"})
	c = env.LoggedIn(t)
	areaCreate(t, c, "x")
	if got, total := areaNames(t, c, nil); got != "x" || total != 1 {
		t.Fatalf("at 5.2.0.4.0: %s (%v)", got, total)
	}
}
