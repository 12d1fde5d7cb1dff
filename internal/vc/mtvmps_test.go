package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdSelf is the parameters of a self composition.
func mdSelf(mode, layout int, members ...any) map[string]any {
	if members == nil {
		members = []any{}
	}
	return map[string]any{"mode": mode, "layout": layout, "voice_hint": 1, "show_mt_name": 1, "members": members}
}

// mdSelfMt is mdSelf for terminal mtID (on channel chn when chn >= 0).
func mdSelfMt(mtID string, chn, mode, layout int, members ...any) map[string]any {
	p := mdSelf(mode, layout, members...)
	p["mt_id"] = mtID
	if chn >= 0 {
		p["mt_chn_idx"] = chn
	}
	return p
}

// Terminal self compositions: start, list, info, modify, cancel, their
// errors, and a terminal that leaves.
func TestSelfVMP(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 1)
		node := ctSecondNode(env)

		k.fail(t, 20823, "GET", "/mtvmps", nil) // the reference: an error when none runs
		k.ok(t, "POST", "/mtvmps", mdSelfMt("1", -1, 1, 2, mdChn(0, 1, "2"), mdChn(1, 0, "")))
		tlEq(t, "self composition", k.ok(t, "GET", "/mtvmps/1", nil), map[string]any{"success": 1, "mode": 1, "layout": 2,
			"voice_hint": 1, "show_mt_name": 1, "members": []any{mdPane(0, 1, "2"), mdPane(1, 0, "")}})
		tlEq(t, "list", k.ok(t, "GET", "/mtvmps", nil)["mts"], []any{
			map[string]any{"mode": 1, "layout": 2, "voice_hint": 1, "show_mt_name": 1, "mt_id": "1"}})

		k.fail(t, 20822, "POST", "/mtvmps", mdSelfMt("1", -1, 2, 1))
		k.fail(t, 20401, "POST", "/mtvmps", mdSelfMt("4", -1, 2, 1))
		k.fail(t, 12104, "POST", "/mtvmps", mdSelfMt("9", -1, 2, 1))
		k.fail(t, 20401, "POST", "/mtvmps", mdSelfMt("2", -1, 1, 1, mdChn(0, 1, "4")))
		k.fail(t, 20546, "POST", "/mtvmps", mdSelfMt("2", -1, 1, 1, mdChn(0, 1, "1"), mdChn(1, 1, "3")))
		k.fail(t, 20826, "POST", "/mtvmps", mdSelfMt("2", -1, 1, 2, mdChn(0, 1, "1"), mdChn(1, 1, "1")))
		k.fail(t, 90400, "POST", "/mtvmps", mdSelfMt("2", -1, 1, 2, map[string]any{"chn_idx": 0, "mt_id": "1"}))
		k.fail(t, 20823, "GET", "/mtvmps/2", nil)
		k.fail(t, 12104, "GET", "/mtvmps/9", nil)
		k.fail(t, 20823, "PUT", "/mtvmps/2", mdSelf(2, 1))
		k.fail(t, 20823, "DELETE", "/mtvmps/2", nil)

		k.ok(t, "PUT", "/mtvmps/1", mdSelf(2, 5))
		got := k.ok(t, "GET", "/mtvmps/1", nil)
		tlEq(t, "automatic self composition", []any{got["mode"], got["layout"], got["members"]},
			[]any{2, 5, []any{mdPane(0, 1, "1"), mdPane(1, 1, "2"), mdPane(2, 1, "3")}})

		k.ok(t, "POST", "/mtvmps", mdSelfMt("3", -1, 1, 2, mdChn(0, 1, "2")))
		node.hangup(t, mdCt(k), "2")
		tlEq(t, "refilled without the terminal that left", k.ok(t, "GET", "/mtvmps/1", nil)["members"],
			[]any{mdPane(0, 1, "1"), mdPane(1, 1, "3")})
		tlEq(t, "a chosen channel of the terminal that left is empty", k.ok(t, "GET", "/mtvmps/3", nil)["members"], []any{})
		node.hangup(t, mdCt(k), "1")
		k.fail(t, 20823, "GET", "/mtvmps/1", nil)
		k.ok(t, "DELETE", "/mtvmps/3", nil)
		k.fail(t, 20823, "GET", "/mtvmps/3", nil)
		k.fail(t, 20823, "GET", "/mtvmps", nil)
	})
}

