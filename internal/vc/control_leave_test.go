package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// ctRoles sets terminal 1 as chairman, speaker and dual-stream source and
// makes 1 and 2 the VIPs.
func ctRoles(t *testing.T, k ctConf) {
	t.Helper()
	for _, role := range []string{"/chairman", "/speaker", "/dualstream"} {
		testserver.MustOK(t, k.put(t, role, map[string]any{"mt_id": "1"}))
	}
	testserver.MustOK(t, k.put(t, "/viplist", map[string]any{"mts": []any{
		map[string]any{"mt_id": "1", "cascade_id": "0"}, map[string]any{"mt_id": "2", "cascade_id": "0"}}}))
}

// ctRolesCleared checks that terminal 1 holds no role and that the VIP
// list is vips.
func ctRolesCleared(t *testing.T, k ctConf, vips []any) {
	t.Helper()
	for _, role := range []string{"/chairman", "/speaker", "/dualstream"} {
		cfSame(t, role+" after the terminal left", k.get(t, role)["mt_id"], "")
	}
	cfSame(t, "VIP list after the terminal left", k.get(t, "/viplist")["mts"], vips)
}

// A terminal that leaves the call, hung up or removed, is no longer
// chairman, speaker, dual-stream source or VIP; a hung-up source stops
// sending the dual stream. The leaving is done by a second node on the
// same store (hanging up and removing are other vc endpoints), so this
// also shows that the roles live in the store, not in one process.
func TestControlLeaveClearsRoles(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 3, 0, nil)
		node := ctSecondNode(env)

		ctRoles(t, k)
		cfSame(t, "dual of the source", ctNum(k.mt(t, "1")["dual"]), 1)
		node.hangup(t, k, "1")
		ctRolesCleared(t, k, []any{map[string]any{"mt_id": "2", "cascade_id": "0"}})
		cfSame(t, "dual of the hung-up source", ctNum(k.mt(t, "1")["dual"]), 0)
		testserver.MustFail(t, k.put(t, "/speaker", map[string]any{"mt_id": "1"}), 20401)

		// Terminal 2 holds roles too; removing 2 and 3 clears them.
		testserver.MustOK(t, k.put(t, "/chairman", map[string]any{"mt_id": "2"}))
		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "3"}))
		testserver.MustOK(t, k.put(t, "/dualstream", map[string]any{"mt_id": "2"}))
		node.remove(t, k, "2", "3")
		ctRolesCleared(t, k, []any{})
		testserver.MustFail(t, k.put(t, "/chairman", map[string]any{"mt_id": "2"}), 12104)

		// A terminal without roles leaving changes none of the others'.
		k2 := ctStart(t, env, c, 3, 0, nil)
		ctRoles(t, k2)
		node.hangup(t, k2, "3")
		cfSame(t, "speaker kept", k2.get(t, "/speaker")["mt_id"], "1")
		cfSame(t, "VIPs kept", len(k2.get(t, "/viplist")["mts"].([]any)), 2)

		// Called again, the terminal is online and can take roles again.
		node.hangup(t, k2, "1")
		if err := node.eng.Call(t.Context(), node.conf(t, k2), []string{"1"}); err != nil {
			t.Fatal(err)
		}
		env.Advance(t, 3*time.Second)
		testserver.MustOK(t, k2.put(t, "/speaker", map[string]any{"mt_id": "1"}))
	})
}

// The same through vc's hang-up (DELETE online_mts) and delete (DELETE
// mts) endpoints.
func TestControlLeaveThroughEndpoints(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 3, 0, nil)
		ctRoles(t, k)
		mts := testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": "1"}}})
		testserver.MustOK(t, c.Do("POST", k.path("/online_mts?_method=DELETE"), mts))
		ctRolesCleared(t, k, []any{map[string]any{"mt_id": "2", "cascade_id": "0"}})
		cfSame(t, "dual of the hung-up source", ctNum(k.mt(t, "1")["dual"]), 0)

		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "2"}))
		mts = testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": "2"}}})
		testserver.MustOK(t, c.Do("POST", k.path("/mts?_method=DELETE"), mts))
		ctRolesCleared(t, k, []any{})
	})
}
