package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A restart in the middle of a conference: a second server on the same
// store shows the same terminals, states and settings, finishes the call
// that was ringing, and goes on controlling them.
func TestMtsRestart(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsIP), mtsEntry("10.1.1.2", "bitrate", 512),
			mtsEntry(mtsBusy, "call_mode", 0)))
		env.Advance(t, 2*time.Second)
		base := "/api/v1/vc/confs/" + conf
		put := func(c *testserver.Client, path string, p map[string]any) {
			t.Helper()
			testserver.MustOK(t, c.Do("PUT", base+path, testserver.Params(t, p)))
		}
		put(admin, "/mts/1/mute", map[string]any{"value": 1})
		put(admin, "/mts/2/silence", map[string]any{"value": 1})
		put(admin, "/mts/2/volume", map[string]any{"vol_mode": 2, "vol_value": 25})
		put(admin, "/mts/2/videos", map[string]any{"video_idx": 1})
		put(admin, "/mts/1/call_mode", map[string]any{"value": 3})
		put(admin, "/upload", map[string]any{"mt_id": "2"})
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsRoomA))) // rings for 5 s across the restart

		snapshot := func(c *testserver.Client) map[string]any {
			out := map[string]any{
				"list":     testserver.MustOK(t, c.Do("GET", base+"/mts", nil)),
				"upload":   testserver.MustOK(t, c.Do("GET", base+"/upload", nil)),
				"cascades": testserver.MustOK(t, c.Do("GET", base+"/cascades/0/mts", nil)),
				"videos":   testserver.MustOK(t, c.Do("GET", base+"/mts/2/videos", nil)),
			}
			for _, id := range []string{"1", "2", "3", "4"} {
				out["info "+id] = mtsGet(t, c, conf, id)
			}
			return out
		}
		before := snapshot(admin)

		env2, admin2 := mtsEnv(t, dsn, testserver.Options{})
		env2.Clock.Set(env.Clock.Now()) // the new server's clock goes on from the old one's
		mtsSame(t, "after the restart", snapshot(admin2), before)

		env2.Advance(t, 5*time.Second)
		mtsOnline(t, admin2, conf, map[string]int{"1": 1, "2": 1, "3": 0, "4": 1})
		put(admin2, "/mts/1/mute", map[string]any{"value": 0})
		if mtsNum(mtsGet(t, admin2, conf, "1")["mute"]) != 0 {
			t.Error("control after the restart not stored")
		}
		testserver.MustOK(t, admin2.Do("POST", base+"/online_mts", mtsIDs(t, "3")))
		env2.Advance(t, time.Second)
		mtsOnline(t, admin2, conf, map[string]int{"3": 0})
	})
}
