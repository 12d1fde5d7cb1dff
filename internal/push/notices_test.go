package push_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// State the clock changes and failures that happen without a request
// are published when they happen: the conference poll's next member (fake
// clock and Tick), a playback whose program was deleted (reference 07
// "放像异常通知"), a viewing whose source left ("终端选看失败通知") and
// an alarm about a conference's terminal ("系统告警通知").
func TestTimeAndFailureNotices(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		b := newBx(t, env, admin.Cookie)
		b.mustHandshake()
		if err := env.Store.PutDirectoryEntry(context.Background(), store.DirectoryEntry{Account: "0512110000002",
			DomainMoid: b.domain, E164: "0512110000002", Behaviour: "offline"}); err != nil {
			t.Fatal(err)
		}
		base := "/userdomains/" + b.domain + "/confs"
		b.mustSubscribe(base + "/**")
		id := startConf(t, env, admin, "timeline")
		vc := "/api/v1/vc/confs/" + id
		ch := base + "/" + id
		do := func(method, path string, p msg) map[string]any {
			t.Helper()
			return testserver.MustOK(t, admin.Do(method, path, testserver.Params(t, p)))
		}
		get := func(path string) msg { return without(testserver.MustOK(t, admin.Do("GET", vc+path, nil)), "success") }

		// The poll moves to terminal 2 when terminal 1's 5 seconds are up.
		do("PUT", vc+"/poll", msg{"mode": 1, "num": 0, "keep_time": 5, "members": []any{msg{"mt_id": "1"}, msg{"mt_id": "2"}}})
		first := b.next(ch+"/poll", nil)["data"].(msg)
		sameJSON(t, "polled first", first["cur_poll_mt"], msg{"mt_id": "1"})
		env.Advance(t, 5*time.Second)
		second := b.next(ch+"/poll", nil)["data"].(msg)
		sameJSON(t, "poll after 5 s", without(second, "method"), get("/poll"))
		sameJSON(t, "polled next", second["cur_poll_mt"], msg{"mt_id": "2"})
		do("PUT", vc+"/poll/state", msg{"value": 0, "mode": 1})
		sameJSON(t, "poll stopped", b.next(ch+"/poll", nil)["data"], msg{"method": "delete"})

		// A playback whose program is deleted stops with a notification.
		vrs := testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"].(string)
		recID := do("POST", vc+"/recorders", msg{"video_name": "weekly", "recorder_type": 1, "publish_mode": 0, "watermark": 1,
			"anonymous": 0, "recorder_mode": 1, "main_stream": 1, "dual_stream": 0, "vrs_id": vrs, "members": []any{}})["rec_id"].(string)
		env.Advance(t, 30*time.Second)
		do("DELETE", vc+"/recorders/"+recID, msg{"recorder_mode": 1})
		prg, _ := strconv.Atoi(recID)
		do("PUT", vc+"/playback", msg{"play_dual_stream": 0, "file_name": "weekly.asf", "file_id": prg, "vrs_id": vrs})
		env.Advance(t, 5*time.Second)
		if got := get("/playback"); got["state"] != float64(2) {
			t.Fatalf("playback = %v", got)
		}
		del := do("POST", "/api/v2/vrs/program?_method=DELETE", msg{"prgdelpckinfo": []any{msg{"prggid": prg, "enforcedel": 1}}})
		sameJSON(t, "program deleted", del["prgdelpckinfo"], []any{msg{"prggid": prg, "delerrno": 0}})
		env.Advance(t, time.Second)
		sameJSON(t, "playback notification", b.next(ch+"/playback", nil)["data"], msg{"method": "notify", "error_code": 24106})
		if got := get("/playback"); got["state"] != float64(0) {
			t.Errorf("playback after its program went = %v", got)
		}

		// Terminal 2 views terminal 1, a monitor and a TV wall show it; it
		// is removed: the viewing and the monitor end (delete) and their
		// failures are notified, the wall stays empty and its failure is
		// notified.
		do("POST", vc+"/inspections", msg{"mode": 1, "src": msg{"type": 1, "mt_id": "1"}, "dst": msg{"mt_id": "2"}})
		b.next(ch+"/inspections/2/1", nil)
		do("POST", vc+"/monitors", msg{"mode": 0, "src": msg{"type": 1, "mt_id": "1", "mt_chn_idx": 1},
			"video_format": msg{"format": 4, "resolution": 12, "frame": 25, "bitrate": 2048}, "dst": msg{"ip": "10.9.9.9", "port": 6000}})
		b.next(ch+"/monitor/10.9.9.9/6000", nil)
		do("POST", vc+"/hdus", msg{"hdu_id": "1_0", "mode": 1, "show_mt_name": 1,
			"specific": msg{"member_type": "1", "mt_id": "1", "mt_chn_idx": 0}})
		b.next(ch+"/hdus/1_0", nil)
		do("POST", vc+"/mts?_method=DELETE", msg{"mts": []any{msg{"mt_id": "1"}}})
		var seen []msg
		firstOf := func(channel, method string) (int, msg) { // the index in seen of channel's first message of method
			for {
				for i, m := range seen {
					if d, _ := m["data"].(msg); m["channel"] == channel && d["method"] == method {
						return i, d
					}
				}
				b.next(channel, &seen)
			}
		}
		ended, _ := firstOf(ch+"/inspections/2/1", "delete")
		failed, note := firstOf(ch+"/inspections/2/1", "notify")
		if ended > failed {
			t.Errorf("viewing: notification before its delete: %v", seen)
		}
		sameJSON(t, "viewing failed", note, msg{"method": "notify", "error_code": 20401, "src": msg{"type": 1, "mt_id": "1"}})
		ended, _ = firstOf(ch+"/monitor/10.9.9.9/6000", "delete")
		failed, note = firstOf(ch+"/monitor/10.9.9.9/6000", "notify")
		if ended > failed {
			t.Errorf("monitor: notification before its delete: %v", seen)
		}
		sameJSON(t, "monitor failed", note, msg{"method": "notify", "error_code": 20401, "src": msg{"type": 1, "mt_id": "1"}})
		_, note = firstOf(ch+"/hdus/1_0", "notify")
		sameJSON(t, "TV wall failed", note, msg{"method": "notify", "error_code": 20401, "mode": 1})
		if got := get("/hdus/1_0"); got["specific"].(msg)["mt_id"] != "" {
			t.Errorf("TV wall after its terminal left = %v", got)
		}

		// Three failed calls raise the terminal's alarm, notified once on
		// the conference's alarm channel.
		do("POST", vc+"/mts", msg{"mts": []any{msg{"account": "0512110000002", "account_type": 5, "bitrate": 1024, "protocol": 0, "call_mode": 2}}})
		for i := 0; i < 9; i++ { // calls 20 s apart
			env.Advance(t, 10*time.Second)
		}
		sameJSON(t, "alarm", b.next(ch+"/alarm", nil)["data"], msg{"method": "notify", "error_code": 20401})
		env.Advance(t, 10*time.Second)
		for _, m := range data(b.connect(0)) {
			if m["channel"] == ch+"/alarm" {
				t.Errorf("alarm notified again: %v", m)
			}
		}
	})
}
