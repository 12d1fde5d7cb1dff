package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Deleting removes terminals; a batch naming an unknown terminal answers
// 12104 and removes none; bad parameters answer 90400.
func TestMtsDelete(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsIP), mtsEntry("10.1.1.2"), mtsEntry("10.1.1.3")))
		env.Advance(t, 2*time.Second)
		path := "/api/v1/vc/confs/" + conf + "/mts"
		testserver.MustFail(t, mtsDelete(t, env, admin, path, mtsIDs(t, "2", "99")), 12104)
		if n := len(mtsList(t, admin, conf)); n != 3 {
			t.Fatalf("a refused delete left %d terminals", n)
		}
		testserver.MustOK(t, mtsDelete(t, env, admin, path, mtsIDs(t, "1", "2", "2")))
		l := mtsList(t, admin, conf)
		if len(l) != 1 || l["3"] == nil {
			t.Fatalf("after deleting 1 and 2: %v", l)
		}
		testserver.MustFail(t, admin.Do("GET", path+"/1", nil), 12104)
		testserver.MustFail(t, mtsDelete(t, env, admin, path, mtsIDs(t, "1")), 12104)
		testserver.MustFail(t, mtsDelete(t, env, admin, path, mtsIDs(t)), 90400)
		testserver.MustFail(t, mtsDelete(t, env, admin, "/api/v1/vc/confs/1119999/mts", mtsIDs(t, "3")), 12103)
		// The POST with _method=DELETE of seed 000 "Common rules" 6.
		testserver.MustOK(t, admin.Do("POST", path+"?_method=DELETE", mtsIDs(t, "3"))) // params in the POST body
		if n := len(mtsList(t, admin, conf)); n != 0 {
			t.Fatalf("%d terminals left", n)
		}
		testserver.MustFail(t, mtsAdd(t, admin, conf), 90400)
		testserver.MustFail(t, mtsAdd(t, admin, conf, map[string]any{"account": mtsIP, "account_type": 7, "protocol": 0}), 90400)
	})
}

// Another domain's administrator sees none of the conference's terminals
// (12103 everywhere).
func TestMtsCrossDomain(t *testing.T) {
	env, admin := mtsEnv(t, testdb.SQLite(t), testserver.Options{})
	conf := mtsConf(t, admin, nil)
	testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsIP)))
	env.Advance(t, 2*time.Second)
	bob := env.Account(t, "other", "bob", true)
	base := "/api/v1/vc/confs/" + conf
	put := func(path string, p map[string]any) testserver.Reply {
		return bob.Do("PUT", base+path, testserver.Params(t, p))
	}
	for name, r := range map[string]testserver.Reply{
		"list":        bob.Do("GET", base+"/mts", nil),
		"get":         bob.Do("GET", base+"/mts/1", nil),
		"add":         mtsAdd(t, bob, conf, mtsEntry("10.1.1.2")),
		"delete":      mtsDelete(t, env, bob, base+"/mts", mtsIDs(t, "1")),
		"call":        bob.Do("POST", base+"/online_mts", mtsIDs(t, "1")),
		"hangup":      mtsDelete(t, env, bob, base+"/online_mts", mtsIDs(t, "1")),
		"cascades":    bob.Do("GET", base+"/cascades", nil),
		"cascade mts": bob.Do("GET", base+"/cascades/0/mts", nil),
		"cascade add": bob.Do("POST", base+"/cascades/0/mts", testserver.Params(t, map[string]any{"mts": []any{mtsEntry("10.1.1.2")}})),
		"upload":      bob.Do("GET", base+"/upload", nil),
		"upload set":  put("/upload", map[string]any{"mt_id": "1"}),
		"silence":     put("/mts/1/silence", map[string]any{"value": 1}),
		"mute":        put("/mts/1/mute", map[string]any{"value": 1}),
		"volume":      put("/mts/1/volume", map[string]any{"vol_mode": 1, "vol_value": 3}),
		"camera":      bob.Do("POST", base+"/mts/1/camera", testserver.Params(t, map[string]any{"state": 0, "type": 1})),
		"call_mode":   put("/mts/1/call_mode", map[string]any{"value": 0}),
		"videos":      bob.Do("GET", base+"/mts/1/videos", nil),
		"videos set":  put("/mts/1/videos", map[string]any{"video_idx": 1}),
	} {
		if r.OK() || r.Code() != 12103 {
			t.Errorf("%s by another domain: %s, want 12103", name, r.Raw)
		}
	}
	l := mtsList(t, admin, conf)
	if len(l) != 1 || mtsNum(l["1"]["online"]) != 1 || mtsNum(l["1"]["mute"]) != 0 || mtsNum(l["1"]["upload"]) != 0 {
		t.Fatalf("the other domain changed the terminals: %v", l)
	}
}
