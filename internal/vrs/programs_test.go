package vrs_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vrs/program"
)

// Folders hold programs; the built-in ALL and UnGroup count them; names
// are unique; deleting a folder deletes its programs or ungroups them.
func TestFolders(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		v := newVR(t, env, admin)
		room := v.addRecRoom("rec", "200", 0, nil)
		p1, p2, p3 := v.record(room, 10*time.Second), v.record(room, 20*time.Second), v.record(room, 30*time.Second)

		folders := func(v vr, q map[string]any) map[string]int {
			out := map[string]int{}
			for _, f := range v.ok("GET", "/program_folder", q)["folderinfo"].([]any) {
				f := f.(map[string]any)
				out[fmt.Sprint(f["folderid"], ":", f["foldername"])] = num(f["prgcount"])
			}
			return out
		}
		eq(t, "built-in folders", folders(v, nil), map[string]int{"1:ALL": 3, "2:UnGroup": 3})

		a := num(v.ok("POST", "/program_folder", map[string]any{"foldername": "archive"})["folderid"])
		b := num(v.ok("POST", "/program_folder", map[string]any{"foldername": "drafts"})["folderid"])
		eq(t, "folder ids", []int{a, b}, []int{3, 4})
		v.fail(30, "POST", "/program_folder", map[string]any{"foldername": "archive"})
		v.fail(30, "POST", "/program_folder", map[string]any{"foldername": "all"})
		v.fail(90400, "POST", "/program_folder", map[string]any{"foldername": " "})
		v.fail(90400, "POST", "/program_folder", map[string]any{})

		v.ok("PUT", "/program_to_folder", map[string]any{"prginfo": []any{map[string]any{"prggid": p1}, map[string]any{"prggid": p2}}, "dstfolderid": a})
		v.ok("PUT", "/program_to_folder", map[string]any{"prginfo": []any{map[string]any{"prggid": p3}}, "dstfolderid": b})
		v.fail(32, "PUT", "/program_to_folder", map[string]any{"prginfo": []any{map[string]any{"prggid": p3}, map[string]any{"prggid": 99999}}, "dstfolderid": a})
		v.fail(8, "PUT", "/program_to_folder", map[string]any{"prginfo": []any{map[string]any{"prggid": p3}}, "dstfolderid": 77})
		v.fail(8, "PUT", "/program_to_folder", map[string]any{"prginfo": []any{map[string]any{"prggid": p3}}, "dstfolderid": 1})
		eq(t, "after moving", folders(v, nil), map[string]int{"1:ALL": 3, "2:UnGroup": 0, "3:archive": 2, "4:drafts": 1})
		eq(t, "programs of a folder", len(v.programs(map[string]any{"folderid": a})), 2)
		eq(t, "programs of UnGroup", len(v.programs(map[string]any{"folderid": 2})), 0)
		v.fail(8, "GET", "/program", map[string]any{"folderid": 77})

		v.ok("PUT", "/program_folder/"+fmt.Sprint(a), map[string]any{"foldername": "archive-2020"})
		v.fail(30, "PUT", "/program_folder/"+fmt.Sprint(a), map[string]any{"foldername": "drafts"})
		v.ok("PUT", "/program_folder/"+fmt.Sprint(a), map[string]any{"foldername": "archive-2020"}) // its own name
		v.fail(8, "PUT", "/program_folder/1", map[string]any{"foldername": "x"})
		v.fail(8, "DELETE", "/program_folder/2", map[string]any{"isdelprogram": 0})
		v.fail(8, "PUT", "/program_folder/99", map[string]any{"foldername": "x"})

		// Deleting a folder: its programs go back to UnGroup, or go.
		v.ok("DELETE", "/program_folder/"+fmt.Sprint(b), map[string]any{"isdelprogram": 0})
		eq(t, "after ungrouping", folders(v, nil), map[string]int{"1:ALL": 3, "2:UnGroup": 1, "3:archive-2020": 2})
		v.ok("DELETE", "/program_folder/"+fmt.Sprint(a), map[string]any{"isdelprogram": 1})
		eq(t, "after deleting with programs", folders(v, nil), map[string]int{"1:ALL": 1, "2:UnGroup": 1})
		eq(t, "the remaining program", num(v.programs(nil)[0]["prggid"]), p3)

		// Users read; administrators write; other domains see nothing.
		user := newVR(t, env, env.Account(t, "default", "erin", false))
		eq(t, "a user's view", folders(user, nil), map[string]int{"1:ALL": 1, "2:UnGroup": 1})
		user.fail(9, "POST", "/program_folder", map[string]any{"foldername": "mine"})
		bob := newVR(t, env, env.Account(t, "other", "bob", true))
		eq(t, "another domain's view", folders(bob, nil), map[string]int{"1:ALL": 0, "2:UnGroup": 0})
		c := num(v.ok("POST", "/program_folder", map[string]any{"foldername": "c"})["folderid"])
		bob.fail(8, "PUT", "/program_folder/"+fmt.Sprint(c), map[string]any{"foldername": "d"})
		bob.fail(32, "PUT", "/program_to_folder", map[string]any{"prginfo": []any{map[string]any{"prggid": p3}}, "dstfolderid": 2})
		eq(t, "filtered by another domain", folders(v, map[string]any{"userdomainmoid": "x,y"}), map[string]int{})

		// At most 64 folders a domain (A5 31).
		for i := 1; i < 64; i++ {
			v.ok("POST", "/program_folder", map[string]any{"foldername": fmt.Sprint("f", i)})
		}
		v.fail(31, "POST", "/program_folder", map[string]any{"foldername": "one too many"})
	})
}

