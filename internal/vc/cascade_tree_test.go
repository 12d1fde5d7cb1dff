package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// casTree is a three-level cascade built through the public API only:
// conferences A, B and C, each with one IP terminal (mt_id 1); B's number
// added to A as terminal 2 (B gains terminal 2 for A), then C's number
// added to B as terminal 3 (C gains terminal 2 for B).
type casTree struct {
	env     *testserver.Env
	c       *testserver.Client
	a, b, x string // conf_ids of A, B and C
}

func casBuild(t *testing.T, dsn string) casTree {
	t.Helper()
	env, admin := mtsEnv(t, dsn, testserver.Options{})
	k := casTree{env: env, c: admin}
	for _, id := range []*string{&k.a, &k.b, &k.x} {
		*id = mtsConf(t, admin, map[string]any{"name": "level"})
	}
	for i, id := range []string{k.a, k.b, k.x} {
		testserver.MustOK(t, mtsAdd(t, admin, id, mtsEntry("10.9.0."+string(rune('1'+i)))))
	}
	env.Advance(t, 3*time.Second) // the IP terminals answer
	testserver.MustOK(t, mtsAdd(t, admin, k.a, mtsEntry(k.b)))
	testserver.MustOK(t, mtsAdd(t, admin, k.b, mtsEntry(k.x)))
	return k
}

func (k casTree) get(t *testing.T, path string) map[string]any {
	t.Helper()
	return testserver.MustOK(t, k.c.Do("GET", "/api/v1/vc/confs/"+path, nil))
}

func (k casTree) put(t *testing.T, path string, p map[string]any) testserver.Reply {
	t.Helper()
	return k.c.Do("PUT", "/api/v1/vc/confs/"+path, testserver.Params(t, p))
}

// casMts lists a cascade's terminals by mt_id.
func (k casTree) casMts(t *testing.T, conf, cascade string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, v := range k.get(t, conf+"/cascades/"+cascade+"/mts")["mts"].([]any) {
		m := v.(map[string]any)
		out[m["mt_id"].(string)] = m
	}
	return out
}

