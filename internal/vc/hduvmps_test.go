package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdWallSelf is the parameters of a TV-wall self composition.
func mdWallSelf(id string, mode, layout int, members ...any) map[string]any {
	if members == nil {
		members = []any{}
	}
	p := map[string]any{"layout": layout, "show_mt_name": 1, "members": members}
	if id != "" {
		p["hdu_id"] = id
	}
	if mode > 0 {
		p["mode"] = mode
	}
	return p
}

// mdWallPane is a reply member of a TV-wall self composition.
func mdWallPane(chn, typ int, mtID string) map[string]any {
	acct := ""
	if mtID != "" {
		acct = "10.0.1." + mtID
	}
	return map[string]any{"chn_idx": chn, "member_type": typ, "account": acct, "mt_id": mtID}
}

// TV-wall self compositions: start, list, info, modify (keeping the mode
// when none is sent), stop; the wall is occupied meanwhile.
func TestHDUVMP(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 1)
		node := ctSecondNode(env)

		tlEq(t, "no wall", k.ok(t, "GET", "/hduvmps", nil)["hdus"], []any{})
		k.ok(t, "POST", "/hduvmps", mdWallSelf("2_0", 1, 2, mdChn(0, 1, "1"), mdChn(1, 1, "2")))
		tlEq(t, "wall composition", k.ok(t, "GET", "/hduvmps/2_0", nil), map[string]any{"success": 1, "mode": 1, "layout": 2,
			"show_mt_name": 1, "members": []any{mdWallPane(0, 1, "1"), mdWallPane(1, 1, "2")}})
		tlEq(t, "list", k.ok(t, "GET", "/hduvmps", nil)["hdus"], []any{map[string]any{"layout": 2, "show_mt_name": 1, "hdu_id": "2_0"}})
		tlEq(t, "occupied", mdWalls(t, admin)["2_0"], []any{"TV wall 2_0", 1, 1})
		tlEq(t, "not a started wall", mdConfWalls(t, k), []string{})

		k.fail(t, 20822, "POST", "/hduvmps", mdWallSelf("2_0", 2, 1))
		k.fail(t, 20058, "POST", "/hdus", mdWallView("2_0", "1", "1"))
		k.fail(t, 12105, "POST", "/hduvmps", mdWallSelf("9_9", 2, 1))
		k.fail(t, 20401, "POST", "/hduvmps", mdWallSelf("2_1", 1, 1, mdChn(0, 1, "4")))
		k.fail(t, 20546, "POST", "/hduvmps", mdWallSelf("2_1", 1, 1, mdChn(1, 1, "1")))
		k.fail(t, 90400, "POST", "/hduvmps", mdWallSelf("2_1", 1, 1, map[string]any{"chn_idx": 0, "member_type": 1}))
		k.fail(t, 20823, "GET", "/hduvmps/2_1", nil)
		k.fail(t, 12105, "GET", "/hduvmps/9_9", nil)
		k.fail(t, 20823, "PUT", "/hduvmps/2_1", mdWallSelf("", 0, 1))
		k.ok(t, "POST", "/hdus", mdWallView("2_1", "1", "3"))
		k.fail(t, 20058, "POST", "/hduvmps", mdWallSelf("2_1", 2, 1))

		k.ok(t, "PUT", "/hduvmps/2_0", mdWallSelf("", 0, 1, mdChn(0, 1, "3")))
		got := k.ok(t, "GET", "/hduvmps/2_0", nil)
		tlEq(t, "modified, mode kept", []any{got["mode"], got["layout"], got["members"]}, []any{1, 1, []any{mdWallPane(0, 1, "3")}})
		k.ok(t, "PUT", "/hduvmps/2_0", mdWallSelf("", 2, 5))
		tlEq(t, "automatic", k.ok(t, "GET", "/hduvmps/2_0", nil)["members"],
			[]any{mdWallPane(0, 1, "1"), mdWallPane(1, 1, "2"), mdWallPane(2, 1, "3")})
		node.hangup(t, mdCt(k), "1")
		tlEq(t, "automatic without the terminal that left", k.ok(t, "GET", "/hduvmps/2_0", nil)["members"],
			[]any{mdWallPane(0, 1, "2"), mdWallPane(1, 1, "3")})

		k.ok(t, "DELETE", "/hduvmps/2_0", nil)
		k.fail(t, 20823, "GET", "/hduvmps/2_0", nil)
		k.fail(t, 20823, "DELETE", "/hduvmps/2_0", nil)
		tlEq(t, "freed", mdWalls(t, admin)["2_0"], []any{"TV wall 2_0", 0, 1})
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/999999/hduvmps", nil), 12103)
	})
}

// A wall's self composition stores only what the catalogue declares: a
// voice_hint sent with the start or the modification (declared for a
// terminal's self composition, not a wall's) is not stored, where it was
// read from the raw parameters and kept.
func TestHDUVMPStoresNoUndeclaredVoiceHint(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 2, 0)
	hint := func(t *testing.T) any {
		t.Helper()
		return k.doc(t)["vc_hduvmps"].([]any)[0].(map[string]any)["voice_hint"]
	}
	p := mdWallSelf("2_0", 1, 2, mdChn(0, 1, "1"))
	p["voice_hint"] = 1
	k.ok(t, "POST", "/hduvmps", p)
	tlEq(t, "stored voice_hint after the start", hint(t), 0)
	p = mdWallSelf("", 0, 1, mdChn(0, 1, "2"))
	p["voice_hint"] = 1
	k.ok(t, "PUT", "/hduvmps/2_0", p)
	tlEq(t, "stored voice_hint after the modification", hint(t), 0)
}
