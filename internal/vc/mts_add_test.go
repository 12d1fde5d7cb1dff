package vc_test

import (
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// max_join_mt bounds a conference's terminals (20566) and the platform's
// terminal ports bound all of them (20301); a refused batch adds none.
func TestMtsCapacity(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		six := []map[string]any{}
		for i := 0; i < 6; i++ {
			six = append(six, mtsEntry(fmt.Sprintf("10.9.0.%d", i+1)))
		}
		testserver.MustOK(t, mtsAdd(t, admin, conf, six...))
		testserver.MustFail(t, mtsAdd(t, admin, conf, mtsEntry("10.9.1.1"), mtsEntry("10.9.1.2"), mtsEntry("10.9.1.3")), 20566)
		if n := len(mtsList(t, admin, conf)); n != 6 {
			t.Fatalf("a refused batch left %d terminals, want 6", n)
		}
		body := testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry("10.9.1.1"), mtsEntry("10.9.1.2")))
		mtsSame(t, "ids", []any{body["mts"].([]any)[0].(map[string]any)["mt_id"], body["mts"].([]any)[1].(map[string]any)["mt_id"]}, []int{7, 8})
		testserver.MustFail(t, mtsAdd(t, admin, conf, mtsEntry("10.9.1.3")), 20566)
		// A removed terminal frees its place.
		testserver.MustOK(t, mtsDelete(t, env, admin, "/api/v1/vc/confs/"+conf+"/mts", mtsIDs(t, "1")))
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry("10.9.1.3")))

		// The platform's ports: a conference of 32 holds 8 terminals; after
		// a restart with 10 ports, 3 more do not fit, 2 do.
		big := mtsConf(t, admin, map[string]any{"max_join_mt": 32, "name": "big"})
		testserver.MustOK(t, admin.Do("DELETE", "/api/v1/mc/confs/"+conf, nil))
		var eight []map[string]any
		for i := 0; i < 8; i++ {
			eight = append(eight, mtsEntry(fmt.Sprintf("10.8.0.%d", i+1)))
		}
		testserver.MustOK(t, mtsAdd(t, admin, big, eight...))
		_, small := mtsEnv(t, dsn, testserver.Options{Conference: engine.Config{MaxPorts: 10}})
		testserver.MustFail(t, mtsAdd(t, small, big, mtsEntry("10.8.1.1"), mtsEntry("10.8.1.2"), mtsEntry("10.8.1.3")), 20301)
		if n := len(mtsList(t, small, big)); n != 8 {
			t.Fatalf("a refused batch left %d terminals, want 8", n)
		}
		testserver.MustOK(t, mtsAdd(t, small, big, mtsEntry("10.8.1.1"), mtsEntry("10.8.1.2")))
		testserver.MustFail(t, mtsAdd(t, small, big, mtsEntry("10.8.1.3")), 20301)
	})
}

// The add reply lists the new terminals from 5.1.0.2.0 (seed 001); before
// it, only error_code 0.
func TestMtsAddReplyByRelease(t *testing.T) {
	for _, tc := range []struct {
		release string
		hasMts  bool
	}{{"5.0.0.4.1", false}, {"5.1.0.1.0", false}, {"5.1.0.2.0", true}, {"", true}} {
		t.Run("release "+tc.release, func(t *testing.T) {
			_, admin := mtsEnv(t, testdb.SQLite(t), testserver.Options{Release: tc.release})
			conf := testserver.MustOK(t, admin.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{
				"name": "old", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2, "call_times": 1, "call_interval": 10,
			})))["conf_id"].(string)
			body := testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsIP)))
			if body["error_code"] != float64(0) {
				t.Errorf("error_code = %v", body["error_code"])
			}
			if _, has := body["mts"]; has != tc.hasMts {
				t.Errorf("reply %v: has mts = %v, want %v", body, has, tc.hasMts)
			}
			if n := len(mtsList(t, admin, conf)); n != 1 {
				t.Errorf("the conference has %d terminals, want the 1 added", n)
			}
		})
	}
}
