package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A conference without links: its tree is the local conference
// (cascade_id "0"); its cascade terminals are the local terminals; any
// other cascade, also through a terminal that is no link, answers 20436.
// cascade_tree_test.go builds real trees.
func TestCascades(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, map[string]any{"name": "tree"})
		base := "/api/v1/vc/confs/" + conf + "/cascades"
		mtsSame(t, "tree", testserver.MustOK(t, admin.Do("GET", base, nil)), map[string]any{
			"cascade_id": "0", "cascades": []any{}, "conf_id": conf, "mt_id": "0", "name": "tree", "success": 1})

		add := func(cascade string, entries ...map[string]any) testserver.Reply {
			return admin.Do("POST", base+"/"+cascade+"/mts", testserver.Params(t, map[string]any{"mts": entries}))
		}
		body := testserver.MustOK(t, add("0", mtsEntry(mtsIP), mtsEntry(mtsRoomA, "forced_call", 1)))
		mtsSame(t, "cascade add reply", body, map[string]any{"error_code": 0, "mts": []any{
			map[string]any{"account": mtsIP, "account_type": 7, "cascades_id": 0, "mt_id": 1, "protocol": 0},
			map[string]any{"account": mtsRoomA, "account_type": 5, "cascades_id": 0, "mt_id": 2, "protocol": 0},
		}, "success": 1})
		env.Advance(t, 5*time.Second)

		l := testserver.MustOK(t, admin.Do("GET", base+"/0/mts", nil))["mts"].([]any)
		local := mtsList(t, admin, conf)
		if len(l) != 2 {
			t.Fatalf("cascade 0 terminals: %v", l)
		}
		for _, v := range l {
			m := v.(map[string]any)
			mtsSame(t, "cascade terminal fields", mtsKeys(m), mtsFields("vc.confs.cascades.mts.list", "mts"))
			for k, want := range local[m["mt_id"].(string)] {
				if _, ok := m[k]; ok {
					mtsSame(t, "cascade terminal "+k, m[k], want)
				}
			}
			if mtsNum(m["online"]) != 1 {
				t.Errorf("cascade terminal %v not online", m)
			}
		}

		testserver.MustFail(t, admin.Do("GET", base+"/0.1/mts", nil), 20436)
		testserver.MustFail(t, add("1", mtsEntry("10.1.1.7")), 20436)
		if n := len(mtsList(t, admin, conf)); n != 2 {
			t.Fatalf("adding to an unknown cascade left %d terminals", n)
		}
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/1119999/cascades", nil), 12103)
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/1119999/cascades/0/mts", nil), 12103)
		testserver.MustFail(t, admin.Do("POST", "/api/v1/vc/confs/1119999/cascades/0/mts",
			testserver.Params(t, map[string]any{"mts": []any{mtsEntry(mtsIP)}})), 12103)
	})
}
