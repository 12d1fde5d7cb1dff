package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdVMP is the parameters of a conference composition in mode and layout
// with members.
func mdVMP(mode, layout int, members ...any) map[string]any {
	if members == nil {
		members = []any{}
	}
	return map[string]any{"mode": mode, "layout": layout, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
		"mt_name_style": map[string]any{"font_size": 1, "font_color": "#FF0000", "position": 2}, "members": members}
}

// mdChn is a composition channel of type typ showing mtID.
func mdChn(chn, typ int, mtID string) map[string]any {
	return map[string]any{"chn_idx": chn, "member_type": typ, "mt_id": mtID}
}

// mdPane is a reply pane.
func mdPane(chn, typ int, mtID string) map[string]any {
	acct := ""
	if mtID != "" {
		acct = "10.0.1." + mtID
	}
	return map[string]any{"chn_idx": chn, "member_type": typ, "account": acct, "mt_id": mtID, "mt_chn_idx": 0}
}

// mdPanes reads the panes of the composition: chn_idx to mt_id.
func mdPanes(t *testing.T, k tlConf) map[int]string {
	t.Helper()
	out := map[int]string{}
	for _, p := range k.ok(t, "GET", "/vmps/1", nil)["members"].([]any) {
		p := p.(map[string]any)
		out[ctNum(p["chn_idx"])] = p["mt_id"].(string)
	}
	return out
}

// A custom composition: chosen terminals and channels that follow the
// speaker and the chairman, modified with POST and with PUT, stopped;
// the vmp flags and vmp_enable follow.
func TestVMPCustom(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		admin.Level = "3" // except_self is from 6.1.0.2.0
		k := tlStart(t, env, admin, 3, 1)

		k.fail(t, 20823, "GET", "/vmps/1", nil)
		k.ok(t, "POST", "/vmps", mdVMP(1, 5, mdChn(0, 1, "1"), mdChn(1, 2, ""),
			map[string]any{"chn_idx": 3, "members_type": 3})) // seed 001's spelling
		got := k.ok(t, "GET", "/vmps/1", nil)
		tlEq(t, "composition", got, map[string]any{"success": 1, "mode": 1, "layout": 5, "broadcast": 1,
			"voice_hint": 0, "show_mt_name": 1, "except_self": 0,
			"mt_name_style": map[string]any{"font_size": 1, "font_color": "#FF0000", "position": 2},
			"members":       []any{mdPane(0, 1, "1"), mdPane(1, 2, ""), mdPane(3, 3, "")}})
		tlEq(t, "vmp_enable", k.ok(t, "GET", "", nil)["vmp_enable"], 1)
		tlEq(t, "vmp flags", mdFlags(t, k, "vmp", "1", "2", "3"), []int{1, 0, 0})

		// Roles: the following channels show their terminals.
		k.ok(t, "PUT", "/speaker", map[string]any{"mt_id": "2"})
		k.ok(t, "PUT", "/chairman", map[string]any{"mt_id": "3"})
		tlEq(t, "panes following roles", mdPanes(t, k), map[int]string{0: "1", 1: "2", 3: "3"})

		// Modify with POST, then with PUT.
		k.ok(t, "POST", "/vmps/1", mdVMP(1, 2, mdChn(0, 1, "3"), mdChn(1, 1, "2")))
		tlEq(t, "modified", mdPanes(t, k), map[int]string{0: "3", 1: "2"})
		tlEq(t, "flags after modifying", mdFlags(t, k, "vmp", "1", "2", "3"), []int{0, 1, 1})
		p := mdVMP(1, 1, mdChn(0, 1, "1"))
		p["except_self"] = 1
		k.ok(t, "PUT", "/vmps/1", p)
		got = k.ok(t, "GET", "/vmps/1", nil)
		tlEq(t, "modified with PUT", []any{got["layout"], got["except_self"], got["members"]}, []any{1, 1, []any{mdPane(0, 1, "1")}})

		// Refusals change nothing.
		for _, tc := range []struct {
			name   string
			code   int
			params map[string]any
		}{
			{"more members than panes", 20546, mdVMP(1, 2, mdChn(0, 1, "1"), mdChn(1, 1, "2"), mdChn(2, 1, "3"))},
			{"channel outside the layout", 20546, mdVMP(1, 2, mdChn(2, 1, "1"))},
			{"terminal in two channels", 20826, mdVMP(1, 5, mdChn(0, 1, "1"), mdChn(1, 1, "1"))},
			{"two speaker channels", 20827, mdVMP(1, 5, mdChn(0, 2, ""), mdChn(1, 2, ""))},
			{"two conference-poll channels", 20828, mdVMP(1, 5, mdChn(0, 4, ""), mdChn(1, 4, ""))},
			{"two dual-stream channels", 20837, mdVMP(1, 5, mdChn(0, 7, ""), mdChn(1, 7, ""))},
			{"channel given twice", 90400, mdVMP(1, 5, mdChn(0, 1, "1"), mdChn(0, 1, "2"))},
			{"no member type", 90400, mdVMP(1, 5, map[string]any{"chn_idx": 0, "mt_id": "1"})},
			{"member types disagree", 90400, mdVMP(1, 5, map[string]any{"chn_idx": 0, "member_type": 1, "members_type": 2, "mt_id": "1"})},
			{"chosen without terminal", 90400, mdVMP(1, 5, mdChn(0, 1, ""))},
			{"unknown terminal", 12104, mdVMP(1, 5, mdChn(0, 1, "9"))},
			{"offline terminal", 20401, mdVMP(1, 5, mdChn(0, 1, "4"))},
			{"terminal channel it lacks", 20054, mdVMP(1, 5, map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": "1", "mt_chn_idx": 2})},
			{"layout of no style", 90400, mdVMP(1, 9, mdChn(0, 1, "1"))},
			{"batch poll without poll", 90400, mdVMP(4, 5)},
			{"bad colour", 90400, func() map[string]any {
				p := mdVMP(1, 5)
				p["mt_name_style"] = map[string]any{"font_color": "red"}
				return p
			}()},
		} {
			r := k.do(t, "POST", "/vmps/1", tc.params)
			if r.OK() || r.Code() != tc.code {
				t.Errorf("%s: %s, want %d", tc.name, r.Raw, tc.code)
			}
		}
		tlEq(t, "after refusals", mdPanes(t, k), map[int]string{0: "1"})

		k.fail(t, 20822, "POST", "/vmps", mdVMP(1, 1, mdChn(0, 1, "2")))
		k.fail(t, 20823, "GET", "/vmps/2", nil)
		k.fail(t, 20823, "POST", "/vmps/2", mdVMP(1, 1, mdChn(0, 1, "2")))
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/999999/vmps/1", nil), 12103)
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("GET", k.path("/vmps/1"), nil), 12103)

		k.ok(t, "DELETE", "/vmps/1", nil)
		k.fail(t, 20823, "GET", "/vmps/1", nil)
		k.fail(t, 20823, "DELETE", "/vmps/1", nil)
		k.fail(t, 20823, "POST", "/vmps/1", mdVMP(1, 1, mdChn(0, 1, "2")))
		tlEq(t, "vmp_enable after stopping", k.ok(t, "GET", "", nil)["vmp_enable"], 0)
		tlEq(t, "flags after stopping", mdFlags(t, k, "vmp", "1", "2", "3"), []int{0, 0, 0})
	})
}