func TestCascadeTree(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		k := casBuild(t, dsn)
		a, b, x := k.a, k.b, k.x

		// The tree from each level.
		mtsSame(t, "A's tree", k.get(t, a+"/cascades"), map[string]any{
			"cascade_id": "0", "cascades": []any{map[string]any{
				"cascade_id": "2", "cascades": []any{map[string]any{
					"cascade_id": "2.3", "cascades": []any{}, "conf_id": x, "mt_id": "2.3", "name": "level"}},
				"conf_id": b, "mt_id": "2", "name": "level"}},
			"conf_id": a, "mt_id": "0", "name": "level", "success": 1})
		mtsSame(t, "B's tree", k.get(t, b+"/cascades")["cascades"], []any{map[string]any{
			"cascade_id": "3", "cascades": []any{}, "conf_id": x, "mt_id": "3", "name": "level"}})
		mtsSame(t, "C's tree", k.get(t, x+"/cascades")["cascades"], []any{})

		// superior_cascade and subordinate_cascade on each info.
		for _, tc := range []struct {
			conf     string
			sup, sub float64
		}{{a, 0, 1}, {b, 1, 1}, {x, 1, 0}} {
			info := k.get(t, tc.conf)
			if info["superior_cascade"] != tc.sup || info["subordinate_cascade"] != tc.sub {
				t.Errorf("conference %s: superior_cascade %v subordinate_cascade %v, want %v %v",
					tc.conf, info["superior_cascade"], info["subordinate_cascade"], tc.sup, tc.sub)
			}
		}

		// The link terminals: type 7 in the superior, type 8 (the
		// superior) in the subordinate; both online.
		la := mtsList(t, k.c, a)["2"]
		if mtsNum(la["type"]) != 7 || mtsNum(la["online"]) != 1 || la["e164"] != b {
			t.Errorf("A's link terminal = %v", la)
		}
		ub := mtsList(t, k.c, b)["2"]
		if mtsNum(ub["type"]) != 8 || mtsNum(ub["online"]) != 1 || ub["e164"] != a {
			t.Errorf("B's terminal for its superior = %v", ub)
		}

		// Cascade terminals at each level, with cascaded ids; the
		// subordinate's terminal for its superior is not shown.
		bFromA := k.casMts(t, a, "2")
		if len(bFromA) != 2 || bFromA["2.1"] == nil || mtsNum(bFromA["2.3"]["type"]) != 7 {
			t.Fatalf("B's terminals seen from A: %v", bFromA)
		}
		cFromA := k.casMts(t, a, "2.3")
		if len(cFromA) != 1 || mtsNum(cFromA["2.3.1"]["online"]) != 1 {
			t.Fatalf("C's terminals seen from A: %v", cFromA)
		}
		if got := k.casMts(t, a, "0.2.3"); len(got) != 1 { // the reference's "0." form
			t.Errorf("C's terminals by 0.2.3: %v", got)
		}
		if got := k.casMts(t, b, "3"); len(got) != 1 || got["3.1"] == nil {
			t.Errorf("C's terminals seen from B: %v", got)
		}
		mtsSame(t, "cascade terminal fields", mtsKeys(bFromA["2.1"]), mtsFields("vc.confs.cascades.mts.list", "mts"))

		// Speaker and mute on C's terminal from the top.
		testserver.MustOK(t, k.put(t, a+"/speaker", map[string]any{"mt_id": "2.3.1"}))
		mtsSame(t, "A's speaker", k.get(t, a+"/speaker")["mt_id"], "2.3.1")
		testserver.MustOK(t, k.put(t, a+"/mts/2.3.1/mute", map[string]any{"value": 1}))
		if got := mtsList(t, k.c, x)["1"]; mtsNum(got["mute"]) != 1 {
			t.Errorf("C's terminal 1 after mute from A: %v", got)
		}
		if got := k.casMts(t, a, "2.3")["2.3.1"]; mtsNum(got["mute"]) != 1 {
			t.Errorf("C's terminal seen from A after mute: %v", got)
		}
		testserver.MustOK(t, k.put(t, a+"/mts/2.1/silence", map[string]any{"value": 1}))
		if got := mtsList(t, k.c, b)["1"]; mtsNum(got["silence"]) != 1 {
			t.Errorf("B's terminal 1 after silence from A: %v", got)
		}
		// Unknown cascaded ids: 12104; ids through a terminal that is no
		// link: 12104.
		testserver.MustFail(t, k.put(t, a+"/speaker", map[string]any{"mt_id": "2.9"}), 12104)
		testserver.MustFail(t, k.put(t, a+"/speaker", map[string]any{"mt_id": "1.1"}), 12104)
		mtsSame(t, "A's speaker after refusals", k.get(t, a+"/speaker")["mt_id"], "2.3.1")

		// Adding terminals to C through A.
		r := testserver.MustOK(t, k.c.Do("POST", "/api/v1/vc/confs/"+a+"/cascades/2.3/mts",
			testserver.Params(t, map[string]any{"mts": []any{mtsEntry("10.9.0.9")}})))
		mtsSame(t, "cascade add reply", r["mts"], []any{map[string]any{
			"account": "10.9.0.9", "account_type": 7, "cascades_id": 3, "mt_id": 3, "protocol": 0}})
		k.env.Advance(t, 3*time.Second)
		if got := mtsList(t, k.c, x)["3"]; mtsNum(got["online"]) != 1 {
			t.Errorf("terminal added to C through A: %v", got)
		}

		// A composition and a poll of A with C's terminal as member.
		testserver.MustOK(t, k.c.Do("POST", "/api/v1/vc/confs/"+a+"/vmps", testserver.Params(t, mdVMP(1, 2,
			mdChn(0, 1, "1"), mdChn(1, 1, "2.3.3")))))

		// Hanging up C's terminal 3 from A drops it from A's composition.
		testserver.MustOK(t, k.c.Do("DELETE", "/api/v1/vc/confs/"+a+"/online_mts", mtsIDs(t, "2.3.3")))
		if got := mtsList(t, k.c, x)["3"]; mtsNum(got["online"]) != 0 {
			t.Errorf("C's terminal 3 after hang-up from A: %v", got)
		}
		if members := vmpMemberIDs(k.get(t, a+"/vmps/1")); len(members) != 1 || members[0] != "1" {
			t.Errorf("A's composition members after C's terminal left: %v", members)
		}

		// A loop (C calls A, or B) and a second superior are refused with
		// nothing changed.
		before := len(mtsList(t, k.c, x))
		testserver.MustFail(t, mtsAdd(t, k.c, x, mtsEntry(a)), vc.CodeCascadeSuperior)
		testserver.MustFail(t, mtsAdd(t, k.c, x, mtsEntry(b)), vc.CodeCascadeSuperior)
		testserver.MustFail(t, mtsAdd(t, k.c, x, mtsEntry(x)), vc.CodeCascadeSuperior)
		testserver.MustFail(t, mtsAdd(t, k.c, a, mtsEntry(x)), vc.CodeCascadeTaken)
		testserver.MustFail(t, mtsAdd(t, k.c, a, mtsEntry(b)), vc.CodeCascadeTaken)
		if after := len(mtsList(t, k.c, x)); after != before {
			t.Errorf("refused links changed C's terminals: %d → %d", before, after)
		}

		// Ending the middle conference dissolves the tree: A's link is
		// hung up and its speaker (a terminal of C) dropped; C goes on
		// alone.
		testserver.MustOK(t, k.c.Do("DELETE", "/api/v1/mc/confs/"+b, nil))
		mtsSame(t, "A's tree after B ended", k.get(t, a+"/cascades")["cascades"], []any{})
		mtsSame(t, "A's speaker after B ended", k.get(t, a+"/speaker")["mt_id"], "")
		if info := k.get(t, a); info["subordinate_cascade"] != float64(0) {
			t.Errorf("A's subordinate_cascade after B ended: %v", info["subordinate_cascade"])
		}
		if info := k.get(t, x); info["superior_cascade"] != float64(0) {
			t.Errorf("C's superior_cascade after B ended: %v", info["superior_cascade"])
		}
		for id, m := range mtsList(t, k.c, x) {
			if mtsNum(m["type"]) == 8 {
				t.Errorf("C still has the terminal %s for its ended superior", id)
			}
		}
		testserver.MustFail(t, k.c.Do("GET", "/api/v1/vc/confs/"+a+"/cascades/2/mts", nil), vc.CodeNoCascade)
		if la := mtsList(t, k.c, a)["2"]; mtsNum(la["online"]) != 0 {
			t.Errorf("A's link terminal after B ended: %v", la)
		}
		// B's number is no live conference any more: calling it again
		// fails (a conference number is never an ordinary terminal).
		k.env.Advance(t, 30*time.Second)
		if la := mtsList(t, k.c, a)["2"]; mtsNum(la["online"]) != 0 {
			t.Errorf("A's link terminal redialled an ended conference: %v", la)
		}
	})
}

