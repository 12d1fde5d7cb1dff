package vc_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// mdWalls reads the platform TV-wall list: hdu_id to {name, occupy}.
func mdWalls(t *testing.T, c *testserver.Client) map[string][]any {
	t.Helper()
	out := map[string][]any{}
	for _, h := range testserver.MustOK(t, c.Do("GET", "/api/v1/vc/hdus", nil))["hdus"].([]any) {
		h := h.(map[string]any)
		out[h["hdu_id"].(string)] = []any{h["hdu_name"], h["occupy"], h["online"]}
	}
	return out
}

// mdConfWalls reads the walls a conference occupies.
func mdConfWalls(t *testing.T, k tlConf) []string {
	t.Helper()
	out := []string{}
	for _, h := range k.ok(t, "GET", "/hdus", nil)["hdus"].([]any) {
		out = append(out, h.(map[string]any)["hdu_id"].(string))
	}
	return out
}

// mdWallView is a wall's selected view of type typ showing mtID.
func mdWallView(id string, typ string, mtID string) map[string]any {
	return map[string]any{"hdu_id": id, "mode": 1, "show_mt_name": 1,
		"specific": map[string]any{"member_type": typ, "mt_id": mtID, "mt_chn_idx": 0}}
}

// TV walls of a conference: the platform list and its occupancy, starting
// walls in the three modes, their channel info as it turns with the clock,
// the alias, stopping, and the errors.
func TestHDU(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		admin.Level = "3"
		k := tlStart(t, env, admin, 3, 1)
		k2 := tlStart(t, env, admin, 1, 0)

		walls := mdWalls(t, admin)
		tlEq(t, "simulated walls", len(walls), 8)
		tlEq(t, "wall 2_3", walls["2_3"], []any{"TV wall 2_3", 0, 1})
		tlEq(t, "no wall yet", mdConfWalls(t, k), []string{})

		// Mode 1, a chosen terminal, then the speaker.
		k.ok(t, "POST", "/hdus", mdWallView("1_0", "1", "1"))
		tlEq(t, "selected view", k.ok(t, "GET", "/hdus/1_0", nil), map[string]any{"success": 1, "hdu_id": "1_0", "mode": 1,
			"show_mt_name": 1, "specific": map[string]any{"member_type": "1", "mt_id": "1", "account": "10.0.1.1", "mt_chn_idx": 0, "vmp_id": ""}})
		tlEq(t, "occupied", mdWalls(t, admin)["1_0"], []any{"TV wall 1_0", 1, 1})
		k.ok(t, "POST", "/hdus", mdWallView("1_0", "2", ""))
		tlEq(t, "no speaker yet", k.ok(t, "GET", "/hdus/1_0", nil)["specific"].(map[string]any)["mt_id"], "")
		k.ok(t, "PUT", "/speaker", map[string]any{"mt_id": "2"})
		tlEq(t, "follows the speaker", k.ok(t, "GET", "/hdus/1_0", nil)["specific"].(map[string]any)["mt_id"], "2")
		k.fail(t, 20823, "POST", "/hdus", map[string]any{"hdu_id": "1_0", "mode": 1, "specific": map[string]any{"member_type": "6"}})
		k.ok(t, "POST", "/vmps", mdVMP(2, 1))
		k.ok(t, "POST", "/hdus", map[string]any{"hdu_id": "1_0", "mode": 1, "specific": map[string]any{"member_type": "6"}})
		tlEq(t, "views the composition", k.ok(t, "GET", "/hdus/1_0", nil)["specific"].(map[string]any)["vmp_id"], "1")

		// Mode 2, four-way split screen.
		k.ok(t, "POST", "/hdus", map[string]any{"hdu_id": "1_1", "mode": 2,
			"spilt": map[string]any{"members": []any{map[string]any{"chn_idx": 3, "mt_id": "3"}, map[string]any{"chn_idx": 0, "mt_id": "1"}}}})
		tlEq(t, "split screen", k.ok(t, "GET", "/hdus/1_1", nil)["spilt"], map[string]any{"members": []any{
			map[string]any{"chn_idx": 0, "mt_id": "1", "account": "10.0.1.1"}, map[string]any{"chn_idx": 3, "mt_id": "3", "account": "10.0.1.3"}}})

		// Mode 3, a single-channel poll turning with the clock.
		k.ok(t, "POST", "/hdus", map[string]any{"hdu_id": "1_2", "mode": 3,
			"poll": map[string]any{"num": 0, "mode": 3, "keep_time": 10, "members": mdMembers("1", "2", "3")}})
		tlEq(t, "wall poll", k.ok(t, "GET", "/hdus/1_2", nil)["poll"], map[string]any{"num": 0, "keep_time": 10, "mode": 3,
			"poll_index": 1, "members": mdAccounts("1", "2", "3")})
		env.Advance(t, 10*time.Second)
		tlEq(t, "wall poll turned", k.ok(t, "GET", "/hdus/1_2", nil)["poll"].(map[string]any)["poll_index"], 2)
		tlEq(t, "conference walls", mdConfWalls(t, k), []string{"1_0", "1_1", "1_2"})

		for _, tc := range []struct {
			name   string
			code   int
			params map[string]any
		}{
			{"unknown wall", 12105, mdWallView("9_9", "1", "1")},
			{"wall of another conference", 20058, mdWallView("1_0", "1", "1")},
			{"offline terminal", 20401, mdWallView("1_3", "1", "4")},
			{"unknown terminal", 12104, mdWallView("1_3", "1", "9")},
			{"view type", 90400, mdWallView("1_3", "5", "1")},
			{"no specific", 90400, map[string]any{"hdu_id": "1_3", "mode": 1}},
			{"split channel", 90400, map[string]any{"hdu_id": "1_3", "mode": 2,
				"spilt": map[string]any{"members": []any{map[string]any{"chn_idx": 4, "mt_id": "1"}}}}},
			{"poll without members", 90400, map[string]any{"hdu_id": "1_3", "mode": 3,
				"poll": map[string]any{"num": 0, "mode": 1, "keep_time": 10, "members": []any{}}}},
		} {
			kk := k
			if tc.name == "wall of another conference" {
				kk = k2
			}
			if r := kk.do(t, "POST", "/hdus", tc.params); r.OK() || r.Code() != tc.code {
				t.Errorf("%s: %s, want %d", tc.name, r.Raw, tc.code)
			}
		}
		k2.ok(t, "POST", "/hdus", mdWallView("1_3", "1", "1"))

		// The alias names the wall in the platform list while it is used.
		k.ok(t, "PUT", "/hdus/1_1/alias", map[string]any{"alias": "Lobby"})
		tlEq(t, "alias", mdWalls(t, admin)["1_1"], []any{"Lobby", 1, 1})
		k.fail(t, 12105, "PUT", "/hdus/2_0/alias", map[string]any{"alias": "x"})
		k.fail(t, 90400, "PUT", "/hdus/1_1/alias", map[string]any{"alias": "a name of more than 16 bytes"})
		admin.Level = "1"
		k.fail(t, 90505, "PUT", "/hdus/1_1/alias", map[string]any{"alias": "x"}) // from 6.1.0.2.0
		admin.Level = "3"

		k.ok(t, "DELETE", "/hdus/1_1", nil)
		k.fail(t, 12105, "DELETE", "/hdus/1_1", nil)
		k.fail(t, 12105, "GET", "/hdus/1_1", nil)
		tlEq(t, "freed", mdWalls(t, admin)["1_1"], []any{"TV wall 1_1", 0, 1})
		tlEq(t, "conference walls after stopping", mdConfWalls(t, k), []string{"1_0", "1_2"})
		k.ok(t, "PUT", "/hdus/1_0/alias", map[string]any{"alias": "Hall"})
		k.ok(t, "PUT", "/hdus/1_0/alias", map[string]any{"alias": ""})
		tlEq(t, "alias cleared", mdWalls(t, admin)["1_0"], []any{"TV wall 1_0", 1, 1})

		// Another domain has its own walls.
		bob := env.Account(t, "other", "bob", true)
		tlEq(t, "other domain's walls", mdWalls(t, bob)["1_0"], []any{"TV wall 1_0", 0, 1})
		testserver.MustFail(t, bob.Do("GET", k.path("/hdus/1_0"), nil), 12103)
	})
}

// A domain's TV walls are its records of kind hdu when it has any: an
// offline wall cannot start, a wall of the simulated set no longer exists.
func TestHDURegistry(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 1, 0)
	for i, online := range []int{1, 0} {
		rec := store.Record{Kind: vc.KindHDU, ID: fmt.Sprintf("5_%d", i), DomainMoid: k.domain,
			Data: []byte(fmt.Sprintf(`{"hdu_name":"lobby %d","online":%d}`, i, online)), CreatedAt: env.Clock.Now(), UpdatedAt: env.Clock.Now()}
		if err := env.Store.CreateRecord(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	tlEq(t, "registered walls", mdWalls(t, admin), map[string][]any{"5_0": {"lobby 0", 0, 1}, "5_1": {"lobby 1", 0, 0}})
	k.fail(t, 20051, "POST", "/hdus", mdWallView("5_1", "1", "1"))
	k.fail(t, 12105, "POST", "/hdus", mdWallView("1_0", "1", "1"))
	k.ok(t, "POST", "/hdus", mdWallView("5_0", "1", "1"))
	tlEq(t, "occupied", mdWalls(t, admin)["5_0"], []any{"lobby 0", 1, 1})
}