// Every layout style of reference A2 takes as many members as it has
// panes, and not one more.
func TestVMPLayoutPanes(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 1, 0)
	panes := map[int]int{1: 1, 2: 2, 3: 2, 61: 2, 62: 2, 63: 2, 23: 3, 4: 3, 5: 4, 35: 5, 6: 6, 13: 7, 7: 8, 8: 9,
		18: 10, 38: 11, 39: 12, 19: 13, 17: 14, 20: 15, 11: 16, 46: 17, 48: 18, 51: 19, 14: 20, 54: 21, 56: 22, 59: 24, 27: 25}
	k.ok(t, "POST", "/vmps", mdVMP(1, 1))
	for layout, n := range panes {
		// Channel 0 shows terminal 1, the others follow the chairman
		// (any number of channels may).
		full := []any{mdChn(0, 1, "1")}
		for chn := 1; chn < n; chn++ {
			full = append(full, mdChn(chn, 3, ""))
		}
		if r := k.do(t, "POST", "/vmps/1", mdVMP(1, layout, full...)); !r.OK() {
			t.Errorf("layout %d with %d members: %s", layout, n, r.Raw)
		}
		testserver.MustFail(t, k.do(t, "POST", "/vmps/1", mdVMP(1, layout, append(full, mdChn(n, 3, ""))...)), 20546)
		testserver.MustFail(t, k.do(t, "POST", "/vmps/1", mdVMP(1, layout, mdChn(n, 3, ""))), 20546)
	}
}
