package krtc_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/compat"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/krtc"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

const roomsPath = "/api/v1/krtc/rooms"

// jsonReq sends a JSON-style request (seed 000 "Common rules" 5): the body
// is a JSON object, account_token is in the query, the cookie in the
// Cookie header. A nil body sends none.
func jsonReq(t testing.TB, env *testserver.Env, c *testserver.Client, method, path string, body any) testserver.Reply {
	t.Helper()
	target := env.URL + path
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	target += sep + url.Values{"account_token": {c.Token}}.Encode()
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.Send(req)
}

func num(v any) int { f, _ := v.(float64); return int(f) }

func rooms(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, x := range body["rooms"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// seed 000's room record.
func room(name string, extra map[string]any) map[string]any {
	b := map[string]any{"room_name": name, "max_join_mt": 192, "room_type": 1, "resolution": 12, "bitrate": 2048, "format": 5, "frame": 30}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// Create, read, list, modify and delete a room in JSON style with the
// cookie; the room's conference runs with enable_rtc and the room's
// settings; on both stores.
func TestRoomLifecycle(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"
		r := testserver.MustOK(t, jsonReq(t, env, c, "POST", roomsPath, room("alpha", map[string]any{"room_type": 2, "max_join_mt": 64})))
		id, mid := r["room_id"].(string), r["meeting_id"].(string)
		if id == "" || len(mid) != 32 || r["description"] != "operation succeeded" || num(r["success"]) != 1 {
			t.Fatalf("create reply = %v", r)
		}
		got := testserver.MustOK(t, c.Do("GET", roomsPath+"/"+id, nil))
		for k, want := range map[string]any{"room_id": id, "meeting_id": mid, "room_name": "alpha", "max_join_mt": 64.0, "room_type": 2.0,
			"resolution": 12.0, "bitrate": 2048.0, "format": 5.0, "frame": 30.0} {
			if got[k] != want {
				t.Errorf("room %s = %v, want %v", k, got[k], want)
			}
		}
		confID := got["conf_id"].(string)
		info := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+confID, nil))
		if info["name"] != "alpha" || num(info["enable_rtc"]) != 1 || num(info["max_join_mt"]) != 64 || info["meeting_id"] != mid || num(info["conf_type"]) != 2 {
			t.Fatalf("the room's conference = %v", info)
		}

		// Defaults: only room_name is needed.
		r2 := testserver.MustOK(t, jsonReq(t, env, c, "POST", roomsPath, map[string]any{"room_name": "beta"}))
		b := testserver.MustOK(t, c.Do("GET", roomsPath+"/"+r2["room_id"].(string), nil))
		if num(b["max_join_mt"]) != 192 || num(b["room_type"]) != 1 || num(b["resolution"]) != 12 || num(b["bitrate"]) != 2048 ||
			num(b["format"]) != 5 || num(b["frame"]) != 30 {
			t.Fatalf("defaults = %v", b)
		}
		testserver.MustOK(t, jsonReq(t, env, c, "POST", roomsPath, map[string]any{"room_name": "gamma", "max_join_mt": 8}))

		// List: oldest first, paged, with total.
		l := testserver.MustOK(t, c.Do("GET", roomsPath, url.Values{"start": {"1"}, "count": {"1"}}))
		if num(l["total"]) != 3 || len(rooms(l)) != 1 || rooms(l)[0]["room_name"] != "beta" {
			t.Fatalf("list page = %v", l)
		}
		if l := testserver.MustOK(t, c.Do("GET", roomsPath, url.Values{"count": {"0"}})); len(rooms(l)) != 3 || rooms(l)[0]["room_id"] != id {
			t.Fatalf("list = %v", l)
		}

		// Modify (PUT): the conference follows.
		testserver.MustOK(t, jsonReq(t, env, c, "PUT", roomsPath+"/"+id, map[string]any{"room_name": "alpha2", "bitrate": 4096, "resolution": 13}))
		got = testserver.MustOK(t, c.Do("GET", roomsPath+"/"+id, nil))
		if got["room_name"] != "alpha2" || num(got["bitrate"]) != 4096 || num(got["resolution"]) != 13 || num(got["max_join_mt"]) != 64 {
			t.Fatalf("modified room = %v", got)
		}
		info = testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+confID, nil))
		if info["name"] != "alpha2" || num(info["bitrate"]) != 4096 {
			t.Fatalf("conference after modify = %v", info)
		}
		testserver.MustFail(t, jsonReq(t, env, c, "PUT", roomsPath+"/"+id, map[string]any{"room_name": "beta"}), krtc.CodeRoomNameExists)
		testserver.MustFail(t, jsonReq(t, env, c, "POST", roomsPath, map[string]any{"room_name": "beta"}), krtc.CodeRoomNameExists)

		// Delete (DELETE, and POST with _method=DELETE and an empty body):
		// the conference ends with it.
		testserver.MustOK(t, c.Do("DELETE", roomsPath+"/"+id, nil))
		testserver.MustFail(t, c.Do("GET", roomsPath+"/"+id, nil), krtc.CodeRoomNotFound)
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+confID, nil), wire.CodeConfNotFound)
		del := testserver.MustOK(t, jsonReq(t, env, c, "POST", roomsPath+"/"+r2["room_id"].(string)+"?_method=DELETE", nil))
		if del["description"] != "operation succeeded" {
			t.Fatalf("delete reply = %v", del)
		}
		testserver.MustFail(t, c.Do("DELETE", roomsPath+"/"+r2["room_id"].(string), nil), krtc.CodeRoomNotFound)
		if l := testserver.MustOK(t, c.Do("GET", roomsPath, nil)); num(l["total"]) != 1 {
			t.Fatalf("after deletes = %v", l)
		}
	})
}

