package vc_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Helpers of the terminal tests (prefix mts).

// The directory terminals of the tests (store.DirectoryEntry).
const (
	mtsRoomA   = "2001" // answers after 5 s, alias room-a, 10.0.0.1
	mtsOffline = "2002"
	mtsBusy    = "2003"
	mtsBusy2   = "2005"
	mtsIP      = "10.1.1.1" // not in the directory: answers after 2 s
)

// mtsEnv starts a server with the directory terminals and returns it with
// the administrator, who sees the newest shapes.
func mtsEnv(t testing.TB, dsn string, opt testserver.Options) (*testserver.Env, *testserver.Client) {
	t.Helper()
	env := testserver.Start(t, dsn, opt)
	for _, e := range []store.DirectoryEntry{
		{Account: mtsRoomA, E164: mtsRoomA, Alias: "room-a", IP: "10.0.0.1", Behaviour: "answer", AnswerAfter: 5 * time.Second},
		{Account: mtsOffline, E164: mtsOffline, Alias: "far", Behaviour: "offline"},
		{Account: mtsBusy, E164: mtsBusy, Alias: "busy-1", Behaviour: "busy"},
		{Account: mtsBusy2, E164: mtsBusy2, Alias: "busy-2", Behaviour: "busy"},
	} {
		mtsDir(t, env, e)
	}
	admin := env.LoggedIn(t)
	admin.Level = "3"
	return env, admin
}

func mtsDir(t testing.TB, env *testserver.Env, e store.DirectoryEntry) {
	t.Helper()
	if err := env.Store.PutDirectoryEntry(context.Background(), e); err != nil {
		t.Fatal(err)
	}
}

// mtsConf creates an instant conference: automatic calls, 3 attempts 10 s
// apart, 8 terminals; extra overrides.
func mtsConf(t testing.TB, c *testserver.Client, extra map[string]any) string {
	t.Helper()
	p := map[string]any{"create_type": 1, "name": "terminals", "bitrate": 2048, "max_join_mt": 8, "duration": 0,
		"call_mode": 2, "call_times": 3, "call_interval": 10}
	for k, v := range extra {
		p[k] = v
	}
	return testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
}

// mtsEntry is an element of mts when adding: E.164 unless an IP.
func mtsEntry(account string, extra ...any) map[string]any {
	typ := 5
	if net.ParseIP(account) != nil {
		typ = 7
	}
	e := map[string]any{"account": account, "account_type": typ, "bitrate": 1024, "protocol": 0}
	for i := 0; i+1 < len(extra); i += 2 {
		e[extra[i].(string)] = extra[i+1]
	}
	return e
}

func mtsAdd(t testing.TB, c *testserver.Client, confID string, entries ...map[string]any) testserver.Reply {
	t.Helper()
	return c.Do("POST", "/api/v1/vc/confs/"+confID+"/mts", testserver.Params(t, map[string]any{"mts": entries}))
}

// mtsIDs is a {mts: [{mt_id}]} parameter.
func mtsIDs(t testing.TB, ids ...string) url.Values {
	t.Helper()
	var l []map[string]string
	for _, id := range ids {
		l = append(l, map[string]string{"mt_id": id})
	}
	b, _ := json.Marshal(map[string]any{"mts": l})
	return url.Values{"params": {string(b)}}
}

// mtsDelete sends a DELETE whose params travel in a form body, as the
// reference sends those of removing and hanging up terminals.
func mtsDelete(t testing.TB, env *testserver.Env, c *testserver.Client, path string, params url.Values) testserver.Reply {
	t.Helper()
	params.Set("account_token", c.Token)
	req, err := http.NewRequest("DELETE", env.URL+path, strings.NewReader(params.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.Send(req)
}

func mtsGet(t testing.TB, c *testserver.Client, confID, mtID string) map[string]any {
	t.Helper()
	return testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+confID+"/mts/"+mtID, nil))
}

// mtsList returns the list reply's terminals by mt_id.
func mtsList(t testing.TB, c *testserver.Client, confID string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, v := range testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+confID+"/mts", nil))["mts"].([]any) {
		m := v.(map[string]any)
		out[m["mt_id"].(string)] = m
	}
	return out
}

