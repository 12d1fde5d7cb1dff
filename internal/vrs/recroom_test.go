package vrs_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A recording room registers its number; a conference that calls it
// occupies it; its recording is a program whose length and size follow
// the clock minus the pauses, broadcast live while the room is live, and
// finished (and published, with bpublish) when it stops.
func TestRecordingRoom(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		v := newVR(t, env, admin)
		room := v.addRecRoom("board-rec", "0512110000077", 2, map[string]any{"bpublish": 1})

		st := v.recRoomState(room)
		eq(t, "idle room", []any{st["roomstate"], st["recstate"], st["lcaststate"], st["gkstate"], st["encmode"], st["recobj"]},
			[]any{0, 0, 0, 1, 0, ""})
		cfg := st["roomcfg"].(map[string]any)
		eq(t, "roomcfg", []any{cfg["roomid"], cfg["roomname"], cfg["roomno"], cfg["roomtype"], cfg["bpublish"], cfg["createtime"]},
			[]any{num(room), "board-rec", "0512110000077", 2, 1, env.Clock.Now().Unix()})

		// A conference calls the room's number: the room answers and is occupied.
		confID := conf(t, env, admin, "board meeting", 1024, "0512110000077")
		st = v.recRoomState(room)
		eq(t, "occupied", []any{st["roomstate"], st["recobj"], st["mte164"], st["encmode"], st["authmode"]},
			[]any{1, "board meeting", confID, 1, 1})
		eq(t, "detail", st["detail"], []any{map[string]any{"vformat": 106, "vwidth": 1920, "vheight": 1080, "vframe": 30}})

		// Record 60 s, pause 30 s, record 15 s more.
		start := env.Clock.Now()
		v.ok("PUT", "/recroom/"+room+"/startrec", nil)
		v.fail(24206, "PUT", "/recroom/"+room+"/startrec", nil)
		v.fail(24206, "PUT", "/recroom/"+room+"/resumerec", nil)
		env.Advance(t, 60*time.Second)
		ps := v.programs(nil)
		if len(ps) != 1 {
			t.Fatalf("programs while recording: %v", ps)
		}
		p := ps[0]
		gid := num(p["prggid"])
		wantAlias := "board-rec-" + start.Format("20060102150405") + "000"
		eq(t, "program while recording", []any{p["prgalias"], p["prgallduration"], p["prgallsize"], p["prgstate"], p["createtime"]},
			[]any{wantAlias, 60, 60 * 1024 * 1000 / 8, 0, start.Unix()})
		st = v.recRoomState(room)
		eq(t, "recording", []any{st["recstate"], st["recelapse"], st["prgname"]}, []any{1, 60, wantAlias + ".asf"})

		v.ok("PUT", "/recroom/"+room+"/pauserec", nil)
		v.fail(24206, "PUT", "/recroom/"+room+"/pauserec", nil)
		env.Advance(t, 30*time.Second)
		eq(t, "paused length", v.program(gid)["prgallduration"], 60)
		eq(t, "paused state", v.recRoomState(room)["recstate"], 2)
		v.ok("PUT", "/recroom/"+room+"/resumerec", nil)

		// Live while recording: listed among the live rooms.
		v.ok("PUT", "/recroom/"+room+"/startlive", nil)
		v.fail(24206, "PUT", "/recroom/"+room+"/startlive", nil)
		env.Advance(t, 15*time.Second)
		eq(t, "length after resuming", v.program(gid)["prgallduration"], 75)
		lives := v.ok("GET", "/liveroom", nil)
		eq(t, "live count", lives["roomcount"], 1)
		live := lives["roomstate"].([]any)[0].(map[string]any)
		eq(t, "live room", []any{live["roomid"], live["roomidstr"], live["roomname"], live["prgid"], live["elapse"], live["mte164"]},
			[]any{num(room), room, "board-rec", gid, 15, confID})
		eq(t, "ASF lives", v.ok("GET", "/liveroom", map[string]any{"livetype": 1})["roomcount"], 0)
		eq(t, "all lives", v.ok("GET", "/liveroom", map[string]any{"livetype": 2})["roomcount"], 1)
		st = v.recRoomState(room)
		eq(t, "live state", []any{st["lcaststate"], st["lcastelapse"], st["recelapse"], st["lcastname"]}, []any{1, 15, 105, "board-rec"})

		// A busy room cannot change or go.
		v.fail(24206, "PUT", "/recroom/"+room, recRoom("board-rec", "0512110000077", 2, nil))
		v.fail(24206, "DELETE", "/recroom/"+room, nil)

		v.ok("PUT", "/recroom/"+room+"/stoplive", nil)
		v.fail(24206, "PUT", "/recroom/"+room+"/stoplive", nil)
		eq(t, "lives after stoplive", v.ok("GET", "/liveroom", nil)["roomcount"], 0)
		v.ok("PUT", "/recroom/"+room+"/stoprec", nil)
		v.fail(24206, "PUT", "/recroom/"+room+"/stoprec", nil)
		env.Advance(t, time.Minute)
		p = v.program(gid)
		eq(t, "finished program", []any{p["prgallduration"], p["prgallsize"], p["prgstate"], p["issuetime"]},
			[]any{75, 75 * 1024 * 1000 / 8, 1, start.Add(105 * time.Second).Unix()})
		d := p["prgdetail"].([]any)[0].(map[string]any)
		eq(t, "file", []any{d["prgid"], d["prgtype"], d["prgname"], d["prgduration"], d["relativepath"]},
			[]any{gid, "asf", wantAlias + ".asf", 75, "/uploadmedia/"})
		st = v.recRoomState(room)
		eq(t, "room after the recording", []any{st["recstate"], st["roomstate"], st["prgname"]}, []any{0, 1, ""})

		// The conference ends: the room is idle.
		testserver.MustOK(t, admin.Do("DELETE", "/api/v1/mc/confs/"+confID, nil))
		eq(t, "room after the conference", v.recRoomState(room)["roomstate"], 0)
	})
}

