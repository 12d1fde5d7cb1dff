package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Every endpoint of polls, recording, playback, monitors and selective
// viewing answers 12103 for an unknown conference and for another
// domain's, and changes nothing there.
func TestTimelineUnknownConference(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 2, 0)
	bob := env.Account(t, "other", "bob", true)
	poll := map[string]any{"mode": 1, "num": 0, "keep_time": 5, "members": tlMembers("1")}
	chair := map[string]any{"mode": 10, "num": 0, "keep_time": 5, "members": tlMembers("1")}
	upload := map[string]any{"num": 0, "keep_time": 5, "members": tlMembers("1")}
	view := map[string]any{"mode": 1, "src": map[string]any{"type": 1, "mt_id": "1"}, "dst": map[string]any{"mt_id": "2"}}
	for _, tc := range []struct {
		method, suffix string
		params         map[string]any
	}{
		{"GET", "/poll", nil}, {"PUT", "/poll", poll}, {"PUT", "/poll/state", map[string]any{"value": 0, "mode": 1}},
		{"GET", "/upload_poll", nil}, {"POST", "/upload_poll", upload}, {"PUT", "/upload_poll", upload},
		{"PUT", "/upload_poll/state", map[string]any{"value": 0}},
		{"GET", "/chairman_poll", nil}, {"POST", "/chairman_poll", chair}, {"PUT", "/chairman_poll", chair},
		{"PUT", "/chairman_poll/state", map[string]any{"value": 0, "mode": 10}},
		{"POST", "/recorders", tlRec("x", "", 1)}, {"GET", "/recorders", nil}, {"GET", "/recorders/1", nil},
		{"PUT", "/recorders/1/state", map[string]any{"value": 1, "recorder_mode": 1}},
		{"DELETE", "/recorders/1", map[string]any{"recorder_mode": 1}},
		{"GET", "/playback", nil}, {"PUT", "/playback", tlPlay("1", "")}, {"POST", "/playback", tlPlay("1", "")}, {"PUT", "/playback/state", map[string]any{"value": 0}},
		{"PUT", "/playback/current_progress", map[string]any{"current_progress": 0}},
		{"GET", "/monitors", nil}, {"POST", "/monitors", tlMonitor(0, "1", "10.9.9.9", 6000)},
		{"GET", "/monitors/10.9.9.9/6000", nil}, {"DELETE", "/monitors/10.9.9.9/6000", nil},
		{"POST", "/monitors_heartbeat", tlBeat(tlDst("10.9.9.9", 6000))},
		{"POST", "/neediframe/monitors", map[string]any{"dst": tlDst("10.9.9.9", 6000)}},
		{"GET", "/inspections", nil}, {"POST", "/inspections", view}, {"DELETE", "/inspections/2/1", nil},
		{"GET", "/inspection_channels", nil}, {"POST", "/inspection_channels", view}, {"DELETE", "/inspection_channels/2/1/0", nil},
	} {
		unknown := tlConf{env: env, c: admin, id: "999999", domain: k.domain}
		unknown.fail(t, wire.CodeConfNotFound, tc.method, tc.suffix, tc.params)
		other := tlConf{env: env, c: bob, id: k.id, domain: k.domain}
		other.fail(t, wire.CodeConfNotFound, tc.method, tc.suffix, tc.params)
	}
	for _, key := range []string{"vc_poll", "vc_upload_poll", "vc_chairman_poll", "vc_recorders", "vc_playback", "vc_monitors", "vc_inspections"} {
		if v, has := k.doc(t)[key]; has {
			t.Errorf("%s stored by another domain's requests: %v", key, v)
		}
	}
}
