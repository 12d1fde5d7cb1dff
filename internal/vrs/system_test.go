package vrs_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// vcRec starts a recording of a conference through vc and returns its rec_id.
func vcRec(t *testing.T, c *testserver.Client, confID, name string, mode int) string {
	t.Helper()
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	p := map[string]any{"video_name": name, "recorder_type": 1, "publish_mode": 1, "watermark": 1, "anonymous": 0,
		"recorder_mode": mode, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID}
	return testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+confID+"/recorders", testserver.Params(t, p)))["rec_id"].(string)
}

// One recording system: a conference recorder of vc and a recording room
// both make programs of the domain; a playback room plays vc's program,
// and vc's playback plays the room's.
func TestOneRecordingSystem(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		v := newVR(t, env, admin)
		confID := conf(t, env, admin, "weekly", 2048, "10.0.0.1", "10.0.0.2")

		// A vc recording that also broadcasts is a live room while it runs.
		recID := vcRec(t, admin, confID, "weekly-rec", 3)
		env.Advance(t, 40*time.Second)
		lives := v.ok("GET", "/liveroom", nil)
		eq(t, "vc live", lives["roomcount"], 1)
		live := lives["roomstate"].([]any)[0].(map[string]any)
		eq(t, "vc live room", []any{live["roomidstr"], live["roomname"], live["lcastpoint"], live["mte164"], live["elapse"]},
			[]any{recID, "weekly-rec", "weekly", confID, 40})
		testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+confID+"/recorders/"+recID+"?_method=DELETE",
			testserver.Params(t, map[string]any{"recorder_mode": 3})))
		eq(t, "lives after the stop", v.ok("GET", "/liveroom", nil)["roomcount"], 0)

		ps := v.programs(nil)
		if len(ps) != 1 {
			t.Fatalf("programs = %v, want vc's", ps)
		}
		vcProgram := ps[0]
		vrsID := testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
		eq(t, "vc's program", []any{fmt.Sprint(vcProgram["prggid"]), vcProgram["prgalias"], vcProgram["prgallduration"],
			vcProgram["prgallsize"], vcProgram["prgstate"], vcProgram["prgwatermark"], vcProgram["vrsmoid"]},
			[]any{recID, "weekly-rec", 40, 40 * 2048 * 1000 / 8, 1, 1, vrsID})
		eq(t, "vc's program is local", len(v.programs(map[string]any{"localvrs": 1})), 1)

		// A recording room's program: numbered apart from vc's recordings.
		room := v.addRecRoom("studio", "400", 0, nil)
		gid := v.record(room, 30*time.Second)
		if fmt.Sprint(gid) == recID {
			t.Fatalf("the room's program and vc's recording share the id %d", gid)
		}
		// vc plays it (file_id = prggid) and knows its length.
		pb := map[string]any{"play_dual_stream": 0, "file_name": "studio", "file_id": gid, "vrs_id": vrsID}
		testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+confID+"/playback", testserver.Params(t, pb)))
		env.Advance(t, 5*time.Second)
		st := testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/confs/"+confID+"/playback", nil))
		eq(t, "vc playback of the room's program", []any{st["file_id"], st["total_time"], st["current_progress"]}, []any{gid, 30, 5})
		// vc sees the room's program names: the same video_name is taken.
		name := v.program(gid)["prgalias"].(string)
		r := admin.Do("POST", "/api/v1/vc/confs/"+confID+"/recorders", testserver.Params(t, map[string]any{
			"video_name": name, "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0,
			"recorder_mode": 1, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID}))
		testserver.MustFail(t, r, 24105)

		// A playback room plays vc's program to its end.
		vcGID := num(vcProgram["prggid"])
		play := fmt.Sprint(num(v.ok("POST", "/playroom", playRoom("player", "401", vcGID))["roomid"]))
		playState := func() map[string]any {
			l := v.ok("GET", "/playroom", map[string]any{"roomid": play})["roomstate"].([]any)
			return l[0].(map[string]any)
		}
		s := playState()
		eq(t, "idle player", []any{s["playstate"], s["roomstate"], s["elapse"], s["gkstate"]}, []any{0, 0, 0, 1})
		v.ok("PUT", "/playroom/"+play+"/startplay", nil)
		v.fail(24206, "PUT", "/playroom/"+play+"/startplay", nil)
		v.fail(24206, "PUT", "/playroom/"+play+"/resumeplay", nil)
		env.Advance(t, 10*time.Second)
		s = playState()
		eq(t, "playing", []any{s["playstate"], s["roomstate"], s["elapse"], s["duraion"], s["encmode"]}, []any{1, 1, 10, 40, 1})
		v.ok("PUT", "/playroom/"+play+"/pauseplay", nil)
		v.fail(24206, "PUT", "/playroom/"+play+"/pauseplay", nil)
		env.Advance(t, 100*time.Second)
		eq(t, "paused", []any{playState()["playstate"], playState()["elapse"]}, []any{2, 10})
		// Deleting a program being played needs enforcedel.
		eq(t, "delete while played", v.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{
			map[string]any{"prggid": vcGID, "enforcedel": 0}}})["prgdelpckinfo"].([]any)[0].(map[string]any)["delerrno"], 34)
		v.ok("PUT", "/program_release_batch", map[string]any{"info": []any{map[string]any{"prggid": vcGID, "prgstate": 0}}})
		eq(t, "delete while played, unpublished", v.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{
			map[string]any{"prggid": vcGID, "enforcedel": 0}}})["prgdelpckinfo"].([]any)[0].(map[string]any)["delerrno"], 24206)
		v.ok("PUT", "/playroom/"+play+"/resumeplay", nil)
		env.Advance(t, 29*time.Second)
		eq(t, "near the end", playState()["elapse"], 39)
		env.Advance(t, time.Second)
		eq(t, "at the end", []any{playState()["playstate"], playState()["elapse"]}, []any{0, 0})
		v.fail(24206, "PUT", "/playroom/"+play+"/stopplay", nil)
		eq(t, "plays counted", v.program(vcGID)["prgdetail"].([]any)[0].(map[string]any)["vodnum"], 1)
		eq(t, "by popularity", num(v.programs(map[string]any{"orderindex": 7, "desc": 1})[0]["prggid"]), vcGID)

		// Start again, then delete the program with enforcedel: the room stops.
		v.ok("PUT", "/playroom/"+play+"/startplay", nil)
		v.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{map[string]any{"prggid": vcGID, "enforcedel": 1}}})
		eq(t, "stopped by the delete", playState()["playstate"], 0)
		v.fail(24106, "PUT", "/playroom/"+play+"/startplay", nil)

		// Playback room errors.
		v.fail(24106, "POST", "/playroom", playRoom("ghost", "402", 99999))
		v.fail(24203, "PUT", "/playroom/999/startplay", nil)
		v.fail(24202, "POST", "/playroom", playRoom("studio", "403", gid))
		v.ok("PUT", "/playroom/"+play, playRoom("player-2", "404", gid))
		v.ok("PUT", "/playroom/"+play+"/startplay", nil)
		v.fail(24206, "DELETE", "/playroom/"+play, nil)
		v.ok("PUT", "/playroom/"+play+"/stopplay", nil)
		v.ok("DELETE", "/playroom/"+play, nil)
		eq(t, "players", v.ok("GET", "/playroom", nil)["roomcount"], 0)
		bob := newVR(t, env, env.Account(t, "other", "bob", true))
		bob.fail(24106, "POST", "/playroom", playRoom("theirs", "405", gid))
	})
}