// Dropping the link terminal dissolves its cascade on both sides.
func TestCascadeDropLink(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		k := casBuild(t, dsn)
		testserver.MustOK(t, k.put(t, k.a+"/chairman", map[string]any{"mt_id": "2.1"}))
		if r := k.c.Do("DELETE", "/api/v1/vc/confs/"+k.a+"/mts", mtsIDs(t, "2")); !r.OK() {
			t.Fatalf("drop the link: %s", r.Raw)
		}
		mtsSame(t, "A's tree", k.get(t, k.a+"/cascades")["cascades"], []any{})
		mtsSame(t, "A's chairman", k.get(t, k.a+"/chairman")["mt_id"], "")
		if info := k.get(t, k.b); info["superior_cascade"] != float64(0) || info["subordinate_cascade"] != float64(1) {
			t.Errorf("B after its link was dropped: superior %v subordinate %v", info["superior_cascade"], info["subordinate_cascade"])
		}
		if got := mtsList(t, k.c, k.b); got["2"] != nil {
			t.Errorf("B kept the terminal for its former superior: %v", got["2"])
		}
		// B can now be linked again, by C's former superior's superior.
		testserver.MustOK(t, mtsAdd(t, k.c, k.a, mtsEntry(k.b)))
		if got := k.get(t, k.a+"/cascades")["cascades"].([]any); len(got) != 1 {
			t.Errorf("A's tree after linking B again: %v", got)
		}
	})
}

// Unknown E.164 numbers answer; the directory makes one offline.
func TestUnknownNumberAnswers(t *testing.T) {
	env, admin := mtsEnv(t, testdb.SQLite(t), testserver.Options{})
	conf := mtsConf(t, admin, nil)
	testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry("88001234"), mtsEntry(mtsOffline)))
	env.Advance(t, 3*time.Second)
	l := mtsList(t, admin, conf)
	if mtsNum(l["1"]["online"]) != 1 || mtsNum(l["2"]["online"]) != 0 {
		t.Errorf("unknown number online %v, offline number online %v", l["1"]["online"], l["2"]["online"])
	}
}