// The catalogue's enums refuse values outside the documented sets; the
// handler refuses bitrates out of range and bad names; nothing is created.
func TestRoomValidation(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	for _, tc := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"max_join_mt": 192}, "room_name"},
		{room("x", map[string]any{"max_join_mt": 100}), "max_join_mt"},
		{room("x", map[string]any{"room_type": 3}), "room_type"},
		{room("x", map[string]any{"resolution": 1}), "resolution"},
		{room("x", map[string]any{"format": 1}), "format"},
		{room("x", map[string]any{"frame": 24}), "frame"},
		{room("x", map[string]any{"bitrate": 32}), "bitrate"},
		{room("x", map[string]any{"bitrate": 10000}), "bitrate"},
		{room("x", map[string]any{"bitrate": "fast"}), "bitrate"},
		{room("-x", nil), "room_name"},
		{room("a/b", nil), "room_name"},
		{room(strings.Repeat("r", 65), nil), "room_name"},
	} {
		d := testserver.MustFail(t, jsonReq(t, env, c, "POST", roomsPath, tc.body), wire.CodeInvalidParam)
		if !strings.Contains(d, "parameter "+tc.field) {
			t.Errorf("%v: %q does not name %s", tc.body, d, tc.field)
		}
	}
	// debug=1 validates only.
	r := testserver.MustOK(t, jsonReq(t, env, c, "POST", roomsPath+"?debug=1", room("dbg", map[string]any{"frame": 24})))
	if _, ok := r["debug_list"].(map[string]any)["frame"]; !ok {
		t.Fatalf("debug reply = %v", r)
	}
	// A body that is not JSON.
	req, _ := http.NewRequest("POST", env.URL+roomsPath+"?account_token="+c.Token, strings.NewReader("{room_name"))
	req.Header.Set("Content-Type", "application/json")
	testserver.MustFail(t, c.Send(req), wire.CodeIllegalBody)
	if l := testserver.MustOK(t, c.Do("GET", roomsPath, nil)); num(l["total"]) != 0 {
		t.Fatalf("refused requests created rooms: %v", l)
	}
	if l := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs", nil)); num(l["total"]) != 0 {
		t.Fatalf("refused requests created conferences: %v", l)
	}
	// Without the cookie: 10102; without the token: 10002.
	anon := env.Client(t)
	anon.Token = c.Token
	testserver.MustFail(t, jsonReq(t, env, anon, "POST", roomsPath, room("x", nil)), wire.CodeNotLoggedIn)
	noTok := env.Client(t)
	noTok.Cookie = c.Cookie
	testserver.MustFail(t, jsonReq(t, env, noTok, "POST", roomsPath, room("x", nil)), wire.CodeTokenInvalid)
}

