package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdSetUp puts terminals 1 to 3 of k in every media feature.
func mdSetUp(t *testing.T, k tlConf) {
	t.Helper()
	k.ok(t, "POST", "/mixs", map[string]any{"mode": 2, "members": mdMembers("1", "2", "3")})
	k.ok(t, "POST", "/vmps", mdVMP(1, 5, mdChn(0, 1, "2"), map[string]any{"chn_idx": 1, "member_type": 6,
		"poll": map[string]any{"num": 0, "keep_time": 10, "members": mdMembers("2", "1", "3")}}, mdChn(2, 1, "3")))
	k.ok(t, "POST", "/mtvmps", mdSelfMt("2", -1, 1, 1, mdChn(0, 1, "1")))
	k.ok(t, "POST", "/mtvmps", mdSelfMt("1", -1, 1, 2, mdChn(0, 1, "2"), mdChn(1, 1, "3")))
	k.ok(t, "POST", "/hdus", mdWallView("1_0", "1", "2"))
	k.ok(t, "POST", "/hdus", map[string]any{"hdu_id": "1_1", "mode": 3,
		"poll": map[string]any{"num": 0, "mode": 1, "keep_time": 10, "members": mdMembers("2", "3")}})
	k.ok(t, "POST", "/hdus", map[string]any{"hdu_id": "1_2", "mode": 2, "spilt": map[string]any{"members": []any{
		map[string]any{"chn_idx": 0, "mt_id": "2"}, map[string]any{"chn_idx": 1, "mt_id": "1"}}}})
	k.ok(t, "POST", "/hduvmps", mdWallSelf("2_0", 1, 2, mdChn(0, 1, "2"), mdChn(1, 1, "3")))
	k.ok(t, "POST", "/hdupoll", map[string]any{"mode": 2, "num": 0, "keep_time": 10, "show_mt_name": 0,
		"hdus": []any{map[string]any{"hdu_id": "2_1"}}, "members": mdMembers("2", "3")})
}

// A terminal that leaves the call, hung up or removed, leaves every media
// feature: the mix, the composition's chosen channel and single-channel
// poll, its own self composition and channels of others', the TV walls'
// views, polls and split screens, the TV-wall self composition and batch
// poll; its flags are cleared and the rest stays as it was.
func TestMediaLeave(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 0)
		node := ctSecondNode(env)
		mdSetUp(t, k)
		tlEq(t, "flags before", []any{mdFlags(t, k, "mix", "1", "2", "3"), mdFlags(t, k, "vmp", "1", "2", "3")},
			[]any{[]int{1, 1, 1}, []int{1, 1, 1}})
		tlEq(t, "polled first", mdPanes(t, k), map[int]string{0: "2", 1: "2", 2: "3"})

		node.hangup(t, mdCt(k), "2")
		tlEq(t, "mix", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("1", "3"))
		tlEq(t, "flags", []any{mdFlags(t, k, "mix", "1", "2", "3"), mdFlags(t, k, "vmp", "1", "2", "3")},
			[]any{[]int{1, 0, 1}, []int{1, 0, 1}})
		members := k.ok(t, "GET", "/vmps/1", nil)["members"].([]any)
		tlEq(t, "composition channels", len(members), 2)
		poll := members[0].(map[string]any)
		tlEq(t, "single-channel poll goes on", []any{poll["chn_idx"], poll["mt_id"], poll["poll"].(map[string]any)["members"]},
			[]any{1, "1", mdAccounts("1", "3")})
		tlEq(t, "chosen channel kept", members[1].(map[string]any)["mt_id"], "3")
		k.fail(t, 20823, "GET", "/mtvmps/2", nil)
		tlEq(t, "others' self composition", k.ok(t, "GET", "/mtvmps/1", nil)["members"], []any{mdPane(1, 1, "3")})
		tlEq(t, "wall view", k.ok(t, "GET", "/hdus/1_0", nil)["specific"].(map[string]any)["mt_id"], "")
		wp := k.ok(t, "GET", "/hdus/1_1", nil)["poll"].(map[string]any)
		tlEq(t, "wall poll", []any{wp["poll_index"], wp["members"]}, []any{1, mdAccounts("3")})
		tlEq(t, "split screen", k.ok(t, "GET", "/hdus/1_2", nil)["spilt"], map[string]any{"members": []any{
			map[string]any{"chn_idx": 1, "mt_id": "1", "account": "10.0.1.1"}}})
		tlEq(t, "wall self composition", k.ok(t, "GET", "/hduvmps/2_0", nil)["members"], []any{mdWallPane(1, 1, "3")})
		tlEq(t, "batch poll", k.ok(t, "GET", "/hdupoll", nil)["members"], mdMembers("3"))
		tlEq(t, "batch poll wall", mdWallShows(t, k, "2_1"), []string{"3"})

		node.remove(t, mdCt(k), "3")
		tlEq(t, "mix after removal", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("1"))
		tlEq(t, "composition after removal", mdPanes(t, k), map[int]string{1: "1"})
		tlEq(t, "batch poll without terminals stopped", k.ok(t, "GET", "/hdupoll", nil)["state"], 0)
		tlEq(t, "walls after removal", mdConfWalls(t, k), []string{"1_0", "1_1", "1_2"})
		tlEq(t, "flags of the one left", []any{mdFlags(t, k, "mix", "1"), mdFlags(t, k, "vmp", "1")}, []any{[]int{1}, []int{1}})
		testserver.MustFail(t, k.do(t, "POST", "/mixs/1/members", map[string]any{"members": mdMembers("2")}), 20401)
	})
}
