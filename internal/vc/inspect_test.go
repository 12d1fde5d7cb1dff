package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Selective viewing: a terminal views another (or, the chairman, a
// composition); the viewer's inspection flag follows; cancelling and
// leaving end viewings.
func TestInspections(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 1) // 1 to 3 online; 4 offline
		node := tlSecondNode(env)
		view := func(mode int, src, dst string) map[string]any {
			return map[string]any{"mode": mode, "src": map[string]any{"type": 1, "mt_id": src}, "dst": map[string]any{"mt_id": dst}}
		}
		for _, tc := range []struct {
			code int
			p    map[string]any
		}{
			{wire.CodeMTNotFound, view(1, "1", "9")},
			{wire.CodeMTNotFound, view(1, "9", "2")},
			{20401, view(1, "4", "2")},
			{20401, view(1, "1", "4")},
			{wire.CodeInvalidParam, view(1, "2", "2")},
			{20404, map[string]any{"mode": 1, "src": map[string]any{"type": 2, "mt_id": "1"}, "dst": map[string]any{"mt_id": "2"}}},
		} {
			k.fail(t, tc.code, "POST", "/inspections", tc.p)
		}
		tlEq(t, "after refusals", k.ok(t, "GET", "/inspections", nil)["inspections"], []any{})

		k.ok(t, "POST", "/inspections", view(1, "1", "2"))
		k.ok(t, "POST", "/inspections", view(2, "1", "2"))
		k.ok(t, "POST", "/inspections", view(1, "3", "2")) // replaces 2's video viewing
		tlEq(t, "inspections", k.ok(t, "GET", "/inspections", nil)["inspections"], []any{
			map[string]any{"mode": 2, "src": map[string]any{"type": 1, "mt_id": "1"}, "dst": map[string]any{"mt_id": "2"}},
			map[string]any{"mode": 1, "src": map[string]any{"type": 1, "mt_id": "3"}, "dst": map[string]any{"mt_id": "2"}},
		})
		tlEq(t, "viewer flag", k.mt(t, "2")["inspection"], 1)
		tlEq(t, "source flag", k.mt(t, "1")["inspection"], 0)

		k.ok(t, "POST", "/inspection_channels", map[string]any{"mode": 1,
			"src": map[string]any{"type": 1, "mt_id": "2", "mt_chn_idx": 1}, "dst": map[string]any{"mt_id": "3", "mt_chn_idx": 2}})
		k.ok(t, "PUT", "/chairman", map[string]any{"mt_id": "1"})
		k.ok(t, "POST", "/inspection_channels", map[string]any{"mode": 1,
			"src": map[string]any{"type": 2, "mt_id": "1"}, "dst": map[string]any{"mt_id": "1"}})
		chans := k.ok(t, "GET", "/inspection_channels", nil)["inspections"].([]any)
		tlEq(t, "channel viewing", chans[2], map[string]any{"mode": 1,
			"src": map[string]any{"type": 1, "mt_id": "2", "mt_chn_idx": 1}, "dst": map[string]any{"mt_id": "3", "mt_chn_idx": 2}})
		tlEq(t, "composition viewing", chans[3], map[string]any{"mode": 1,
			"src": map[string]any{"type": 2, "mt_id": "1", "mt_chn_idx": 0}, "dst": map[string]any{"mt_id": "1", "mt_chn_idx": 0}})
		if n := len(k.ok(t, "GET", "/inspections", nil)["inspections"].([]any)); n != 4 {
			t.Fatalf("inspections list %d viewings, want 4", n)
		}

		k.fail(t, wire.CodeInvalidParam, "DELETE", "/inspections/2/3", nil)
		k.fail(t, wire.CodeMTNotFound, "DELETE", "/inspections/9/1", nil)
		k.fail(t, wire.CodeInvalidParam, "DELETE", "/inspection_channels/3/1/x", nil)
		k.ok(t, "DELETE", "/inspections/2/1", nil)
		tlEq(t, "viewer flag with audio left", k.mt(t, "2")["inspection"], 1)
		k.ok(t, "DELETE", "/inspections/2/2", nil)
		k.ok(t, "DELETE", "/inspections/2/2", nil) // nothing left: no change
		tlEq(t, "viewer flag after cancelling", k.mt(t, "2")["inspection"], 0)
		k.ok(t, "DELETE", "/inspection_channels/3/1/1", nil) // another channel: stays
		tlEq(t, "channel 2 kept", k.mt(t, "3")["inspection"], 1)
		k.ok(t, "DELETE", "/inspection_channels/3/1/2", nil)
		tlEq(t, "channel flag", k.mt(t, "3")["inspection"], 0)
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("GET", k.path("/inspection_channels"), nil), wire.CodeConfNotFound)

		// A source that leaves ends the viewing of it.
		k.ok(t, "POST", "/inspections", view(1, "3", "2"))
		node.hangup(t, k, "3")
		tlEq(t, "after the source left", len(k.ok(t, "GET", "/inspections", nil)["inspections"].([]any)), 1)
		tlEq(t, "viewer flag after the source left", k.mt(t, "2")["inspection"], 0)
		node.hangup(t, k, "1")
		tlEq(t, "after the chairman left", k.ok(t, "GET", "/inspections", nil)["inspections"], []any{})
		tlEq(t, "flag of the viewer that left", k.mt(t, "1")["inspection"], 0)
	})
}
