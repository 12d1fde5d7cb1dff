package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Per-terminal controls are stored and shown by the list and the info;
// media controls of a terminal that is not online answer 20401, of an
// unknown terminal 12104, of an unknown conference 12103.
func TestMtsControls(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		conf := mtsConf(t, admin, nil)
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry(mtsIP), mtsEntry(mtsRoomA, "call_mode", 0)))
		env.Advance(t, 2*time.Second) // 1 online, 2 (manual) never called
		base := "/api/v1/vc/confs/" + conf + "/mts/"
		put := func(mt, what string, p map[string]any) testserver.Reply {
			return admin.Do("PUT", base+mt+"/"+what, testserver.Params(t, p))
		}
		camera := func(mt string, p map[string]any) testserver.Reply {
			return admin.Do("POST", base+mt+"/camera", testserver.Params(t, p))
		}

		testserver.MustOK(t, put("1", "mute", map[string]any{"value": 1}))
		testserver.MustOK(t, put("1", "silence", map[string]any{"value": 1}))
		testserver.MustOK(t, put("1", "volume", map[string]any{"vol_mode": 1, "vol_value": 30}))
		testserver.MustOK(t, put("1", "volume", map[string]any{"vol_mode": 2, "vol_value": 0}))
		testserver.MustOK(t, camera("1", map[string]any{"state": 0, "type": 9}))
		testserver.MustOK(t, camera("1", map[string]any{"state": 1, "type": 9}))
		testserver.MustOK(t, put("1", "videos", map[string]any{"video_idx": 1}))
		info := mtsGet(t, admin, conf, "1")
		for k, v := range map[string]int{"mute": 1, "silence": 1, "rcv_volume": 30, "snd_volume": 0} {
			if got := mtsNum(info[k]); got != v {
				t.Errorf("info %s = %d, want %d", k, got, v)
			}
		}
		if got := mtsNum(info["v_snd_chn"].([]any)[0].(map[string]any)["cur_video_idx"]); got != 1 {
			t.Errorf("cur_video_idx = %d, want 1", got)
		}
		if l := mtsList(t, admin, conf)["1"]; mtsNum(l["mute"]) != 1 || mtsNum(l["silence"]) != 1 {
			t.Errorf("list: %v", l)
		}
		mtsSame(t, "videos", testserver.MustOK(t, admin.Do("GET", base+"1/videos", nil)), map[string]any{
			"cur_video_idx": 1, "mt_videos": []any{map[string]any{"video_alise": "camera", "video_idx": 0},
				map[string]any{"video_alise": "vga", "video_idx": 1}}, "success": 1})
		testserver.MustOK(t, put("1", "mute", map[string]any{"value": 0}))
		if got := mtsNum(mtsGet(t, admin, conf, "1")["mute"]); got != 0 {
			t.Errorf("mute after unmuting = %d", got)
		}

		// Refusals change nothing.
		testserver.MustFail(t, put("1", "volume", map[string]any{"vol_mode": 1, "vol_value": 36}), 90400)
		testserver.MustFail(t, put("1", "volume", map[string]any{"vol_mode": 3, "vol_value": 3}), 90400)
		testserver.MustFail(t, put("1", "videos", map[string]any{"video_idx": 5}), 20513)
		testserver.MustFail(t, put("1", "mute", map[string]any{"value": 2}), 90400)
		testserver.MustFail(t, camera("1", map[string]any{"state": 0, "type": 16}), 90400)
		info = mtsGet(t, admin, conf, "1")
		if mtsNum(info["rcv_volume"]) != 30 || mtsNum(info["v_snd_chn"].([]any)[0].(map[string]any)["cur_video_idx"]) != 1 {
			t.Errorf("a refused control changed the terminal: %v", info)
		}
		for what, r := range map[string]testserver.Reply{
			"mute":    put("2", "mute", map[string]any{"value": 1}),
			"silence": put("2", "silence", map[string]any{"value": 1}),
			"volume":  put("2", "volume", map[string]any{"vol_mode": 1, "vol_value": 3}),
			"camera":  camera("2", map[string]any{"state": 0, "type": 1}),
			"videos":  admin.Do("GET", base+"2/videos", nil),
			"video":   put("2", "videos", map[string]any{"video_idx": 0}),
		} {
			if r.OK() || r.Code() != 20401 {
				t.Errorf("%s of a terminal that is not online: %s, want 20401", what, r.Raw)
			}
		}
		if l := mtsList(t, admin, conf)["2"]; mtsNum(l["mute"]) != 0 || mtsNum(l["silence"]) != 0 {
			t.Errorf("a refused control changed terminal 2: %v", l)
		}
		for what, r := range map[string]testserver.Reply{
			"mute":      put("9", "mute", map[string]any{"value": 1}),
			"silence":   put("9", "silence", map[string]any{"value": 1}),
			"volume":    put("9", "volume", map[string]any{"vol_mode": 1, "vol_value": 3}),
			"camera":    camera("9", map[string]any{"state": 0, "type": 1}),
			"call_mode": put("9", "call_mode", map[string]any{"value": 2}),
			"videos":    admin.Do("GET", base+"9/videos", nil),
			"video":     put("9", "videos", map[string]any{"video_idx": 0}),
		} {
			if r.OK() || r.Code() != 12104 {
				t.Errorf("%s of an unknown terminal: %s, want 12104", what, r.Raw)
			}
		}
		testserver.MustFail(t, admin.Do("PUT", "/api/v1/vc/confs/1119999/mts/1/mute", testserver.Params(t, map[string]any{"value": 1})), 12103)
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/1119999/mts/1/videos", nil), 12103)

		// The call mode is changed online or not: the manual terminal
		// switched to automatic is called and joins.
		testserver.MustOK(t, put("1", "call_mode", map[string]any{"value": 3}))
		testserver.MustOK(t, put("2", "call_mode", map[string]any{"value": 2}))
		if s := mtsState(t, env, conf, "2"); s != engine.StateCalling {
			t.Fatalf("terminal 2 switched to automatic: %s, want ringing", s)
		}
		env.Advance(t, 5*time.Second)
		l := mtsList(t, admin, conf)
		if mtsNum(l["1"]["call_mode"]) != 3 || mtsNum(l["2"]["call_mode"]) != 2 || mtsNum(l["2"]["online"]) != 1 {
			t.Errorf("after call mode changes: %v %v", l["1"], l["2"])
		}
		testserver.MustFail(t, put("1", "call_mode", map[string]any{"value": 1}), 90400)
	})
}
