package engine_test

import (
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Issue 38 item 7: capacity counted every running conference's
// max_join_mt even with preoccupy_resource 0, so one ordinary account
// that started three conferences of 192 took every port and every other
// domain got 27506. On the platform such a conference takes ports as its
// terminals join (reference 04 preoccupy_resource); only one with
// preoccupy_resource 1 takes them all at once.
func TestPortsTakenAsTerminalsJoin(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Conference: engine.Config{MaxPorts: 500}})
		olga := env.Account(t, "default", "olga", false)
		conf := func(c *testserver.Client, name string, preoccupy int) testserver.Reply {
			return c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": name,
				"bitrate": 1024, "max_join_mt": 192, "duration": 0, "preoccupy_resource": preoccupy}))
		}
		for i := range 3 {
			testserver.MustOK(t, conf(olga, fmt.Sprint("big", i), 0))
		}
		bob := env.Account(t, "other", "bob", true)
		testserver.MustOK(t, conf(bob, "another domain", 0))
		// Preoccupied conferences take their ports at once: two fit in
		// 500, the third does not.
		testserver.MustOK(t, conf(bob, "reserved 1", 1))
		testserver.MustOK(t, conf(olga, "reserved 2", 1))
		testserver.MustFail(t, conf(bob, "reserved 3", 1), wire.CodeNoConfResource)
		testserver.MustOK(t, conf(bob, "as they join", 0))
	})
}
