package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

func tlMonitor(mode int, mtID, ip string, port int) map[string]any {
	return map[string]any{"mode": mode, "src": map[string]any{"type": 1, "mt_id": mtID, "mt_chn_idx": 1},
		"video_format": map[string]any{"format": 4, "resolution": 12, "frame": 25, "bitrate": 2048},
		"dst":          map[string]any{"ip": ip, "port": port}}
}

func tlBeat(dsts ...map[string]any) map[string]any {
	l := []any{}
	for _, d := range dsts {
		l = append(l, d)
	}
	return map[string]any{"monitors": l}
}

func tlDst(ip string, port int) map[string]any { return map[string]any{"ip": ip, "port": port} }

// Monitors start to a destination, answer their info and key frames, live
// while heartbeats come and are released MonitorTimeout after the last
// one; a terminal that leaves loses its monitors.
func TestMonitors(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 2, 1) // 1, 2 online; 3 offline
		node := tlSecondNode(env)

		bad := tlMonitor(0, "1", "10.9.9.9", 6000)
		bad["src"] = map[string]any{"type": 1}
		for _, tc := range []struct {
			code int
			p    map[string]any
		}{
			{wire.CodeInvalidParam, tlMonitor(0, "1", "not-an-ip", 6000)},
			{wire.CodeInvalidParam, tlMonitor(0, "1", "10.9.9.9", 70000)},
			{wire.CodeInvalidParam, bad},
			{wire.CodeMTNotFound, tlMonitor(0, "9", "10.9.9.9", 6000)},
			{20401, tlMonitor(0, "3", "10.9.9.9", 6000)},
		} {
			k.fail(t, tc.code, "POST", "/monitors", tc.p)
		}
		testserver.MustFail(t, admin.Do("POST", "/api/v1/vc/confs/999999/monitors", testserver.Params(t, tlMonitor(0, "1", "10.9.9.9", 6000))), wire.CodeConfNotFound)
		tlEq(t, "monitors after refusals", k.ok(t, "GET", "/monitors", nil)["monitors"], []any{})

		k.ok(t, "POST", "/monitors", tlMonitor(0, "1", "10.9.9.9", 6000))
		k.ok(t, "POST", "/monitors", tlMonitor(1, "2", "10.9.9.9", 6002))
		k.ok(t, "POST", "/monitors", map[string]any{"mode": 1, "src": map[string]any{"type": 3},
			"audio_format": map[string]any{"format": 12, "chn_num": 2}, "dst": tlDst("10.9.9.10", 7000)})
		want := map[string]any{"success": 1, "mode": 0, "src": map[string]any{"type": 1, "mt_id": "1", "mt_chn_idx": 1,
			"encrypt":         map[string]any{"mode": 0, "key": ""},
			"payload_formats": map[string]any{"real_payload": "96", "active_payload": "106"},
			"media_formats":   map[string]any{"sampling": 0, "chn_num": 0, "bitrate": 2048, "max_frame": 25},
			"rtcp":            map[string]any{"ip": "127.0.0.1", "port": 6001}},
			"dst": map[string]any{"ip": "10.9.9.9", "port": 6000}, "whep_url": ""} // no media here: no link
		tlEq(t, "monitor info", k.ok(t, "GET", "/monitors/10.9.9.9/6000", nil), want)
		mixer := k.ok(t, "GET", "/monitors/10.9.9.10/7000", nil)
		tlEq(t, "mixer monitor", []any{mixer["src"].(map[string]any)["type"], mixer["src"].(map[string]any)["media_formats"],
			mixer["src"].(map[string]any)["payload_formats"]},
			[]any{3, map[string]any{"sampling": 9, "chn_num": 2, "bitrate": 0, "max_frame": 0},
				map[string]any{"real_payload": "111", "active_payload": "111"}}) // Opus, as sent
		if l := k.ok(t, "GET", "/monitors", nil)["monitors"].([]any); len(l) != 3 {
			t.Fatalf("monitors = %v", l)
		}
		k.fail(t, 22008, "GET", "/monitors/10.9.9.9/6666", nil)
		k.fail(t, wire.CodeInvalidParam, "GET", "/monitors/10.9.9.9/port", nil)
		k.ok(t, "POST", "/neediframe/monitors", map[string]any{"dst": tlDst("10.9.9.9", 6000)})
		k.fail(t, 28513, "POST", "/neediframe/monitors", map[string]any{"dst": tlDst("10.9.9.9", 6666)})

		// Heartbeats keep 6000 alive; 7000 and 6002 get none.
		env.Advance(t, 20*time.Second)
		k.ok(t, "POST", "/monitors_heartbeat", tlBeat(tlDst("10.9.9.9", 6000), tlDst("10.1.1.1", 1)))
		env.Advance(t, 9*time.Second)
		if l := k.ok(t, "GET", "/monitors", nil)["monitors"].([]any); len(l) != 3 {
			t.Fatalf("monitors at 29 s = %v", l)
		}
		env.Advance(t, time.Second) // 30 s after the start of 6002 and 7000
		if l := k.ok(t, "GET", "/monitors", nil)["monitors"].([]any); len(l) != 1 {
			t.Fatalf("monitors at 30 s = %v, want 6000 only", l)
		}
		k.fail(t, 22008, "GET", "/monitors/10.9.9.10/7000", nil)
		k.fail(t, 28513, "POST", "/neediframe/monitors", map[string]any{"dst": tlDst("10.9.9.10", 7000)})
		k.fail(t, 22008, "POST", "/monitors_heartbeat", tlBeat(tlDst("10.9.9.10", 7000)))
		// The server's tick (env.Advance) already swept the silent ones.
		if n := len(k.doc(t)["vc_monitors"].([]any)); n != 1 {
			t.Fatalf("stored monitors after the tick = %d, want 1", n)
		}
		node.sweep(t)
		if n := len(k.doc(t)["vc_monitors"].([]any)); n != 1 {
			t.Fatalf("stored monitors after the sweep = %d, want 1", n)
		}
		env.Advance(t, 20*time.Second) // 30 s after the heartbeat
		tlEq(t, "monitors after the timeout", k.ok(t, "GET", "/monitors", nil)["monitors"], []any{})

		// Stop; a restart to the same destination replaces; leaving.
		k.ok(t, "POST", "/monitors", tlMonitor(0, "1", "10.9.9.9", 6000))
		k.ok(t, "POST", "/monitors", tlMonitor(1, "1", "10.9.9.9", 6000))
		tlEq(t, "replaced", k.ok(t, "GET", "/monitors/10.9.9.9/6000", nil)["mode"], 1)
		k.ok(t, "DELETE", "/monitors/10.9.9.9/6000", nil)
		k.fail(t, 22008, "DELETE", "/monitors/10.9.9.9/6000", nil)
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("GET", k.path("/monitors"), nil), wire.CodeConfNotFound)
		k.ok(t, "POST", "/monitors", tlMonitor(0, "1", "10.9.9.9", 6000))
		k.ok(t, "POST", "/monitors", tlMonitor(0, "2", "10.9.9.9", 6002))
		node.hangup(t, k, "2")
		l := k.ok(t, "GET", "/monitors", nil)["monitors"].([]any)
		if len(l) != 1 || l[0].(map[string]any)["dst"].(map[string]any)["port"] != float64(6000) {
			t.Fatalf("monitors after 2 left = %v", l)
		}
	})
}
