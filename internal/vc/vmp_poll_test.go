package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdCt is a tlConf as the ctConf that ctSecondNode's nodes take.
func mdCt(k tlConf) ctConf { return ctConf{env: k.env, c: k.c, id: k.id, domain: k.domain} }

// An automatic composition fills its panes from the online terminals, the
// speaker first; a terminal that leaves is replaced at once and one that
// comes back fills a pane again.
func TestVMPAutomatic(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 4, 0)
		node := ctSecondNode(env)

		k.ok(t, "POST", "/vmps", mdVMP(2, 3, mdChn(0, 1, "4"))) // members are not used in automatic mode
		tlEq(t, "automatic panes", k.ok(t, "GET", "/vmps/1", nil)["members"], []any{mdPane(0, 1, "1"), mdPane(1, 1, "2")})
		tlEq(t, "flags", mdFlags(t, k, "vmp", "1", "2", "3", "4"), []int{1, 1, 0, 0})
		k.ok(t, "PUT", "/speaker", map[string]any{"mt_id": "3"})
		tlEq(t, "speaker first", mdPanes(t, k), map[int]string{0: "3", 1: "1"})

		node.hangup(t, mdCt(k), "3")
		tlEq(t, "refilled after the speaker left", mdPanes(t, k), map[int]string{0: "1", 1: "2"})
		tlEq(t, "flags after leaving", mdFlags(t, k, "vmp", "1", "2", "3", "4"), []int{1, 1, 0, 0})
		node.remove(t, mdCt(k), "1")
		tlEq(t, "refilled after removal", mdPanes(t, k), map[int]string{0: "2", 1: "4"})
		tlEq(t, "flags after removal", mdFlags(t, k, "vmp", "2", "3", "4"), []int{1, 0, 1})

		if err := node.eng.Call(t.Context(), node.conf(t, mdCt(k)), []string{"3"}); err != nil {
			t.Fatal(err)
		}
		env.Advance(t, 3*time.Second)
		k.ok(t, "POST", "/vmps/1", mdVMP(2, 5))
		tlEq(t, "back in the call", mdPanes(t, k), map[int]string{0: "2", 1: "3", 2: "4"})
	})
}

// A batch poll shows its terminals page by page, turning every keep_time
// seconds with the clock; after num rounds the last page stays. Mode 4
// polls its members through the panes the chosen channels leave free;
// mode 3 polls the online terminals.
func TestVMPBatchPoll(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 4, 1)

		p := mdVMP(4, 5, mdChn(0, 1, "1"))
		p["poll"] = map[string]any{"num": 1, "keep_time": 10, "members": mdMembers("2", "3", "4", "1")}
		k.ok(t, "POST", "/vmps", p)
		tlEq(t, "first page", mdPanes(t, k), map[int]string{0: "1", 1: "2", 2: "3", 3: "4"})
		got := k.ok(t, "GET", "/vmps/1", nil)["poll"]
		tlEq(t, "batch poll", got, map[string]any{"num": 1, "keep_time": 10, "members": mdAccounts("2", "3", "4", "1")})
		tlEq(t, "flags", mdFlags(t, k, "vmp", "1", "2", "3", "4"), []int{1, 1, 1, 1})
		env.Advance(t, 9*time.Second)
		tlEq(t, "still the first page", mdPanes(t, k), map[int]string{0: "1", 1: "2", 2: "3", 3: "4"})
		env.Advance(t, time.Second)
		tlEq(t, "second page", mdPanes(t, k), map[int]string{0: "1", 1: "1"})
		env.Advance(t, 30*time.Second)
		tlEq(t, "one round done: the last page stays", mdPanes(t, k), map[int]string{0: "1", 1: "1"})

		p["poll"] = map[string]any{"num": 0, "keep_time": 5, "members": mdMembers("2", "5")}
		k.fail(t, 20401, "POST", "/vmps/1", p)
		full := mdVMP(4, 2, mdChn(0, 1, "1"), mdChn(1, 2, ""))
		full["poll"] = map[string]any{"num": 0, "keep_time": 5, "members": mdMembers("2")}
		k.fail(t, 20546, "POST", "/vmps/1", full)
		noMembers := mdVMP(4, 2)
		noMembers["poll"] = map[string]any{"num": 0, "keep_time": 5, "members": []any{}}
		k.fail(t, 90400, "POST", "/vmps/1", noMembers)

		// Mode 3: the online terminals, one pane, 5 seconds each.
		auto := mdVMP(3, 1)
		auto["poll"] = map[string]any{"num": 0, "keep_time": 5, "members": []any{}} // not used in mode 3
		k.ok(t, "POST", "/vmps/1", auto)
		var seen []string
		for i := 0; i < 5; i++ {
			seen = append(seen, mdPanes(t, k)[0])
			env.Advance(t, 5*time.Second)
		}
		tlEq(t, "automatic batch poll", seen, []string{"1", "2", "3", "4", "1"})
		tlEq(t, "poll of mode 3", k.ok(t, "GET", "/vmps/1", nil)["poll"], map[string]any{"num": 0, "keep_time": 5, "members": []any{}})
	})
}

