package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdMembers is a members parameter naming terminals by mt_id.
func mdMembers(ids ...string) []any {
	out := []any{}
	for _, id := range ids {
		out = append(out, map[string]any{"mt_id": id})
	}
	return out
}

// mdFlags reads a flag of terminals' documents.
func mdFlags(t *testing.T, k tlConf, flag string, ids ...string) []int {
	t.Helper()
	var out []int
	for _, id := range ids {
		out = append(out, ctNum(k.mt(t, id)[flag]))
	}
	return out
}

// mdAccounts is a reply member list {account, mt_id} of the terminals
// 10.0.1.<id> that tlStart calls.
func mdAccounts(ids ...string) []any {
	out := []any{}
	for _, id := range ids {
		out = append(out, map[string]any{"account": "10.0.1." + id, "mt_id": id})
	}
	return out
}

// Mixing: start with members, add and remove members, stop; the members'
// mix flags and the conference's mix_enable follow; every refusal leaves
// the mix as it was.
func TestMix(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 1) // 1 to 3 online, 4 offline

		k.fail(t, 20812, "GET", "/mixs/1", nil)
		k.fail(t, 12104, "POST", "/mixs", map[string]any{"mode": 2, "members": mdMembers("1", "9")})
		k.fail(t, 20401, "POST", "/mixs", map[string]any{"mode": 2, "members": mdMembers("1", "4")})
		k.fail(t, 90400, "POST", "/mixs", map[string]any{"mode": 3, "members": mdMembers("1")})
		k.fail(t, 20812, "GET", "/mixs/1", nil)

		k.ok(t, "POST", "/mixs", map[string]any{"mode": 2, "members": mdMembers("1", "2", "1")})
		tlEq(t, "mix", k.ok(t, "GET", "/mixs/1", nil), map[string]any{"success": 1, "mode": 2, "members": mdAccounts("1", "2")})
		tlEq(t, "mix flags", mdFlags(t, k, "mix", "1", "2", "3"), []int{1, 1, 0})
		tlEq(t, "mix_enable", k.ok(t, "GET", "", nil)["mix_enable"], 1)
		k.fail(t, 20811, "POST", "/mixs", map[string]any{"mode": 1, "members": mdMembers("3")})
		k.fail(t, 20812, "GET", "/mixs/2", nil)

		k.ok(t, "POST", "/mixs/1/members", map[string]any{"members": mdMembers("3", "2")})
		tlEq(t, "after adding", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("1", "2", "3"))
		k.fail(t, 20401, "POST", "/mixs/1/members", map[string]any{"members": mdMembers("4")})
		k.fail(t, 20812, "POST", "/mixs/2/members", map[string]any{"members": mdMembers("3")})

		k.ok(t, "DELETE", "/mixs/1/members", map[string]any{"members": mdMembers("2")})
		tlEq(t, "after removing", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("1", "3"))
		tlEq(t, "flags after removing", mdFlags(t, k, "mix", "1", "2", "3"), []int{1, 0, 1})
		k.fail(t, 20814, "DELETE", "/mixs/1/members", map[string]any{"members": mdMembers("1", "2")})
		k.fail(t, 12104, "DELETE", "/mixs/1/members", map[string]any{"members": mdMembers("9")})
		tlEq(t, "refusals change nothing", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("1", "3"))

		// Another domain sees no such conference.
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("GET", k.path("/mixs/1"), nil), 12103)
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/999999/mixs/1", nil), 12103)

		k.ok(t, "DELETE", "/mixs/1", nil)
		k.fail(t, 20812, "GET", "/mixs/1", nil)
		k.fail(t, 20812, "DELETE", "/mixs/1", nil)
		tlEq(t, "flags after stopping", mdFlags(t, k, "mix", "1", "2", "3"), []int{0, 0, 0})
		tlEq(t, "mix_enable after stopping", k.ok(t, "GET", "", nil)["mix_enable"], 0)
	})
}
