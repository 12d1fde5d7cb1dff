package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// mdWallShows reads the terminal each wall of ids shows (view type 7).
func mdWallShows(t *testing.T, k tlConf, ids ...string) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		sp := k.ok(t, "GET", "/hdus/"+id, nil)["specific"].(map[string]any)
		if sp["member_type"] != "7" {
			t.Errorf("wall %s: view type %v, want 7", id, sp["member_type"])
		}
		out = append(out, sp["mt_id"].(string))
	}
	return out
}

// The TV-wall batch poll: its walls show the terminals page by page,
// turning with the clock; pausing holds the page, resuming goes on; after
// num rounds it has stopped and its walls are free.
func TestHDUPoll(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 1)
		walls := []any{map[string]any{"hdu_id": "2_0"}, map[string]any{"hdu_id": "2_1"}}

		tlEq(t, "no poll", k.ok(t, "GET", "/hdupoll", nil), map[string]any{"success": 1, "mode": 0, "state": 0, "num": 0,
			"keep_time": 0, "show_mt_name": 0, "hdus": []any{}, "members": []any{}})
		k.fail(t, 20524, "PUT", "/hdupoll/state", map[string]any{"poll_id": 1, "value": 1})
		k.fail(t, 20401, "POST", "/hdupoll", map[string]any{"mode": 2, "num": 1, "keep_time": 10, "show_mt_name": 0,
			"hdus": walls, "members": mdMembers("1", "4")})
		k.fail(t, 90400, "POST", "/hdupoll", map[string]any{"mode": 2, "show_mt_name": 0, "hdus": walls})
		k.fail(t, 90400, "POST", "/hdupoll", map[string]any{"mode": 1, "show_mt_name": 0, "hdus": []any{}})
		k.fail(t, 12105, "POST", "/hdupoll", map[string]any{"mode": 1, "show_mt_name": 0, "hdus": []any{map[string]any{"hdu_id": "7_7"}}})

		got := k.ok(t, "POST", "/hdupoll", map[string]any{"mode": 2, "num": 1, "keep_time": 10, "show_mt_name": 1,
			"hdus": walls, "members": mdMembers("1", "2", "3")})
		tlEq(t, "poll_id", got["poll_id"], 1)
		tlEq(t, "poll", k.ok(t, "GET", "/hdupoll/1", nil), map[string]any{"success": 1, "mode": 2, "state": 1, "num": 1,
			"keep_time": 10, "show_mt_name": 1, "hdus": walls, "members": mdMembers("1", "2", "3")})
		tlEq(t, "first page", mdWallShows(t, k, "2_0", "2_1"), []string{"1", "2"})
		tlEq(t, "walls of the poll", mdConfWalls(t, k), []string{"2_0", "2_1"})
		tlEq(t, "occupied", mdWalls(t, admin)["2_1"], []any{"TV wall 2_1", 1, 1})
		k.fail(t, 20056, "POST", "/hdus", mdWallView("2_0", "1", "1"))
		k.fail(t, 20056, "DELETE", "/hdus/2_0", nil)
		k.fail(t, 20056, "POST", "/hduvmps", mdWallSelf("2_1", 2, 1))

		env.Advance(t, 10*time.Second)
		tlEq(t, "second page", mdWallShows(t, k, "2_0", "2_1"), []string{"3", ""})
		k.fail(t, 20524, "PUT", "/hdupoll/state", map[string]any{"poll_id": 2, "value": 1})
		k.ok(t, "PUT", "/hdupoll/state", map[string]any{"poll_id": 1, "value": 1})
		tlEq(t, "paused", k.ok(t, "GET", "/hdupoll", nil)["state"], 2)
		env.Advance(t, time.Minute)
		tlEq(t, "paused page", mdWallShows(t, k, "2_0"), []string{"3"})
		k.ok(t, "PUT", "/hdupoll/state", map[string]any{"poll_id": 1, "value": 2})
		tlEq(t, "resumed", k.ok(t, "GET", "/hdupoll", nil)["state"], 1)
		env.Advance(t, 9*time.Second)
		tlEq(t, "resumed page", mdWallShows(t, k, "2_0"), []string{"3"})
		env.Advance(t, time.Second)
		tlEq(t, "round complete", k.ok(t, "GET", "/hdupoll", nil)["state"], 0)
		tlEq(t, "walls free", mdConfWalls(t, k), []string{})
		tlEq(t, "not occupied", mdWalls(t, admin)["2_1"], []any{"TV wall 2_1", 0, 1})
		k.fail(t, 12105, "GET", "/hdus/2_0", nil)
		k.fail(t, 20524, "PUT", "/hdupoll/state", map[string]any{"poll_id": 1, "value": 2})

		// Automatic: the online terminals; a new poll takes the next id.
		got = k.ok(t, "POST", "/hdupoll", map[string]any{"mode": 1, "keep_time": 5, "show_mt_name": 0, "hdus": walls[:1]})
		tlEq(t, "next poll_id", got["poll_id"], 2)
		tlEq(t, "automatic members", k.ok(t, "GET", "/hdupoll", nil)["members"], mdMembers("1", "2", "3"))
		var seen []string
		for i := 0; i < 4; i++ {
			seen = append(seen, mdWallShows(t, k, "2_0")[0])
			env.Advance(t, 5*time.Second)
		}
		tlEq(t, "automatic rotation", seen, []string{"1", "2", "3", "1"})
		k.ok(t, "PUT", "/hdupoll/state", map[string]any{"poll_id": 2, "value": 0})
		tlEq(t, "stopped", k.ok(t, "GET", "/hdupoll", nil)["state"], 0)
		k.ok(t, "POST", "/hdus", mdWallView("2_0", "1", "1"))
	})
}