// Room types limit what a room does; rooms are checked, unique, limited
// and the administrator's.
func TestRecordingRoomErrors(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	v := newVR(t, env, admin)
	recOnly := v.addRecRoom("rec-only", "100", 0, nil)
	liveOnly := v.addRecRoom("live-only", "101", 1, nil)
	v.fail(24206, "PUT", "/recroom/"+recOnly+"/startlive", nil)
	v.fail(24206, "PUT", "/recroom/"+liveOnly+"/startrec", nil)
	v.ok("PUT", "/recroom/"+liveOnly+"/startlive", nil)
	env.Advance(t, 10*time.Second)
	st := v.recRoomState(liveOnly)
	eq(t, "live-only room", []any{st["recstate"], st["lcaststate"], st["recelapse"], st["lcastelapse"], st["roomstate"]}, []any{0, 1, 10, 10, 1})
	eq(t, "a live without recording makes no program", len(v.programs(nil)), 0)
	v.ok("PUT", "/recroom/"+liveOnly+"/stoplive", nil)

	v.fail(24203, "PUT", "/recroom/999/startrec", nil)
	v.fail(24203, "PUT", "/recroom/999", recRoom("x", "102", 0, nil))
	v.fail(24203, "DELETE", "/recroom/999", nil)
	v.fail(24202, "POST", "/recroom", recRoom("rec-only", "102", 0, nil))
	v.fail(24202, "POST", "/recroom", recRoom("other", "100", 0, nil))
	v.fail(24202, "POST", "/playroom", playRoom("rec-only", "103", 1))
	v.fail(24103, "POST", "/recroom", recRoom("bad", "104", 0, map[string]any{"preprgname": "a/b"}))
	v.fail(90400, "POST", "/recroom", recRoom("bad", "12a", 0, nil))
	v.fail(90400, "POST", "/recroom", recRoom("bad", "105", 5, nil))
	v.fail(90400, "POST", "/recroom", map[string]any{"room": map[string]any{"roomname": "x"}})

	// Modify: the number moves in the directory.
	v.ok("PUT", "/recroom/"+recOnly, recRoom("rec-only-2", "110", 0, nil))
	st = v.recRoomState(recOnly)
	eq(t, "modified", []any{st["roomcfg"].(map[string]any)["roomname"], st["roomcfg"].(map[string]any)["roomno"]}, []any{"rec-only-2", "110"})
	v.ok("POST", "/recroom", recRoom("reuses-100", "100", 0, nil)) // the old number is free
	v.ok("DELETE", "/recroom/"+recOnly, nil)
	eq(t, "rooms after the delete", v.ok("GET", "/recroom", nil)["roomcount"], 2)

	// Only administrators change rooms; everyone of the domain reads them.
	user := newVR(t, env, env.Account(t, "default", "dave", false))
	user.fail(9, "POST", "/recroom", recRoom("mine", "120", 0, nil))
	user.fail(9, "PUT", "/recroom/"+liveOnly+"/startlive", nil)
	eq(t, "read by a user", user.ok("GET", "/recroom", nil)["roomcount"], 2)

	// Another domain sees none of them and cannot touch them.
	bob := newVR(t, env, env.Account(t, "other", "bob", true))
	eq(t, "other domain's rooms", bob.ok("GET", "/recroom", nil)["roomcount"], 0)
	bob.fail(24203, "PUT", "/recroom/"+liveOnly+"/startlive", nil)
	bob.fail(24203, "DELETE", "/recroom/"+liveOnly, nil)
	bob.fail(24202, "POST", "/recroom", recRoom("any", "101", 0, nil)) // numbers are the platform's
	eq(t, "filter by another domain", v.ok("GET", "/recroom", map[string]any{"userdomainmoid": "someone-else"})["roomcount"], 0)

	// At most 32 recording rooms a domain (A5 250).
	for i := 3; i <= 32; i++ {
		v.ok("POST", "/recroom", recRoom(fmt.Sprint("room", i), fmt.Sprint(2000+i), 0, nil))
	}
	v.fail(250, "POST", "/recroom", recRoom("room33", "3000", 0, nil))
	// Paging: 32 rooms, 20 a page by default.
	eq(t, "first page", len(v.ok("GET", "/recroom", nil)["roomstate"].([]any)), 20)
	page := v.ok("GET", "/recroom", map[string]any{"pageid": 2})
	eq(t, "second page", []any{len(page["roomstate"].([]any)), page["pageid"], page["roomcount"]}, []any{12, 2, 32})
	eq(t, "search", v.ok("GET", "/recroom", map[string]any{"includename": "ROOM3"})["roomcount"], 4) // room3, room30..32

	// At most 16 recordings at once on the platform (A5 24102).
	list := v.ok("GET", "/recroom", map[string]any{"prgs1page": 100})["roomstate"].([]any)
	started := 0
	for _, x := range list {
		cfg := x.(map[string]any)["roomcfg"].(map[string]any)
		if num(cfg["roomtype"]) == 1 {
			continue
		}
		r := v.do("PUT", fmt.Sprintf("/recroom/%d/startrec", num(cfg["roomid"])), nil)
		if started < 16 {
			testserver.MustOK(t, r)
			started++
		} else {
			testserver.MustFail(t, r, 24102)
			break
		}
	}
}
