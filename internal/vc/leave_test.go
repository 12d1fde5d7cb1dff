package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// One departure drops the terminal from everything at once: a terminal
// that is chairman, speaker, dual-stream source, VIP and upload terminal
// and takes part in the mix, the composition, the self compositions and
// the TV walls, hung up, holds none of them and its flags are cleared,
// while the others keep theirs (Features.Left decides it as one change,
// leave.go).
func TestLeaveDropsEveryRoleAndFeature(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 0)
		ck := mdCt(k)
		node := ctSecondNode(env)
		ctRoles(t, ck)
		mdSetUp(t, k)
		testserver.MustOK(t, ck.put(t, "/upload", map[string]any{"mt_id": "1"}))
		tlEq(t, "flags of 1 before", []any{mdFlags(t, k, "mix", "1"), mdFlags(t, k, "vmp", "1"), mdFlags(t, k, "dual", "1"), mdFlags(t, k, "upload", "1")},
			[]any{[]int{1}, []int{1}, []int{1}, []int{1}})

		node.hangup(t, ck, "1")
		ctRolesCleared(t, ck, []any{map[string]any{"mt_id": "2", "cascade_id": "0"}})
		tlEq(t, "upload terminal", ck.get(t, "/upload")["mt_id"], "")
		tlEq(t, "flags of 1", []any{mdFlags(t, k, "mix", "1"), mdFlags(t, k, "vmp", "1"), mdFlags(t, k, "dual", "1"), mdFlags(t, k, "upload", "1"), mdFlags(t, k, "rec", "1")},
			[]any{[]int{0}, []int{0}, []int{0}, []int{0}, []int{0}})
		tlEq(t, "mix", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("2", "3"))
		tlEq(t, "flags of the others", []any{mdFlags(t, k, "mix", "2", "3"), mdFlags(t, k, "vmp", "2", "3")},
			[]any{[]int{1, 1}, []int{1, 1}})
		k.fail(t, 20823, "GET", "/mtvmps/1", nil)
		split := k.ok(t, "GET", "/hdus/1_2", nil)["spilt"].(map[string]any)["members"].([]any)
		tlEq(t, "split screen", []any{len(split), split[0].(map[string]any)["mt_id"]}, []any{1, "2"})
	})
}
