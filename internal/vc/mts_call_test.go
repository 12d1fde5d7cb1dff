package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Hanging up ends a call and drops the channels; the terminal stays and
// can be called again; a batch naming an unknown terminal changes none.
// Hanging up a chase terminal stops its calls.
func TestMtsHangupThenCall(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsRoomA), mtsEntry(mtsIP), mtsEntry(mtsOffline, "call_mode", 3)))
		env.Advance(t, 5*time.Second)
		mtsOnline(t, admin, conf, map[string]int{"1": 1, "2": 1, "3": 0})
		path := "/api/v1/vc/confs/" + conf + "/online_mts"

		testserver.MustFail(t, mtsDelete(t, env, admin, path, mtsIDs(t, "1", "42")), 12104)
		mtsOnline(t, admin, conf, map[string]int{"1": 1, "2": 1})
		testserver.MustOK(t, mtsDelete(t, env, admin, path, mtsIDs(t, "1", "3")))
		mtsOnline(t, admin, conf, map[string]int{"1": 0, "2": 1, "3": 0})
		info := mtsGet(t, admin, conf, "1")
		for _, ch := range []string{"v_snd_chn", "v_rcv_chn", "dv_snd_chn", "dv_rcv_chn", "a_snd_chn", "a_rcv_chn"} {
			if l, _ := info[ch].([]any); len(l) != 0 {
				t.Errorf("%s of a hung-up terminal = %v", ch, info[ch])
			}
		}
		if len(mtsList(t, admin, conf)) != 3 {
			t.Fatal("hanging up removed terminals")
		}
		env.Advance(t, time.Minute)
		if s := mtsState(t, env, conf, "3"); s != engine.StateIdle {
			t.Fatalf("hung-up chase terminal: %s, want no more calls", s)
		}
		mtsOnline(t, admin, conf, map[string]int{"1": 0})

		// Call again: ringing, then online after the answer delay; an online
		// terminal in the batch is left as it is.
		testserver.MustFail(t, admin.Do("POST", path, mtsIDs(t, "1", "42")), 12104)
		if s := mtsState(t, env, conf, "1"); s != engine.StateIdle {
			t.Fatalf("a refused call changed terminal 1: %s", s)
		}
		testserver.MustOK(t, admin.Do("POST", path, mtsIDs(t, "1", "2")))
		if s := mtsState(t, env, conf, "1"); s != engine.StateCalling {
			t.Fatalf("terminal 1 after the call: %s, want ringing", s)
		}
		env.Advance(t, 4*time.Second)
		mtsOnline(t, admin, conf, map[string]int{"1": 0, "2": 1})
		env.Advance(t, time.Second)
		mtsOnline(t, admin, conf, map[string]int{"1": 1, "2": 1})
		if v := mtsGet(t, admin, conf, "1")["v_snd_chn"].([]any); len(v) != 1 {
			t.Fatalf("channels after the new call: %v", v)
		}
		// Hanging up a terminal that is not in the call is accepted.
		testserver.MustOK(t, mtsDelete(t, env, admin, path, mtsIDs(t, "3")))

		testserver.MustFail(t, admin.Do("POST", path, mtsIDs(t)), 90400)
		testserver.MustFail(t, admin.Do("POST", "/api/v1/vc/confs/1119999/online_mts", mtsIDs(t, "1")), 12103)
		testserver.MustFail(t, mtsDelete(t, env, admin, "/api/v1/vc/confs/1119999/online_mts", mtsIDs(t, "1")), 12103)
	})
}
