package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/wire"
)

// The dual-stream source: set, moved, cancelled by PUT "" and by DELETE;
// the source terminal's dual is 1 and only its; errors change nothing.
func TestControlDualStream(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 3, 1, nil)
		duals := func() []int {
			var out []int
			for _, id := range []string{"1", "2", "3", "4"} {
				out = append(out, ctNum(k.mt(t, id)["dual"]))
			}
			return out
		}
		del := func(mtID string) testserver.Reply {
			return c.Do("POST", k.path("/dualstream?_method=DELETE"), testserver.Params(t, map[string]any{"mt_id": mtID}))
		}

		cfSame(t, "source at first", k.get(t, "/dualstream")["mt_id"], "")
		testserver.MustOK(t, k.put(t, "/dualstream", map[string]any{"mt_id": "1"}))
		cfSame(t, "source", k.get(t, "/dualstream")["mt_id"], "1")
		cfSame(t, "dual flags", duals(), []int{1, 0, 0, 0})
		testserver.MustOK(t, k.put(t, "/dualstream", map[string]any{"mt_id": "2"}))
		cfSame(t, "moved source", k.get(t, "/dualstream")["mt_id"], "2")
		cfSame(t, "dual flags after the move", duals(), []int{0, 1, 0, 0})

		// Refusals change nothing.
		testserver.MustFail(t, k.put(t, "/dualstream", map[string]any{"mt_id": "99"}), wire.CodeMTNotFound)
		testserver.MustFail(t, k.put(t, "/dualstream", map[string]any{"mt_id": "4"}), vc.CodeMtUnreachable)
		testserver.MustFail(t, k.put(t, "/dualstream", map[string]any{}), wire.CodeInvalidParam)
		testserver.MustFail(t, del("99"), wire.CodeMTNotFound)
		testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/999999/dualstream?_method=DELETE",
			testserver.Params(t, map[string]any{"mt_id": "2"})), wire.CodeConfNotFound)
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/999999/dualstream", nil), wire.CodeConfNotFound)
		cfSame(t, "source after refusals", k.get(t, "/dualstream")["mt_id"], "2")
		cfSame(t, "dual flags after refusals", duals(), []int{0, 1, 0, 0})

		// DELETE of a terminal that is not the source stops nothing.
		testserver.MustOK(t, del("1"))
		cfSame(t, "source after deleting another", k.get(t, "/dualstream")["mt_id"], "2")
		testserver.MustOK(t, del("2"))
		cfSame(t, "source after DELETE", k.get(t, "/dualstream")["mt_id"], "")
		cfSame(t, "dual flags after DELETE", duals(), []int{0, 0, 0, 0})

		testserver.MustOK(t, k.put(t, "/dualstream", map[string]any{"mt_id": "3"}))
		testserver.MustOK(t, k.put(t, "/dualstream", map[string]any{"mt_id": ""}))
		cfSame(t, "source after PUT \"\"", k.get(t, "/dualstream")["mt_id"], "")
		cfSame(t, "dual flags after PUT \"\"", duals(), []int{0, 0, 0, 0})
	})
}

// The dual-stream mode (6.1.0.4.0, API-Level 3) is the conference's
// dual_mode, shown by the info.
func TestControlDualMode(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	c.Level = "3"
	k := ctStart(t, env, c, 1, 0, nil)
	cfSame(t, "dual_mode at first", k.info(t)["dual_mode"], 0)
	testserver.MustOK(t, k.put(t, "/dualmode", map[string]any{"dual_mode": 1}))
	cfSame(t, "dual_mode", k.info(t)["dual_mode"], 1)
	cfSame(t, "dual_mode listed", cfOK(t, c.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)[0].(map[string]any)["dual_mode"], 1)
	testserver.MustFail(t, k.put(t, "/dualmode", map[string]any{"dual_mode": 3}), wire.CodeInvalidParam)
	testserver.MustFail(t, k.put(t, "/dualmode", map[string]any{}), wire.CodeInvalidParam)
	testserver.MustFail(t, c.Do("PUT", "/api/v1/vc/confs/999999/dualmode", testserver.Params(t, map[string]any{"dual_mode": 0})), wire.CodeConfNotFound)
	cfSame(t, "dual_mode after refusals", k.info(t)["dual_mode"], 1)

	c.Level = "2" // 6.1.0.2.0 has no dualmode endpoint
	testserver.MustFail(t, k.put(t, "/dualmode", map[string]any{"dual_mode": 0}), wire.CodeNotSupported)
}
