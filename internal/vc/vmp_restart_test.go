package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdSnapshot reads every media feature of k.
func mdSnapshot(t *testing.T, k tlConf) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, p := range []string{"/mixs/1", "/vmps/1", "/mtvmps", "/mtvmps/1", "/mtvmps/2", "/hdus", "/hdus/1_0",
		"/hdus/1_1", "/hdus/1_2", "/hdus/2_1", "/hduvmps", "/hduvmps/2_0", "/hdupoll"} {
		out[p] = k.ok(t, "GET", p, nil)
	}
	out["walls"] = mdWalls(t, k.c)
	out["flags"] = []any{mdFlags(t, k, "mix", "1", "2", "3"), mdFlags(t, k, "vmp", "1", "2", "3")}
	return out
}

// Mixing, compositions, TV walls and their polls survive a restart and go
// on turning with the clock from their stored start times.
func TestMediaRestart(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 0)
		mdSetUp(t, k)
		env.Advance(t, 10*time.Second)
		before := mdSnapshot(t, k)
		tlEq(t, "polled second", mdPanes(t, k)[1], "1")

		env2 := testserver.Start(t, dsn, testserver.Options{})
		env2.Clock.Set(env.Clock.Now())
		k2 := tlConf{env: env2, c: env2.LoggedIn(t), id: k.id, domain: k.domain}
		tlEq(t, "after the restart", mdSnapshot(t, k2), before)

		env2.Advance(t, 10*time.Second)
		tlEq(t, "the single-channel poll goes on", mdPanes(t, k2)[1], "3")
		tlEq(t, "the TV-wall batch poll goes on", mdWallShows(t, k2, "2_1"), []string{"2"}) // 2, 3, 2
		tlEq(t, "the TV-wall poll goes on", k2.ok(t, "GET", "/hdus/1_1", nil)["poll"].(map[string]any)["poll_index"], 1)
	})
}