// The program list filters, searches, sorts and pages; programs are
// published, withdrawn and deleted one by one with their own codes.
func TestPrograms(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		v := newVR(t, env, admin)
		alpha := v.addRecRoom("alpha", "300", 0, map[string]any{"confrate": 512})
		beta := v.addRecRoom("beta", "301", 0, map[string]any{"confrate": 4096, "prgtype": 2})
		t0 := env.Clock.Now().Unix()
		a1 := v.record(alpha, 40*time.Second)
		t1 := env.Clock.Now().Unix()
		b1 := v.record(beta, 10*time.Second)
		a2 := v.record(alpha, 20*time.Second)

		gids := func(ps []map[string]any) []int {
			out := []int{}
			for _, p := range ps {
				out = append(out, num(p["prggid"]))
			}
			return out
		}
		eq(t, "default order: newest first", gids(v.programs(nil)), []int{a2, b1, a1})
		eq(t, "by duration", gids(v.programs(map[string]any{"orderindex": 3})), []int{b1, a2, a1})
		eq(t, "by size descending", gids(v.programs(map[string]any{"orderindex": 4, "desc": 1})), []int{b1, a1, a2})
		eq(t, "by name", gids(v.programs(map[string]any{"orderindex": 1})), []int{a1, a2, b1})
		eq(t, "search", gids(v.programs(map[string]any{"includename": "BETA"})), []int{b1})
		eq(t, "time window", gids(v.programs(map[string]any{"starttime": t0, "endtime": t1 - 1})), []int{a1})
		eq(t, "wmv is asf", len(v.programs(map[string]any{"prgtypemask": 1})), 3)
		eq(t, "no mp4 yet", len(v.programs(map[string]any{"prgtypemask": 2})), 0)
		eq(t, "unencrypted", len(v.programs(map[string]any{"prgencmask": 1})), 3)
		eq(t, "encrypted", len(v.programs(map[string]any{"prgencmask": 6})), 0)
		eq(t, "strong authentication", len(v.programs(map[string]any{"prgauthmask": 2})), 0)
		eq(t, "local", len(v.programs(map[string]any{"localvrs": 1})), 3)
		vrsmoid := v.programs(nil)[0]["vrsmoid"]
		eq(t, "by vrsmoid", len(v.programs(map[string]any{"vrsmoid": vrsmoid})), 3)
		eq(t, "by another vrsmoid", len(v.programs(map[string]any{"vrsmoid": "x"})), 0)
		eq(t, "by prgskid", len(v.programs(map[string]any{"prgskid": "x"})), 0)
		page := v.ok("GET", "/program", map[string]any{"folderid": 1, "prgs1page": 2, "pageid": 2})
		eq(t, "page 2", []any{page["prgcount"], page["pageid"], gids(toMaps(page["prginfo"]))}, []any{3, 2, []int{a1}})
		p := v.program(b1)
		eq(t, "wmv program", []any{p["prgallsize"], p["prgdetail"].([]any)[0].(map[string]any)["prgtype"], p["userdomainmoid"] != ""},
			[]any{10 * 4096 * 1000 / 8, "wmv", true})

		// Publish, withdraw.
		rel := v.ok("PUT", "/program_release_batch", map[string]any{"info": []any{
			map[string]any{"prggid": a1, "prgstate": 1}, map[string]any{"prggid": 4242, "prgstate": 1}}})
		eq(t, "release results", rel["info"], []any{
			map[string]any{"prggid": a1, "prgstate": 1, "relerrno": 0}, map[string]any{"prggid": 4242, "prgstate": 1, "relerrno": 32}})
		eq(t, "published", []any{v.program(a1)["prgstate"], v.program(a1)["issuetime"]}, []any{1, env.Clock.Now().Unix()})
		eq(t, "published last", gids(v.programs(nil)), []int{a2, b1, a1})
		eq(t, "by state", gids(v.programs(map[string]any{"orderindex": 5, "desc": 1})), []int{a1, a2, b1}) // ties by gid, descending too

		// Delete: published needs enforcedel (34); a recording cannot be (24206).
		v.ok("PUT", "/recroom/"+beta+"/startrec", nil)
		var recording int
		for _, x := range v.programs(nil) {
			if num(x["prggid"]) > a2 {
				recording = num(x["prggid"])
			}
		}
		del := v.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{
			map[string]any{"prggid": a1, "enforcedel": 0}, map[string]any{"prggid": recording, "enforcedel": 1},
			map[string]any{"prggid": 777, "enforcedel": 0}, map[string]any{"prggid": a2, "enforcedel": 0}}})
		eq(t, "delete results", del["prgdelpckinfo"], []any{
			map[string]any{"prggid": a1, "delerrno": 34}, map[string]any{"prggid": recording, "delerrno": 24206},
			map[string]any{"prggid": 777, "delerrno": 32}, map[string]any{"prggid": a2, "delerrno": 0}})
		eq(t, "publishing a recording", v.ok("PUT", "/program_release_batch", map[string]any{"info": []any{
			map[string]any{"prggid": recording, "prgstate": 1}}})["info"], []any{map[string]any{"prggid": recording, "prgstate": 1, "relerrno": 24206}})
		v.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{map[string]any{"prggid": a1, "enforcedel": 1}}})
		eq(t, "remaining", gids(v.programs(nil)), []int{recording, b1})

		// Administrators delete any program, other accounts those they
		// recorded (issue 38 item 11); other domains' programs do not exist.
		user := newVR(t, env, env.Account(t, "default", "frank", false))
		eq(t, "a user deletes the administrator's", user.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{
			map[string]any{"prggid": b1, "enforcedel": 1}}})["prgdelpckinfo"], []any{map[string]any{"prggid": b1, "delerrno": 9}})
		eq(t, "a user reads", len(user.programs(nil)), 2)
		frank, err := env.Store.AccountByUsername(context.Background(), "frank")
		if err != nil {
			t.Fatal(err)
		}
		own, err := program.Start(context.Background(), env.Store, env.Clock.Now(), program.Spec{DomainMoid: frank.DomainMoid, OwnerMoid: frank.Moid, Alias: "frank's", Source: "vc"})
		if err != nil {
			t.Fatal(err)
		}
		program.Finish(&own, env.Clock.Now())
		if err := program.Save(context.Background(), env.Store, env.Clock.Now(), &own); err != nil {
			t.Fatal(err)
		}
		eq(t, "a user deletes the program it recorded", user.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{
			map[string]any{"prggid": own.GID(), "enforcedel": 0}}})["prgdelpckinfo"], []any{map[string]any{"prggid": own.GID(), "delerrno": 0}})
		eq(t, "a user reads", len(user.programs(nil)), 2)
		bob := newVR(t, env, env.Account(t, "other", "bob", true))
		eq(t, "another domain", len(bob.programs(nil)), 0)
		eq(t, "another domain deletes", bob.ok("DELETE", "/program", map[string]any{"prgdelpckinfo": []any{
			map[string]any{"prggid": b1, "enforcedel": 1}}})["prgdelpckinfo"], []any{map[string]any{"prggid": b1, "delerrno": 32}})
	})
}

func toMaps(x any) []map[string]any {
	var out []map[string]any
	for _, e := range x.([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}
