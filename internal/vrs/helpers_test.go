package vrs_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testserver"
)

// vr is a client of the recording system on a test server.
type vr struct {
	t   *testing.T
	env *testserver.Env
	c   *testserver.Client
}

const vrsBase = "/api/v2/vrs"

func newVR(t *testing.T, env *testserver.Env, c *testserver.Client) vr { return vr{t, env, c} }

// do sends a request; params become the form field params (POST, PUT,
// DELETE) or the query (GET).
func (v vr) do(method, path string, params map[string]any) testserver.Reply {
	v.t.Helper()
	if method == "GET" {
		q := map[string][]string{}
		for k, x := range params {
			q[k] = []string{fmt.Sprint(x)}
		}
		return v.c.Do(method, vrsBase+path, q)
	}
	form := url.Values{}
	if params != nil {
		form = testserver.Params(v.t, params)
	}
	if method == "DELETE" { // DELETE with a params body: POST with _method=DELETE
		return v.c.Do("POST", vrsBase+path+"?_method=DELETE", form)
	}
	return v.c.Do(method, vrsBase+path, form)
}

func (v vr) ok(method, path string, params map[string]any) map[string]any {
	v.t.Helper()
	return testserver.MustOK(v.t, v.do(method, path, params))
}

func (v vr) fail(code int, method, path string, params map[string]any) {
	v.t.Helper()
	testserver.MustFail(v.t, v.do(method, path, params), code)
}

// recRoom is the room object of adding a recording room.
func recRoom(name, no string, roomtype int, extra map[string]any) map[string]any {
	r := map[string]any{
		"roomname": name, "roomno": no, "roompwd": "", "roomtype": roomtype, "opertype": 0, "vtype": 0, "vformat": 0,
		"vwidth": 0, "vheight": 0, "vflag": 0, "vframe": 0, "atype": 1, "aformat": 98, "aflag": 1, "confrate": 0,
		"preprgname": name, "prgtype": 1, "bpublish": 0,
	}
	for k, x := range extra {
		r[k] = x
	}
	return map[string]any{"room": r}
}

// playRoom is the room object of adding a playback room.
func playRoom(name, no string, prgid int) map[string]any {
	return map[string]any{"room": map[string]any{
		"roomname": name, "roomno": no, "roompwd": "888888", "autoplay": 0, "encrypt": 0, "encryptkey": "",
		"cryptkeylen": 0, "prgalias": name, "prgid": prgid, "ip": 2130706433, "path": "/uploadmedia/", "prgname": name + ".asf",
	}}
}

// addRecRoom adds a recording room and returns its id.
func (v vr) addRecRoom(name, no string, roomtype int, extra map[string]any) string {
	v.t.Helper()
	return fmt.Sprint(num(v.ok("POST", "/recroom", recRoom(name, no, roomtype, extra))["roomid"]))
}

// recRoomState reads a recording room of the list.
func (v vr) recRoomState(id string) map[string]any {
	v.t.Helper()
	l := v.ok("GET", "/recroom", map[string]any{"roomid": id})["roomstate"].([]any)
	if len(l) != 1 {
		v.t.Fatalf("recording room %s: %d rooms listed", id, len(l))
	}
	return l[0].(map[string]any)
}

// programs lists the programs of a folder (1: all).
func (v vr) programs(query map[string]any) []map[string]any {
	v.t.Helper()
	if query == nil {
		query = map[string]any{}
	}
	if _, ok := query["folderid"]; !ok {
		query["folderid"] = 1
	}
	var out []map[string]any
	for _, p := range v.ok("GET", "/program", query)["prginfo"].([]any) {
		out = append(out, p.(map[string]any))
	}
	return out
}

// program finds a program by gid in the list of all programs.
func (v vr) program(gid int) map[string]any {
	v.t.Helper()
	for _, p := range v.programs(map[string]any{"prgs1page": 1000}) {
		if num(p["prggid"]) == gid {
			return p
		}
	}
	v.t.Fatalf("program %d is not listed", gid)
	return nil
}

// record runs a recording room for d and returns the program's gid.
func (v vr) record(room string, d time.Duration) int {
	v.t.Helper()
	before := map[int]bool{}
	for _, p := range v.programs(map[string]any{"prgs1page": 1000}) {
		before[num(p["prggid"])] = true
	}
	v.ok("PUT", "/recroom/"+room+"/startrec", nil)
	v.env.Advance(v.t, d)
	v.ok("PUT", "/recroom/"+room+"/stoprec", nil)
	for _, p := range v.programs(map[string]any{"prgs1page": 1000}) {
		if !before[num(p["prggid"])] {
			return num(p["prggid"])
		}
	}
	v.t.Fatalf("recording room %s made no program", room)
	return 0
}

// num reads a JSON number.
func num(x any) int {
	switch n := x.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case bool:
		if n {
			return 1
		}
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	case string:
		i, _ := strconv.Atoi(n)
		return i
	}
	return 0
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	_ = json.Unmarshal(w, &wv)
	if !reflect.DeepEqual(gv, wv) {
		t.Errorf("%s = %s, want %s", what, g, w)
	}
}

// conf creates a running conference of c's domain that calls accounts
// (E.164 numbers) at bitrate and returns its conf_id after the calls are
// answered.
func conf(t *testing.T, env *testserver.Env, c *testserver.Client, name string, bitrate int, accounts ...string) string {
	t.Helper()
	var members []any
	for _, a := range accounts {
		members = append(members, map[string]any{"name": a, "account": a, "account_type": 5, "bitrate": bitrate, "protocol": 0})
	}
	p := map[string]any{"create_type": 1, "name": name, "bitrate": bitrate, "max_join_mt": 8, "duration": 0,
		"call_mode": 2, "call_times": 1, "call_interval": 10, "invite_members": members,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": bitrate}}}
	id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	env.Advance(t, 2*time.Second)
	return id
}
