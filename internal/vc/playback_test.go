package vc_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// tlRecord records the conference for d and returns the program's id.
func tlRecord(t *testing.T, k tlConf, name, vrsID string, d time.Duration) string {
	t.Helper()
	id := k.ok(t, "POST", "/recorders", tlRec(name, vrsID, 1))["rec_id"].(string)
	k.env.Advance(t, d)
	k.ok(t, "DELETE", "/recorders/"+id, map[string]any{"recorder_mode": 1})
	return id
}

func tlPlay(fileID, vrsID string) map[string]any {
	n, _ := strconv.Atoi(fileID)
	return map[string]any{"play_dual_stream": 1, "file_name": "weekly.asf", "file_id": n, "vrs_id": vrsID}
}

func tlWantPlay(t *testing.T, k tlConf, state, progress, total int) {
	t.Helper()
	got := k.ok(t, "GET", "/playback", nil)
	g := []any{got["state"], got["current_progress"], got["total_time"]}
	tlEq(t, "playback state, current_progress, total_time", g, []any{state, progress, total})
}

// Recording, then playback of the program: the position follows the
// clock, pauses, moves, and the playback ends at the program's length.
func TestRecordThenPlayback(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 2, 0)
		vrsID := tlVRS(t, admin)

		tlEq(t, "no playback", k.ok(t, "GET", "/playback", nil), map[string]any{"success": 1, "file_name": "", "file_id": 0,
			"state": 0, "current_progress": 0, "total_time": 0})
		k.fail(t, 20805, "PUT", "/playback/state", map[string]any{"value": 1})
		k.fail(t, 20805, "PUT", "/playback/current_progress", map[string]any{"current_progress": 1})

		prg := tlRecord(t, k, "weekly", vrsID, 40*time.Second)
		k.fail(t, 24106, "PUT", "/playback", tlPlay("424242", vrsID))
		k.fail(t, 24104, "PUT", "/playback", tlPlay(prg, "54cab654-076c-87ed-9c67-19065cc787f5"))
		testserver.MustFail(t, admin.Do("PUT", "/api/v1/vc/confs/999999/playback", testserver.Params(t, tlPlay(prg, vrsID))), wire.CodeConfNotFound)

		// Another domain has neither the conference nor the program.
		bob := env.Account(t, "other", "bob", true)
		kb := tlStart(t, env, bob, 1, 0)
		kb.fail(t, 24106, "PUT", "/playback", tlPlay(prg, tlVRS(t, bob)))
		testserver.MustFail(t, bob.Do("GET", k.path("/playback"), nil), wire.CodeConfNotFound)

		recID := k.ok(t, "PUT", "/playback", tlPlay(prg, vrsID))["rec_id"].(string)
		if recID == "" || recID == prg {
			t.Fatalf("playback rec_id %q", recID)
		}
		got := k.ok(t, "GET", "/playback", nil)
		tlEq(t, "file", []any{got["file_name"], got["file_id"]}, []any{"weekly.asf", tlPlay(prg, "")["file_id"]})
		tlWantPlay(t, k, 2, 0, 40)
		k.fail(t, 20804, "PUT", "/poll", map[string]any{"mode": 1, "num": 0, "keep_time": 5, "members": tlMembers("1")})

		env.Advance(t, 10*time.Second)
		tlWantPlay(t, k, 2, 10, 40)
		k.fail(t, 20806, "PUT", "/playback/state", map[string]any{"value": 2})
		k.ok(t, "PUT", "/playback/state", map[string]any{"value": 1})
		k.ok(t, "PUT", "/playback/state", map[string]any{"value": 1})
		env.Advance(t, 10*time.Second)
		tlWantPlay(t, k, 1, 10, 40)
		k.ok(t, "PUT", "/playback/current_progress", map[string]any{"current_progress": 20})
		tlWantPlay(t, k, 1, 20, 40)
		k.ok(t, "PUT", "/playback/state", map[string]any{"value": 2})
		env.Advance(t, 5*time.Second)
		tlWantPlay(t, k, 2, 25, 40)
		for _, bad := range []int{41, -1} {
			k.fail(t, wire.CodeInvalidParam, "PUT", "/playback/current_progress", map[string]any{"current_progress": bad})
		}
		k.ok(t, "PUT", "/playback/current_progress", map[string]any{"current_progress": 35})
		env.Advance(t, 4*time.Second)
		tlWantPlay(t, k, 2, 39, 40)
		env.Advance(t, time.Second) // the end of the program
		tlWantPlay(t, k, 0, 40, 40)
		k.fail(t, 20805, "PUT", "/playback/state", map[string]any{"value": 0})
		k.ok(t, "PUT", "/poll", map[string]any{"mode": 1, "num": 0, "keep_time": 5, "members": tlMembers("1")})

		// POST starts too; a stop keeps the position; the sweep stops a
		// playback that ended.
		k.ok(t, "POST", "/playback", tlPlay(prg, vrsID))
		env.Advance(t, 7*time.Second)
		k.ok(t, "PUT", "/playback/state", map[string]any{"value": 0})
		tlWantPlay(t, k, 0, 7, 40)
		k.ok(t, "POST", "/playback", tlPlay(prg, vrsID))
		env.Advance(t, time.Minute)
		tlWantPlay(t, k, 0, 40, 40)
		node := tlSecondNode(env)
		// The server's tick (env.Advance) already stopped it; a sweep on a
		// second node changes nothing more.
		tlEq(t, "stored state after the tick", k.doc(t)["vc_playback"].(map[string]any)["state"], 0)
		node.sweep(t)
		tlEq(t, "stored state after the sweep", k.doc(t)["vc_playback"].(map[string]any)["state"], 0)
		tlWantPlay(t, k, 0, 40, 40)
	})
}