// vmpMemberIDs lists the mt_ids of a composition's members.
func vmpMemberIDs(vmp map[string]any) []string {
	var out []string
	for _, v := range vmp["members"].([]any) {
		if id, _ := v.(map[string]any)["mt_id"].(string); id != "" {
			out = append(out, id)
		}
	}
	return out
}

// A poll of the superior takes a subordinate's terminal as member; the
// upload terminal of a subordinate shows in the superior's view of it;
// the cascade settings given at creation are reported; ending the top
// conference frees its subordinate.
func TestCascadeMembersUploadSettingsEnd(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		k := casTree{env: env, c: admin}
		k.a = mtsConf(t, admin, map[string]any{"name": "top", "cascade_mode": 1, "cascade_upload": 1,
			"cascade_return": 1, "cascade_return_para": 512})
		k.b = mtsConf(t, admin, map[string]any{"name": "sub"})
		testserver.MustOK(t, mtsAdd(t, admin, k.a, mtsEntry("10.9.1.1")))
		testserver.MustOK(t, mtsAdd(t, admin, k.b, mtsEntry("10.9.1.2"), mtsEntry("10.9.1.3")))
		env.Advance(t, 3*time.Second)
		testserver.MustOK(t, mtsAdd(t, admin, k.a, mtsEntry(k.b))) // A's terminal 2

		info := k.get(t, k.a)
		for f, want := range map[string]float64{"cascade_mode": 1, "cascade_upload": 1, "cascade_return": 1, "cascade_return_para": 512} {
			if info[f] != want {
				t.Errorf("A's %s = %v, want %v", f, info[f], want)
			}
		}

		// A poll over A's terminal 1 and B's terminal 1 (seen as "2.1").
		testserver.MustOK(t, k.put(t, k.a+"/poll", map[string]any{"mode": 1, "num": 0, "keep_time": 10,
			"members": []any{map[string]any{"mt_id": "1"}, map[string]any{"mt_id": "2.1"}}}))
		if got := k.get(t, k.a+"/poll"); got["state"] != float64(1) {
			t.Fatalf("A's poll: %v", got)
		}

		// B's upload terminal is what A sees of B.
		testserver.MustOK(t, k.put(t, k.b+"/upload", map[string]any{"mt_id": "2"}))
		up := k.casMts(t, k.a, "2")
		if mtsNum(up["2.2"]["upload"]) != 1 || mtsNum(up["2.1"]["upload"]) != 0 {
			t.Errorf("B's terminals seen from A after B's upload: %v", up)
		}

		// B's terminal 1 leaves: A's poll drops it.
		testserver.MustOK(t, k.c.Do("DELETE", "/api/v1/vc/confs/"+k.b+"/mts", mtsIDs(t, "1")))
		for _, m := range k.get(t, k.a+"/poll")["members"].([]any) {
			if id := m.(map[string]any)["mt_id"]; id == "2.1" {
				t.Errorf("A's poll kept the departed terminal 2.1")
			}
		}

		// Ending A frees B.
		testserver.MustOK(t, k.c.Do("DELETE", "/api/v1/mc/confs/"+k.a, nil))
		if info := k.get(t, k.b); info["superior_cascade"] != float64(0) {
			t.Errorf("B's superior_cascade after A ended: %v", info["superior_cascade"])
		}
		for id, m := range mtsList(t, k.c, k.b) {
			if mtsNum(m["type"]) == 8 {
				t.Errorf("B kept terminal %s for its ended superior", id)
			}
		}
	})
}