// Beyond the platform's capacity, creation answers 27506 (seed 000) and
// keeps nothing: with one conference allowed, and with too few ports; a
// larger max_join_mt must fit as well.
func TestRoomCapacity(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Conference: engine.Config{MaxConfs: 1, MaxPorts: 200}})
		c := env.LoggedIn(t)
		first := testserver.MustOK(t, jsonReq(t, env, c, "POST", roomsPath, room("one", map[string]any{"max_join_mt": 64})))
		testserver.MustFail(t, jsonReq(t, env, c, "POST", roomsPath, room("two", map[string]any{"max_join_mt": 8})), wire.CodeNoConfResource)
		if l := testserver.MustOK(t, c.Do("GET", roomsPath, nil)); num(l["total"]) != 1 {
			t.Fatalf("rooms after refusal = %v", l)
		}
		if l := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs", nil)); num(l["total"]) != 1 {
			t.Fatalf("conferences after refusal = %v", l)
		}
		// Growing the only room to 192 terminals fits the 200 ports.
		testserver.MustOK(t, jsonReq(t, env, c, "PUT", roomsPath+"/"+first["room_id"].(string), map[string]any{"max_join_mt": 192}))
		testserver.MustOK(t, c.Do("DELETE", roomsPath+"/"+first["room_id"].(string), nil))

		// Ports: a 192-party room leaves 8 ports; a 32-party one does not fit.
		env2 := testserver.Start(t, testdb.SQLite(t), testserver.Options{Conference: engine.Config{MaxPorts: 200}})
		c2 := env2.LoggedIn(t)
		big := testserver.MustOK(t, jsonReq(t, env2, c2, "POST", roomsPath, room("big", nil)))
		testserver.MustFail(t, jsonReq(t, env2, c2, "POST", roomsPath, room("small", map[string]any{"max_join_mt": 32})), wire.CodeNoConfResource)
		small := testserver.MustOK(t, jsonReq(t, env2, c2, "POST", roomsPath, room("small", map[string]any{"max_join_mt": 8})))
		testserver.MustFail(t, jsonReq(t, env2, c2, "PUT", roomsPath+"/"+small["room_id"].(string), map[string]any{"max_join_mt": 32, "room_name": "renamed"}), wire.CodeNoConfResource)
		if r := testserver.MustOK(t, c2.Do("GET", roomsPath+"/"+small["room_id"].(string), nil)); num(r["max_join_mt"]) != 8 || r["room_name"] != "small" {
			t.Fatalf("a refused resize changed the room: %v", r)
		}
		testserver.MustOK(t, c2.Do("DELETE", roomsPath+"/"+big["room_id"].(string), nil))
		testserver.MustOK(t, jsonReq(t, env2, c2, "PUT", roomsPath+"/"+small["room_id"].(string), map[string]any{"max_join_mt": 32}))
	})
}

