package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A terminal that hangs up leaves the terminal recordings it was in and
// loses its rec flag; the recording goes on.
func TestRecordingMemberLeaves(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 2, 0)
	rec := k.ok(t, "POST", "/recorders", tlRec("desk", tlVRS(t, admin), 2, "1", "2"))["rec_id"].(string)
	tlEq(t, "rec flag before", k.mt(t, "1")["rec"], 1)
	k.ok(t, "DELETE", "/online_mts", map[string]any{"mts": []any{map[string]any{"mt_id": "1"}}})
	tlEq(t, "rec flag after hang-up", k.mt(t, "1")["rec"], 0)
	tlEq(t, "rec flag of the other member", k.mt(t, "2")["rec"], 1)
	got := k.ok(t, "GET", "/recorders/"+rec, nil)
	tlEq(t, "members after hang-up", got["members"], []any{map[string]any{"mt_id": "2"}})
	tlEq(t, "state after hang-up", got["state"], 1)
}