// A single-channel poll shows its terminals in turn from poll_index;
// modifying with poll_index 0 carries on from the terminal shown; after num
// rounds its poll_index is 0 and it shows none.
func TestVMPSingleChannelPoll(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 0)
		node := ctSecondNode(env)
		single := func(num, index int, ids ...string) map[string]any {
			return map[string]any{"chn_idx": 1, "member_type": 6,
				"poll": map[string]any{"num": num, "keep_time": 5, "poll_index": index, "members": mdMembers(ids...)}}
		}
		chn1 := func() (string, any) {
			for _, p := range k.ok(t, "GET", "/vmps/1", nil)["members"].([]any) {
				if p := p.(map[string]any); ctNum(p["chn_idx"]) == 1 {
					po := p["poll"].(map[string]any)
					return p["mt_id"].(string), po["poll_index"]
				}
			}
			return "none", nil
		}
		want := func(what, mt string, idx int) {
			t.Helper()
			got, gotIdx := chn1()
			tlEq(t, what, []any{got, gotIdx}, []any{mt, idx})
		}

		k.ok(t, "POST", "/vmps", mdVMP(1, 2, mdChn(0, 1, "1"), single(1, 2, "1", "2", "3")))
		got := k.ok(t, "GET", "/vmps/1", nil)["members"].([]any)[1]
		tlEq(t, "single-channel poll", got, map[string]any{"chn_idx": 1, "member_type": 6, "account": "10.0.1.2", "mt_id": "2",
			"mt_chn_idx": 0, "poll": map[string]any{"num": 1, "keep_time": 5, "poll_index": 2, "members": mdAccounts("1", "2", "3")}})
		env.Advance(t, 5*time.Second)
		want("second turn", "3", 3)
		env.Advance(t, 5*time.Second)
		want("wrapped round", "1", 1)
		env.Advance(t, 5*time.Second)
		want("round complete", "", 0)

		k.ok(t, "POST", "/vmps/1", mdVMP(1, 2, mdChn(0, 1, "1"), single(0, 3, "1", "2", "3")))
		want("restarted at 3", "3", 3)
		env.Advance(t, 5*time.Second)
		k.ok(t, "POST", "/vmps/1", mdVMP(1, 2, mdChn(0, 1, "1"), single(0, 0, "3", "2", "1")))
		want("poll_index 0 keeps the terminal shown", "1", 3)
		env.Advance(t, 5*time.Second)
		want("then the next of the new order", "3", 1)

		// A polled terminal that leaves is skipped; the poll goes on.
		node.hangup(t, mdCt(k), "2")
		env.Advance(t, 5*time.Second)
		want("skips the terminal that left", "1", 2)
		k.fail(t, 90400, "POST", "/vmps/1", mdVMP(1, 2, single(0, 4, "1", "3")))
		k.fail(t, 90400, "POST", "/vmps/1", mdVMP(1, 2, map[string]any{"chn_idx": 1, "member_type": 6}))
	})
}

// The due work keeps the vmp flags in step with panes that change without
// a request: a speaker that changes, a batch poll that turns.
func TestVMPFlagsDue(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 3, 0)
	node := tlSecondNode(env)
	due := func() {
		t.Helper()
		if err := node.mod.RunDueMedia(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	k.ok(t, "POST", "/vmps", mdVMP(2, 1))
	tlEq(t, "flags at the start", mdFlags(t, k, "vmp", "1", "2", "3"), []int{1, 0, 0})
	k.ok(t, "PUT", "/speaker", map[string]any{"mt_id": "2"})
	due()
	tlEq(t, "flags of the new speaker's pane", mdFlags(t, k, "vmp", "1", "2", "3"), []int{0, 1, 0})

	p := mdVMP(3, 1)
	p["poll"] = map[string]any{"num": 0, "keep_time": 5, "members": []any{}}
	k.ok(t, "POST", "/vmps/1", p)
	env.Advance(t, 5*time.Second)
	due()
	tlEq(t, "flags of the turned batch poll", mdFlags(t, k, "vmp", "1", "2", "3"), []int{1, 0, 0})
}
