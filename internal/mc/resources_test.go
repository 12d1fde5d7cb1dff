package mc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// cfResources maps max_join_mt to [used, total] of a resources reply.
func cfResources(t testing.TB, c *testserver.Client) map[int][2]int {
	t.Helper()
	body := testserver.MustOK(t, c.Do("GET", "/api/v1/mc/resources", nil))
	cfEqual(t, "resource_type", body["resource_type"], 1)
	out := map[int][2]int{}
	for _, el := range body["resources"].([]any) {
		r := el.(map[string]any)
		out[int(r["max_join_mt"].(float64))] = [2]int{int(r["used"].(float64)), int(r["total"].(float64))}
	}
	return out
}

// Resources report, per conference size, the running conferences and how
// many could run: the sizes share the configured conferences and ports.
func TestResources(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Conference: engine.Config{MaxConfs: 3, MaxPorts: 200}})
		c := env.LoggedIn(t)
		cfEqual(t, "idle", cfResources(t, c), map[int][2]int{8: {0, 3}, 32: {0, 3}, 64: {0, 3}, 192: {0, 1}})
		id := cfCreate(t, c, cfInstant("big", map[string]any{"max_join_mt": 64, "preoccupy_resource": 1}))
		// 64 of 200 ports and 1 of 3 conferences in use: 136 ports, 2 conferences left.
		cfEqual(t, "one 64-party conference", cfResources(t, c),
			map[int][2]int{8: {0, 2}, 32: {0, 2}, 64: {1, 3}, 192: {0, 0}})
		// Another domain's user sees the platform's capacity, not the conference.
		bob := env.Account(t, "other", "bob", false)
		cfEqual(t, "seen by another domain", cfResources(t, bob)[64], [2]int{1, 3})
		cfEqual(t, "bob's conferences", cfTotal(t, bob.Do("GET", "/api/v1/vc/confs", nil)), 0)
		testserver.MustOK(t, c.Do("DELETE", cfPath+"/"+id, nil))
		cfEqual(t, "after the end", cfResources(t, c)[192], [2]int{0, 1})
	})
}

// One platform, a private cloud, whose id conferences carry.
func TestPlatforms(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	body := testserver.MustOK(t, c.Do("GET", "/api/v1/mc/platforms", nil))
	cfEqual(t, "platforms", body["platforms"], []any{map[string]any{
		"name": "private cloud", "platform_id": engine.PlatformID, "type": 1}})
	id := cfCreate(t, c, cfInstant("x", nil))
	cfEqual(t, "platform of a conference", cfGet(t, c, id)["platform_id"], engine.PlatformID)
}
