package vc_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// openWallPage reads the wall page's state as the page in a screen's
// browser does, with the session cookie of c.
func openWallPage(t *testing.T, env *testserver.Env, c *testserver.Client, id string) {
	t.Helper()
	req, _ := http.NewRequest("GET", env.URL+"/wall/"+id+"/state", nil)
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.Cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("wall %s state: %d", id, resp.StatusCode)
	}
}

// TV walls as configured devices (issue 41, docs/live.md "TV walls"): an
// administrator registers two walls, which replace the simulated set;
// each is online while its page is open, and only then can a conference
// start it; a wall in use cannot be removed.
func TestRegisteredTVWalls(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{RTC: &sfu.Config{}}) // the wall page is served with media
		admin := env.LoggedIn(t)
		admin.Level = "3"
		k := tlStart(t, env, admin, 1, 0)
		tlEq(t, "the simulated set", len(mdWalls(t, admin)), 8)

		reg := func(id, name string) testserver.Reply {
			return admin.Do("POST", "/api/v1/vc/tv_walls", testserver.Params(t, map[string]any{"hdu_id": id, "hdu_name": name}))
		}
		tlEq(t, "the page", testserver.MustOK(t, reg("7_0", "Lobby screen"))["page"], "/wall/7_0")
		testserver.MustOK(t, reg("7_1", "Board room"))
		testserver.MustFail(t, reg("7_1", "again"), wire.CodeInvalidParam)
		testserver.MustFail(t, reg("lobby", "bad id"), wire.CodeInvalidParam)
		testserver.MustFail(t, reg("7_2", ""), wire.CodeInvalidParam)
		carol := env.Account(t, "default", "carol", false)
		testserver.MustFail(t, carol.Do("POST", "/api/v1/vc/tv_walls", testserver.Params(t, map[string]any{"hdu_id": "7_3", "hdu_name": "x"})), wire.CodeNoPermission)

		walls := mdWalls(t, admin)
		tlEq(t, "the registered walls only", len(walls), 2)
		tlEq(t, "7_0 before its page opens", walls["7_0"], []any{"Lobby screen", 0, 0})
		k.fail(t, 20051, "POST", "/hdus", mdWallView("7_0", "1", "1"))

		openWallPage(t, env, admin, "7_0")
		tlEq(t, "7_0 with its page open", mdWalls(t, admin)["7_0"], []any{"Lobby screen", 0, 1})
		k.ok(t, "POST", "/hdus", mdWallView("7_0", "1", "1"))
		tlEq(t, "7_0 in use", mdWalls(t, admin)["7_0"], []any{"Lobby screen", 1, 1})
		testserver.MustFail(t, admin.Do("DELETE", "/api/v1/vc/tv_walls/7_0", nil), 20058)

		// The page closed: offline once it has not asked for a while.
		env.Advance(t, 30*time.Second)
		admin = env.LoggedIn(t)
		admin.Level = "3"
		tlEq(t, "7_1 never opened", mdWalls(t, admin)["7_1"], []any{"Board room", 0, 0})
		tlEq(t, "7_0 30 s after its page closed", mdWalls(t, admin)["7_0"], []any{"Lobby screen", 1, 0})

		testserver.MustOK(t, admin.Do("DELETE", "/api/v1/vc/tv_walls/7_1", nil))
		testserver.MustFail(t, admin.Do("DELETE", "/api/v1/vc/tv_walls/7_1", nil), 12105)
		tlEq(t, "one wall left", len(mdWalls(t, admin)), 1)
		testserver.MustFail(t, carol.Do("DELETE", "/api/v1/vc/tv_walls/7_0", nil), wire.CodeNoPermission)
	})
}