// Rooms belong to the user domain: other domains do not see them; only
// the creator or an administrator changes one; when its conference ends
// the room is gone; with video approval on, an ordinary account gets 99997.
func TestRoomPermissions(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	bob := env.Account(t, "default", "bob", false)
	carol := env.Account(t, "default", "carol", false)
	other := env.Account(t, "north", "nadmin", true)
	r := testserver.MustOK(t, jsonReq(t, env, bob, "POST", roomsPath, room("bobs", map[string]any{"max_join_mt": 8})))
	id := r["room_id"].(string)
	testserver.MustOK(t, carol.Do("GET", roomsPath+"/"+id, nil))
	testserver.MustFail(t, jsonReq(t, env, carol, "PUT", roomsPath+"/"+id, map[string]any{"bitrate": 1024}), wire.CodeNoPermission)
	testserver.MustFail(t, carol.Do("DELETE", roomsPath+"/"+id, nil), wire.CodeNoPermission)
	testserver.MustOK(t, jsonReq(t, env, admin, "PUT", roomsPath+"/"+id, map[string]any{"bitrate": 1024}))
	testserver.MustFail(t, other.Do("GET", roomsPath+"/"+id, nil), krtc.CodeRoomNotFound)
	testserver.MustFail(t, jsonReq(t, env, other, "PUT", roomsPath+"/"+id, map[string]any{"bitrate": 512}), krtc.CodeRoomNotFound)
	testserver.MustFail(t, other.Do("DELETE", roomsPath+"/"+id, nil), krtc.CodeRoomNotFound)
	if l := testserver.MustOK(t, other.Do("GET", roomsPath, nil)); num(l["total"]) != 0 {
		t.Fatalf("another domain lists %v", l)
	}
	// The same name in another domain is fine.
	testserver.MustOK(t, jsonReq(t, env, other, "POST", roomsPath, room("bobs", map[string]any{"max_join_mt": 8})))

	// Its conference ended through mc: the room is gone.
	confID := testserver.MustOK(t, bob.Do("GET", roomsPath+"/"+id, nil))["conf_id"].(string)
	testserver.MustOK(t, bob.Do("DELETE", "/api/v1/mc/confs/"+confID, nil))
	testserver.MustFail(t, bob.Do("GET", roomsPath+"/"+id, nil), krtc.CodeRoomNotFound)
	if l := testserver.MustOK(t, bob.Do("GET", roomsPath, nil)); num(l["total"]) != 0 {
		t.Fatalf("a room without conference is listed: %v", l)
	}

	// Approval: an ordinary account cannot open a room; an administrator can.
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/amc/approval_infos", testserver.Params(t, map[string]any{"real_approval": 0, "video_approval": 1})))
	testserver.MustFail(t, jsonReq(t, env, bob, "POST", roomsPath, room("held", map[string]any{"max_join_mt": 8})), engine.CodeApprovalOn)
	testserver.MustOK(t, jsonReq(t, env, admin, "POST", roomsPath, room("adm", map[string]any{"max_join_mt": 8})))
}

// Older releases: 4K is 19 and H.265 is 7 before 5.1.0.1.0 (existing
// rules); 32 and 64 terminals only from 5.2.0.2.0 and room_type 2 only
// from 6.1.0.2.0 (rules_krtc.go).
func TestRoomReleases(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.0.0.4.1"})
	c := env.LoggedIn(t)
	r := testserver.MustOK(t, jsonReq(t, env, c, "POST", roomsPath, room("old", map[string]any{"resolution": 16, "format": 6, "max_join_mt": 8})))
	got := testserver.MustOK(t, c.Do("GET", roomsPath+"/"+r["room_id"].(string), nil))
	if num(got["resolution"]) != 19 || num(got["format"]) != 7 {
		t.Fatalf("room at 5.0.0.4.1 = %v, want 4K written 19 and H.265 written 7", got)
	}
	wired := false
	for _, rule := range compat.Rules() {
		wired = wired || rule.Endpoint == "krtc.rooms.create" && strings.HasSuffix(rule.Path, "max_join_mt")
	}
	if !wired {
		t.Skip("the krtc rules (compat.krtcRules) are not in compat.Rules yet (docs/krtc.md)")
	}
	if l := rooms(testserver.MustOK(t, c.Do("GET", roomsPath, nil))); num(l[0]["resolution"]) != 19 || num(l[0]["format"]) != 7 {
		t.Fatalf("list at 5.0.0.4.1 = %v", l)
	}
	testserver.MustFail(t, jsonReq(t, env, c, "POST", roomsPath, room("x", map[string]any{"max_join_mt": 32})), wire.CodeInvalidParam)
	testserver.MustFail(t, jsonReq(t, env, c, "POST", roomsPath, room("x", map[string]any{"max_join_mt": 8, "room_type": 2})), wire.CodeInvalidParam)
	env2 := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.2.0.2.0"})
	c2 := env2.LoggedIn(t)
	testserver.MustOK(t, jsonReq(t, env2, c2, "POST", roomsPath, room("x", map[string]any{"max_join_mt": 32})))
	testserver.MustFail(t, jsonReq(t, env2, c2, "POST", roomsPath, room("y", map[string]any{"max_join_mt": 8, "room_type": 2})), wire.CodeInvalidParam)
}
