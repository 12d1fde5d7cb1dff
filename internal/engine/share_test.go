package engine_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Issue 38 items 7 and 12: one user domain took every port and every
// conference of the platform, and every other domain got 27506. With
// --domain-share 50 one domain holds at most half of --max-confs (27505
// beyond) and of --max-ports (27506 beyond; 20301 for terminals added
// beyond it) once the platform has a second user domain; alone, it keeps
// the whole capacity.
func TestDomainShare(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Conference: engine.Config{MaxConfs: 10, MaxPorts: 400, DomainShare: 50}})
		olga := env.Account(t, "default", "olga", false)
		conf := func(c *testserver.Client, name string, size, preoccupy int) testserver.Reply {
			return c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": name,
				"bitrate": 1024, "max_join_mt": size, "duration": 0, "preoccupy_resource": preoccupy}))
		}
		for _, id := range []string{
			testserver.MustOK(t, conf(olga, "alone", 192, 1))["conf_id"].(string),
			testserver.MustOK(t, conf(olga, "alone, beyond half", 32, 1))["conf_id"].(string),
		} {
			testserver.MustOK(t, olga.Do("DELETE", "/api/v1/mc/confs/"+id, nil))
		}

		bob := env.Account(t, "other", "bob", true)
		testserver.MustOK(t, conf(olga, "half", 192, 1))
		testserver.MustFail(t, conf(olga, "beyond the share of ports", 32, 1), wire.CodeNoConfResource)
		testserver.MustOK(t, conf(bob, "the other domain", 192, 1))

		var ids []string
		for i := range 4 { // and "half": 5 of 10
			ids = append(ids, testserver.MustOK(t, conf(olga, fmt.Sprint("small", i), 8, 0))["conf_id"].(string))
		}
		testserver.MustFail(t, conf(olga, "beyond the share of conferences", 8, 0), 27505)
		testserver.MustOK(t, conf(bob, "still room for the other", 8, 0))

		// Terminals added to a conference that takes its ports as they
		// join: the domain's 192 preoccupied ports leave 8.
		mts := func(n int) testserver.Reply {
			var ms []any
			for i := range n {
				ms = append(ms, map[string]any{"account": fmt.Sprintf("10.7.0.%d", i+1), "account_type": 7, "bitrate": 1024, "protocol": 0})
			}
			return olga.Do("POST", "/api/v1/vc/confs/"+ids[0]+"/mts", testserver.Params(t, map[string]any{"mts": ms}))
		}
		testserver.MustOK(t, mts(8))
		env.Advance(t, 3*time.Second) // the simulated terminals answer
		testserver.MustFail(t, olga.Do("POST", "/api/v1/vc/confs/"+ids[1]+"/mts", testserver.Params(t, map[string]any{"mts": []any{
			map[string]any{"account": "10.7.1.1", "account_type": 7, "bitrate": 1024, "protocol": 0}}})), 20301)
	})
}