// The self composition of one terminal channel: GET mtvmps/{mt_id}/
// {mt_chn_idx} in 6.1.0.2.0 only, the mt_channel_vmps endpoints from
// 6.1.0.4.0 (seed 001).
func TestSelfVMPChannels(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "6.1.0.2.0"})
	admin := env.LoggedIn(t)
	admin.Level = "2"
	k := tlStart(t, env, admin, 2, 0)
	k.ok(t, "POST", "/mtvmps", mdSelfMt("1", 1, 1, 1, mdChn(0, 1, "2")))
	got := k.ok(t, "GET", "/mtvmps/1/1", nil)
	tlEq(t, "channel self composition", []any{got["mt_id"], got["mt_chn_idx"], got["members"]}, []any{"1", 1, []any{mdPane(0, 1, "2")}})
	k.fail(t, 20823, "GET", "/mtvmps/1/0", nil)
	k.fail(t, 90400, "GET", "/mtvmps/1/x", nil)
	k.fail(t, 20054, "POST", "/mtvmps", mdSelfMt("2", 2, 1, 1)) // one receiving channel
	k.fail(t, 90505, "GET", "/mt_channel_vmps", nil)

	env = testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin = env.LoggedIn(t)
	admin.Level = "3"
	k = tlStart(t, env, admin, 2, 0)
	tlEq(t, "empty channel list", k.ok(t, "GET", "/mt_channel_vmps", nil)["mts"], []any{})
	k.ok(t, "POST", "/mt_channel_vmps", mdSelfMt("1", 1, 1, 1, mdChn(0, 1, "2")))
	k.ok(t, "POST", "/mt_channel_vmps", mdSelfMt("1", 0, 2, 2))
	k.fail(t, 20822, "POST", "/mt_channel_vmps", mdSelfMt("1", 1, 2, 1))
	tlEq(t, "channel list", k.ok(t, "GET", "/mt_channel_vmps", nil)["mts"], []any{
		map[string]any{"mode": 2, "layout": 2, "voice_hint": 1, "show_mt_name": 1, "mt_id": "1", "mt_chn_idx": 0},
		map[string]any{"mode": 1, "layout": 1, "voice_hint": 1, "show_mt_name": 1, "mt_id": "1", "mt_chn_idx": 1}})
	k.ok(t, "PUT", "/mt_channel_vmps/1/1", mdSelf(1, 2, mdChn(1, 1, "1")))
	got = k.ok(t, "GET", "/mt_channel_vmps/1/1", nil)
	tlEq(t, "modified channel", []any{got["mt_id"], got["mt_chn_idx"], got["layout"], got["members"]}, []any{"1", 1, 2, []any{mdPane(1, 1, "1")}})
	tlEq(t, "mtvmps/1 is the lowest channel", k.ok(t, "GET", "/mtvmps/1", nil)["mode"], 2)
	k.fail(t, 90505, "GET", "/mtvmps/1/1", nil) // removed in 6.1.0.4.0
	k.ok(t, "DELETE", "/mt_channel_vmps/1/1", nil)
	k.fail(t, 20823, "GET", "/mt_channel_vmps/1/1", nil)
	k.fail(t, 20823, "DELETE", "/mt_channel_vmps/1/1", nil)
	k.fail(t, 12104, "GET", "/mt_channel_vmps/9/0", nil)
	admin.Level = "1"
	k.fail(t, 90505, "GET", "/mt_channel_vmps", nil)
}