// Booked conferences that will broadcast are the reserved live rooms.
func TestReservedLiveRooms(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	v := newVR(t, env, admin)
	book := func(name string, mode int, at time.Time) {
		p := map[string]any{"create_type": 1, "name": name, "bitrate": 1024, "max_join_mt": 8, "duration": 60,
			"x_confer_start_time": at.Format(time.RFC3339), "recorder": map[string]any{"publish_mode": 0, "recorder_mode": mode, "dual_stream": 0, "anonymous": 0},
			"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
		testserver.MustOK(t, admin.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))
	}
	at := env.Clock.Now().Add(2 * time.Hour)
	book("town hall", 3, at)
	book("recorded only", 1, at)
	book("live only", 2, at.Add(time.Hour))
	res := v.ok("GET", "/resroom", nil)
	eq(t, "reserved lives", res, map[string]any{"success": 1, "livecount": 2, "pageid": 1, "liveinfo": []any{
		map[string]any{"confname": "town hall", "starttime": at.Format("2006-01-02 15:04:05"), "encmode": 1},
		map[string]any{"confname": "live only", "starttime": at.Add(time.Hour).Format("2006-01-02 15:04:05"), "encmode": 1},
	}})
	eq(t, "search", v.ok("GET", "/resroom", map[string]any{"includename": "TOWN"})["livecount"], 1)
	eq(t, "page size", len(v.ok("GET", "/resroom", map[string]any{"prgs1page": 1})["liveinfo"].([]any)), 1)
	// Started, the conference is no longer reserved.
	env.Advance(t, 2*time.Hour)
	v = newVR(t, env, env.LoggedIn(t)) // the idle session expired
	eq(t, "after the start", v.ok("GET", "/resroom", nil)["livecount"], 1)
	bob := newVR(t, env, env.Account(t, "other", "bob", true))
	eq(t, "another domain", bob.ok("GET", "/resroom", nil)["livecount"], 0)
}

// The recording server's addresses are the nodes' IPv4 addresses and port.
func TestServerAddresses(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	v := newVR(t, env, env.LoggedIn(t))
	info := v.ok("GET", "/vrsip", nil)["ipinfo"].([]any)
	if len(info) == 0 {
		t.Fatal("no address")
	}
	last := info[len(info)-1].(map[string]any)
	eq(t, "loopback last, local, port 8080", last, map[string]any{"emisp": 7, "ip": 2130706433, "port": 8080})
	// The same addresses through the v1 path and for any account.
	c := env.Account(t, "other", "bob", false)
	got := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/vrsip", url.Values{}))["ipinfo"]
	eq(t, "v1 path", got, info)
}