// mtsState reads a terminal record's engine state (calling is ringing or
// waiting to be called again).
func mtsState(t testing.TB, env *testserver.Env, confID, mtID string) string {
	t.Helper()
	recs, _, err := env.Store.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindMT, OwnerMoid: confID})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.ID == confID+"/"+mtID {
			return r.State
		}
	}
	return "absent"
}

// mtsOnline asserts the online field of terminals in the list and info.
func mtsOnline(t testing.TB, c *testserver.Client, confID string, want map[string]int) {
	t.Helper()
	l := mtsList(t, c, confID)
	for id, w := range want {
		if got := mtsNum(l[id]["online"]); got != w {
			t.Errorf("list: terminal %s online = %d, want %d", id, got, w)
		}
		if got := mtsNum(mtsGet(t, c, confID, id)["online"]); got != w {
			t.Errorf("info: terminal %s online = %d, want %d", id, got, w)
		}
	}
}

func mtsNum(v any) int {
	f, ok := v.(float64)
	if !ok {
		return -1
	}
	return int(f)
}

func mtsFields(name, elem string) []string {
	ep, _ := catalog.Lookup(name)
	ps := ep.Reply
	if elem != "" {
		for _, p := range ps {
			if p.Name == elem {
				ps = p.Fields
			}
		}
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}

func mtsKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mtsSame(t testing.TB, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s = %s, want %s", what, g, w)
	}
}

// Adding answers error_code 0 and each new mt_id; the terminals ring,
// then are online after the directory's answer delay, with their
// identity and channels; list and info carry every field of the schemas.
func TestMtsAddRingThenOnline(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		body := testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsRoomA), mtsEntry(mtsIP, "protocol", 1, "bitrate", 768)))
		if body["error_code"] != float64(0) {
			t.Fatalf("error_code = %v, want 0", body["error_code"])
		}
		mtsSame(t, "added", body["mts"], []any{
			map[string]any{"account": mtsRoomA, "account_type": 5, "mt_id": 1, "protocol": 0},
			map[string]any{"account": mtsIP, "account_type": 7, "mt_id": 2, "protocol": 1},
		})
		for _, id := range []string{"1", "2"} {
			if s := mtsState(t, env, conf, id); s != engine.StateCalling {
				t.Fatalf("terminal %s after adding: %s, want ringing", id, s)
			}
		}
		mtsOnline(t, admin, conf, map[string]int{"1": 0, "2": 0})
		env.Advance(t, 2*time.Second)
		mtsOnline(t, admin, conf, map[string]int{"1": 0, "2": 1})
		if s := mtsState(t, env, conf, "1"); s != engine.StateCalling {
			t.Fatalf("room-a after 2 s: %s, want still ringing", s)
		}
		env.Advance(t, 3*time.Second)
		mtsOnline(t, admin, conf, map[string]int{"1": 1, "2": 1})

		l := mtsList(t, admin, conf)
		mtsSame(t, "list fields", mtsKeys(l["1"]), mtsFields("vc.confs.mts.list", "mts"))
		want := map[string]any{"alias": "room-a", "mt_id": "1", "ip": "10.0.0.1", "online": 1, "e164": mtsRoomA, "type": 1,
			"bitrate": 1024, "silence": 0, "mute": 0, "dual": 0, "mix": 0, "vmp": 0, "inspection": 0, "rec": 0, "poll": 0,
			"upload": 0, "protocol": 0, "call_mode": 2, "account": mtsRoomA, "account_type": 5}
		mtsSame(t, "room-a in the list", l["1"], want)
		if l["2"]["alias"] != mtsIP || l["2"]["ip"] != mtsIP || mtsNum(l["2"]["bitrate"]) != 768 || mtsNum(l["2"]["protocol"]) != 1 {
			t.Errorf("IP terminal: %v", l["2"])
		}
		info := mtsGet(t, admin, conf, "1")
		wantKeys := append(mtsFields("vc.confs.mts.get", ""), "success")
		sort.Strings(wantKeys)
		mtsSame(t, "info fields", mtsKeys(info), wantKeys)
		if mtsNum(info["rcv_volume"]) != 15 || mtsNum(info["snd_volume"]) != 15 {
			t.Errorf("volumes %v %v", info["rcv_volume"], info["snd_volume"])
		}
		v := info["v_snd_chn"].([]any)[0].(map[string]any)
		if mtsNum(v["bitrate"]) != 1024 || mtsNum(v["cur_video_idx"]) != 0 || mtsNum(v["chn_id"]) != 1 {
			t.Errorf("v_snd_chn %v", v)
		}
		for _, ch := range []string{"v_rcv_chn", "dv_snd_chn", "dv_rcv_chn", "a_snd_chn", "a_rcv_chn"} {
			if l, _ := info[ch].([]any); len(l) != 1 {
				t.Errorf("%s = %v, want one channel", ch, info[ch])
			}
		}
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/"+conf+"/mts/9", nil), 12104)
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/1119999/mts/1", nil), 12103)
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/1119999/mts", nil), 12103)
		testserver.MustFail(t, mtsAdd(t, admin, "1119999", mtsEntry(mtsIP)), 12103)
	})
}