// Release differences: rec_id is an integer before 5.1.0.2.1 in the
// recording and playback replies; playback starts with PUT from 5.0.0.4.1
// and with POST only from 5.1.0.2.0.
func TestRecordingReleases(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.1.0.2.0"})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 1, 0)
	rec := map[string]any{"video_name": "old", "recorder_type": 1, "publish_mode": 0, "anonymous": 0,
		"recorder_mode": 1, "main_stream": 1, "dual_stream": 0}
	id, ok := k.ok(t, "POST", "/recorders", rec)["rec_id"].(float64)
	if !ok || id <= 0 {
		t.Fatalf("rec_id at 5.1.0.2.0 is not a number")
	}
	sid := strconv.Itoa(int(id))
	list := k.ok(t, "GET", "/recorders", nil)["recorders"].([]any)
	tlEq(t, "rec_id of the list", list[0].(map[string]any)["rec_id"], id)
	env.Advance(t, 9*time.Second)
	tlEq(t, "status by the integer id", k.ok(t, "GET", "/recorders/"+sid, nil)["current_progress"], 9)
	k.ok(t, "DELETE", "/recorders/"+sid, map[string]any{"recorder_mode": 1})
	play := map[string]any{"play_dual_stream": 0, "file_name": "old.asf", "file_id": int(id)}
	pid, ok := k.ok(t, "POST", "/playback", play)["rec_id"].(float64)
	if !ok || pid <= 0 {
		t.Fatalf("playback rec_id at 5.1.0.2.0 is not a number")
	}
	tlWantPlay(t, k, 2, 0, 9)

	old := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.0.0.4.1"})
	ko := tlStart(t, old, old.LoggedIn(t), 1, 0)
	if got := ko.ok(t, "POST", "/recorders", rec); got["rec_id"] != nil {
		t.Errorf("the recording reply has rec_id at 5.0.0.4.1: %v", got)
	}
	id2 := ko.ok(t, "GET", "/recorders", nil)["recorders"].([]any)[0].(map[string]any)["rec_id"]
	sid2 := strconv.Itoa(int(id2.(float64)))
	old.Advance(t, 5*time.Second)
	ko.ok(t, "DELETE", "/recorders/"+sid2, map[string]any{"recorder_mode": 1})
	play["file_id"] = int(id2.(float64))
	ko.fail(t, wire.CodeNotSupported, "POST", "/playback", play)
	got := ko.ok(t, "PUT", "/playback", play)
	if _, has := got["rec_id"]; has {
		t.Errorf("the playback reply has rec_id at 5.0.0.4.1: %v", got)
	}
	tlWantPlay(t, ko, 2, 0, 5)
}
