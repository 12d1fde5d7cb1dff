package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The upload terminal is stored in the conference and flagged on the
// terminal; it must be online; "" cancels it; hanging up or removing it
// cancels it too.
func TestUpload(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsIP), mtsEntry("10.1.1.2"), mtsEntry(mtsRoomA, "call_mode", 0)))
		env.Advance(t, 2*time.Second)
		path := "/api/v1/vc/confs/" + conf + "/upload"
		get := func() string { return testserver.MustOK(t, admin.Do("GET", path, nil))["mt_id"].(string) }
		set := func(id string) testserver.Reply {
			return admin.Do("PUT", path, testserver.Params(t, map[string]any{"mt_id": id}))
		}
		flags := func() map[string]int {
			out := map[string]int{}
			for id, m := range mtsList(t, admin, conf) {
				out[id] = mtsNum(m["upload"])
			}
			return out
		}
		if get() != "" {
			t.Fatal("a new conference has an upload terminal")
		}
		testserver.MustOK(t, set("1"))
		if get() != "1" {
			t.Fatalf("upload = %q, want 1", get())
		}
		mtsSame(t, "flags", flags(), map[string]int{"1": 1, "2": 0, "3": 0})
		testserver.MustOK(t, set("2"))
		mtsSame(t, "flags after moving", flags(), map[string]int{"1": 0, "2": 1, "3": 0})
		if mtsNum(mtsGet(t, admin, conf, "2")["upload"]) != 1 {
			t.Error("info of the upload terminal lacks upload 1")
		}

		testserver.MustFail(t, set("3"), 20401) // never called
		testserver.MustFail(t, set("9"), 12104)
		if get() != "2" {
			t.Fatalf("a refused change moved the upload to %q", get())
		}
		testserver.MustOK(t, set(""))
		if get() != "" {
			t.Fatal("mt_id \"\" did not cancel the upload")
		}
		mtsSame(t, "flags after cancelling", flags(), map[string]int{"1": 0, "2": 0, "3": 0})

		// Hanging up or removing the upload terminal cancels it.
		testserver.MustOK(t, set("1"))
		testserver.MustOK(t, mtsDelete(t, env, admin, "/api/v1/vc/confs/"+conf+"/online_mts", mtsIDs(t, "1")))
		if get() != "" || flags()["1"] != 0 {
			t.Fatalf("after hanging up the upload terminal: %q %v", get(), flags())
		}
		testserver.MustOK(t, set("2"))
		testserver.MustOK(t, mtsDelete(t, env, admin, "/api/v1/vc/confs/"+conf+"/mts", mtsIDs(t, "2")))
		if get() != "" {
			t.Fatalf("after removing the upload terminal: %q", get())
		}
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/1119999/upload", nil), 12103)
		testserver.MustFail(t, admin.Do("PUT", "/api/v1/vc/confs/1119999/upload", testserver.Params(t, map[string]any{"mt_id": ""})), 12103)
	})
}