// A failed call is tried call_times times call_interval apart: a busy
// terminal that becomes free before the third attempt is online after
// it; one that becomes free after the third is never called again. A
// chase terminal (call_mode 3) is called for ever; a manual one is added
// without a call.
func TestMtsRetries(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsBusy), mtsEntry(mtsBusy2),
			mtsEntry(mtsOffline, "call_mode", 3), mtsEntry(mtsRoomA, "call_mode", 0)))
		if s := mtsState(t, env, conf, "4"); s != engine.StateIdle {
			t.Fatalf("manual terminal after adding: %s, want not called", s)
		}
		env.Advance(t, time.Second)    // attempt 1 of the busy ones fails
		env.Advance(t, 10*time.Second) // attempt 2
		env.Advance(t, time.Second)    // fails
		mtsDir(t, env, store.DirectoryEntry{Account: mtsBusy, E164: mtsBusy, Alias: "busy-1", Behaviour: "answer", AnswerAfter: time.Second})
		env.Advance(t, 10*time.Second) // attempt 3: busy-1 now answers after 1 s, busy-2 is busy again
		if s := mtsState(t, env, conf, "1"); s != engine.StateCalling {
			t.Fatalf("busy-1 at its third attempt: %s, want ringing", s)
		}
		env.Advance(t, time.Second)
		mtsOnline(t, admin, conf, map[string]int{"1": 1, "2": 0, "3": 0, "4": 0})
		if s := mtsState(t, env, conf, "2"); s != engine.StateIdle {
			t.Fatalf("busy-2 after three attempts: %s, want given up", s)
		}
		mtsDir(t, env, store.DirectoryEntry{Account: mtsBusy2, E164: mtsBusy2, Behaviour: "answer", AnswerAfter: time.Second})
		for i := 0; i < 10; i++ { // ten more intervals: the chase terminal is still called
			env.Advance(t, 10*time.Second)
		}
		mtsOnline(t, admin, conf, map[string]int{"2": 0, "3": 0, "4": 0})
		if s := mtsState(t, env, conf, "3"); s != engine.StateCalling {
			t.Fatalf("chase terminal after 13 attempts: %s, want still being called", s)
		}
		mtsDir(t, env, store.DirectoryEntry{Account: mtsOffline, E164: mtsOffline, Alias: "far", Behaviour: "answer", AnswerAfter: time.Second})
		env.Advance(t, 10*time.Second)
		env.Advance(t, time.Second)
		mtsOnline(t, admin, conf, map[string]int{"3": 1})
		if l := mtsList(t, admin, conf); l["3"]["alias"] != "far" || mtsNum(l["3"]["call_mode"]) != 3 || mtsNum(l["4"]["call_mode"]) != 0 {
			t.Errorf("chase %v, manual %v", l["3"], l["4"])
		}
	})
}