// Every kind of per-terminal operation of the superior takes a
// subordinate's terminal by its cascaded id; an unknown cascaded id is
// 12104 for each.
func TestCascadeOperations(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		k := casBuild(t, dsn) // A's link 2 → B (terminals 1, link 3 → C); C's terminal 1 is "2.3.1"
		a := "/api/v1/vc/confs/" + k.a
		do := func(method, path string, p map[string]any) testserver.Reply {
			return k.c.Do(method, a+path, testserver.Params(t, p))
		}
		ops := []struct {
			name, method, path string
			p                  func(id string) map[string]any
		}{
			{"chairman", "PUT", "/chairman", func(id string) map[string]any { return map[string]any{"mt_id": id} }},
			{"dual stream", "PUT", "/dualstream", func(id string) map[string]any { return map[string]any{"mt_id": id} }},
			{"VIPs", "PUT", "/viplist", func(id string) map[string]any { return map[string]any{"mts": mdMembers(id)} }},
			{"mix", "POST", "/mixs", func(id string) map[string]any { return map[string]any{"mode": 2, "members": mdMembers("1", id)} }},
			{"inspection", "POST", "/inspections", func(id string) map[string]any {
				return map[string]any{"mode": 1, "src": map[string]any{"type": 1, "mt_id": id}, "dst": map[string]any{"mt_id": "1"}}
			}},
			{"monitor", "POST", "/monitors", func(id string) map[string]any { return tlMonitor(0, id, "10.9.9.9", 6000) }},
		}
		for _, op := range ops {
			testserver.MustFail(t, do(op.method, op.path, op.p("2.3.9")), 12104)
			if r := do(op.method, op.path, op.p("2.3.1")); !r.OK() {
				t.Errorf("%s with 2.3.1: %s", op.name, r.Raw)
			}
		}
		mtsSame(t, "chairman", testserver.MustOK(t, k.c.Do("GET", a+"/chairman", nil))["mt_id"], "2.3.1")
		mtsSame(t, "dual stream", testserver.MustOK(t, k.c.Do("GET", a+"/dualstream", nil))["mt_id"], "2.3.1")

		// Per-terminal controls through the path.
		for _, tc := range []struct {
			path string
			p    map[string]any
		}{
			{"/mts/2.3.1/volume", map[string]any{"vol_mode": 1, "vol_value": 20}},
			{"/mts/2.3.1/call_mode", map[string]any{"value": 3}},
		} {
			testserver.MustOK(t, do("PUT", tc.path, tc.p))
		}
		got := mtsList(t, k.c, k.x)["1"]
		if mtsNum(got["call_mode"]) != 3 {
			t.Errorf("C's terminal 1 after call mode through A: %v", got)
		}

		// C's terminal 1 hangs up: every role and member of A that was it goes.
		testserver.MustOK(t, k.c.Do("DELETE", "/api/v1/vc/confs/"+k.x+"/online_mts", mtsIDs(t, "1")))
		mtsSame(t, "chairman after it left", testserver.MustOK(t, k.c.Do("GET", a+"/chairman", nil))["mt_id"], "")
		mtsSame(t, "dual stream after it left", testserver.MustOK(t, k.c.Do("GET", a+"/dualstream", nil))["mt_id"], "")
		mtsSame(t, "VIPs after it left", testserver.MustOK(t, k.c.Do("GET", a+"/viplist", nil))["mts"], []any{})
		if insp := testserver.MustOK(t, k.c.Do("GET", a+"/inspections", nil))["inspections"].([]any); len(insp) != 0 {
			t.Errorf("inspections after it left: %v", insp)
		}

		// Calling it again from A brings it back; dropping it from A removes
		// it from C.
		testserver.MustOK(t, k.c.Do("POST", a+"/online_mts", mtsIDs(t, "2.3.1")))
		k.env.Advance(t, 3*time.Second)
		if got := mtsList(t, k.c, k.x)["1"]; mtsNum(got["online"]) != 1 {
			t.Errorf("C's terminal 1 after a call from A: %v", got)
		}
		testserver.MustFail(t, k.c.Do("DELETE", a+"/mts", mtsIDs(t, "2.3.1", "2.3.9")), 12104) // all or nothing
		testserver.MustOK(t, k.c.Do("DELETE", a+"/mts", mtsIDs(t, "2.3.1")))
		if got := mtsList(t, k.c, k.x); got["1"] != nil {
			t.Errorf("C's terminal 1 after a drop from A: %v", got["1"])
		}
	})
}

// A subordinate that ends hangs up its superior's link and frees its own
// subordinate (engine.Features.Ended's Effects.Hangup and Detach): A
// keeps terminal 2 offline and no tree, C no superior.
func TestCascadeMiddleEnds(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		k := casBuild(t, dsn)
		testserver.MustOK(t, k.c.Do("DELETE", "/api/v1/mc/confs/"+k.b, nil))
		if got := mtsList(t, k.c, k.a)["2"]; got == nil || mtsNum(got["online"]) != 0 {
			t.Errorf("A's link to the ended B: %v", got)
		}
		mtsSame(t, "A's tree", k.get(t, k.a+"/cascades")["cascades"], []any{})
		if info := k.get(t, k.x); info["superior_cascade"] != float64(0) {
			t.Errorf("C's superior_cascade after B ended: %v", info["superior_cascade"])
		}
		for id, m := range mtsList(t, k.c, k.x) {
			if mtsNum(m["type"]) == 8 {
				t.Errorf("C kept terminal %s for its ended superior", id)
			}
		}
	})
}
