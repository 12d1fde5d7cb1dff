package vrs_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Transcoding tasks wait for one of two working places, progress with the
// clock at four times real time, pause and start again, and leave an mp4
// file on their program.
func TestTranscoding(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		v := newVR(t, env, env.LoggedIn(t))
		room := v.addRecRoom("lecture", "500", 0, nil)
		p1, p2, p3 := v.record(room, 40*time.Second), v.record(room, 20*time.Second), v.record(room, 8*time.Second)

		add := func(gid, restype, style, force int) map[string]any {
			return map[string]any{"prggid": gid, "restype": restype, "picmergerstyle": style, "dsttype": 2, "enforcetrans": force}
		}
		res := v.ok("POST", "/transtask", map[string]any{"addparams": []any{add(p1, 1, 0, 0), add(p2, 1, 0, 0), add(p3, 2, 200, 0), add(9999, 1, 0, 0)}})
		errnos := func(l any, key string) []int {
			var out []int
			for _, x := range l.([]any) {
				out = append(out, num(x.(map[string]any)[key]))
			}
			return out
		}
		eq(t, "add results", errnos(res["addreturns"], "adderrno"), []int{0, 0, 0, 32})
		tasks := func(q map[string]any) map[int][2]int { // gid: state, percent
			out := map[int][2]int{}
			for _, x := range v.ok("GET", "/transtask", q)["taskinfo"].([]any) {
				x := x.(map[string]any)
				out[num(x["prggid"])] = [2]int{num(x["state"]), num(x["percent"])}
			}
			return out
		}
		eq(t, "two work, one waits", tasks(nil), map[int][2]int{p1: {2, 0}, p2: {2, 0}, p3: {1, 0}})

		env.Advance(t, 5*time.Second)
		eq(t, "after 5 s", tasks(nil), map[int][2]int{p1: {2, 50}, p2: {5, 100}, p3: {2, 0}})
		eq(t, "finished", tasks(map[string]any{"state": 3}), map[int][2]int{p2: {5, 100}})
		eq(t, "unfinished", tasks(map[string]any{"state": 4}), map[int][2]int{p1: {2, 50}, p3: {2, 0}})
		eq(t, "one program", tasks(map[string]any{"prggid": p1}), map[int][2]int{p1: {2, 50}})
		mp4 := v.programs(map[string]any{"prgtypemask": 2})
		if len(mp4) != 1 || num(mp4[0]["prggid"]) != p2 {
			t.Fatalf("mp4 programs = %v, want %d", mp4, p2)
		}
		files := mp4[0]["prgdetail"].([]any)
		eq(t, "files", []any{len(files), files[1].(map[string]any)["prgtype"], files[1].(map[string]any)["prggindex"]}, []any{2, "mp4", 1})
		if mp4[0]["streamjsonpath"] == "" {
			t.Errorf("a transcoded program has no streamjsonpath")
		}

		// Pause and start again.
		op := func(gid, code int) any {
			return v.ok("PUT", "/transtask", map[string]any{"operateparams": []any{map[string]any{"prggid": gid, "opcode": code}}})["operatereturns"]
		}
		eq(t, "pause", errnos(op(p1, 2), "operrno"), []int{0})
		eq(t, "pause again", errnos(op(p1, 2), "operrno"), []int{24605})
		x := v.ok("GET", "/transtask", map[string]any{"prggid": p1})["taskinfo"].([]any)[0].(map[string]any)
		eq(t, "paused task", []any{x["state"], x["percent"], x["taskerrno"]}, []any{3, 50, 4})
		env.Advance(t, 10*time.Second) // p3 finishes meanwhile
		eq(t, "paused for 10 s", tasks(nil), map[int][2]int{p1: {3, 50}, p2: {5, 100}, p3: {5, 100}})
		eq(t, "start", errnos(op(p1, 1), "operrno"), []int{0})
		eq(t, "start again", errnos(op(p1, 1), "operrno"), []int{24604})
		eq(t, "start a finished one", errnos(op(p2, 1), "operrno"), []int{24602})
		eq(t, "unknown", errnos(op(8888, 3), "operrno"), []int{24603})
		env.Advance(t, 2*time.Second)
		eq(t, "resumed", tasks(nil)[p1], [2]int{2, 70})

		// A program being transcoded is deleted only with enforcedel.
		del := v.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{map[string]any{"prggid": p1, "enforcedel": 0}}})
		eq(t, "delete while transcoding", errnos(del["prgdelpckinfo"], "delerrno"), []int{35})
		env.Advance(t, 3*time.Second)
		eq(t, "all done", tasks(nil), map[int][2]int{p1: {5, 100}, p2: {5, 100}, p3: {5, 100}})

		// Adding again: the same parameters, other ones, or forced.
		res = v.ok("POST", "/transtask", map[string]any{"addparams": []any{add(p2, 1, 0, 0), add(p3, 1, 0, 0)}})
		eq(t, "transcoded already", errnos(res["addreturns"], "adderrno"), []int{24607, 24608})
		res = v.ok("POST", "/transtask", map[string]any{"addparams": []any{add(p3, 1, 0, 1), add(p3, 1, 0, 1)}})
		eq(t, "forced, then exists", errnos(res["addreturns"], "adderrno"), []int{0, 24601})
		eq(t, "restarted", tasks(nil)[p3], [2]int{2, 0})
		eq(t, "cancel", errnos(op(p3, 3), "operrno"), []int{0})
		eq(t, "cancelled", len(tasks(nil)), 2)
		eq(t, "the earlier mp4 file stays", len(v.programs(map[string]any{"prgtypemask": 2})), 3)

		// A program still recording cannot be transcoded.
		v.ok("PUT", "/recroom/"+room+"/startrec", nil)
		var rec int
		for _, p := range v.programs(nil) {
			rec = max(rec, num(p["prggid"]))
		}
		res = v.ok("POST", "/transtask", map[string]any{"addparams": []any{add(rec, 1, 0, 0)}})
		eq(t, "recording", errnos(res["addreturns"], "adderrno"), []int{24206})

		// Sorting and paging.
		l := v.ok("GET", "/transtask", map[string]any{"orderindex": 1, "desc": 1, "prgs1page": 1, "pageid": 2})
		eq(t, "page", []any{l["prgcount"], l["pageid"], len(l["taskinfo"].([]any))}, []any{2, 2, 1})

		// Only administrators; another domain has no tasks.
		user := newVR(t, env, env.Account(t, "default", "gina", false))
		user.fail(9, "POST", "/transtask", map[string]any{"addparams": []any{add(p1, 1, 0, 1)}})
		bob := newVR(t, env, env.Account(t, "other", "bob", true))
		eq(t, "another domain's tasks", len(bob.ok("GET", "/transtask", nil)["taskinfo"].([]any)), 0)
		eq(t, "another domain's program", errnos(bob.ok("POST", "/transtask", map[string]any{"addparams": []any{add(p1, 1, 0, 1)}})["addreturns"], "adderrno"), []int{32})
	})
}
