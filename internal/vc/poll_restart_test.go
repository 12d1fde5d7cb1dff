package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A poll, a recording, a playback, a monitor and a selective viewing
// survive a restart and go on with the clock from their stored times.
func TestTimelineRestart(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 3, 0)
		vrsID := tlVRS(t, admin)
		prg := tlRecord(t, k, "before", vrsID, 50*time.Second)
		k.ok(t, "PUT", "/poll", map[string]any{"mode": 1, "num": 0, "keep_time": 10, "members": tlMembers("1", "2", "3")})
		rec := k.ok(t, "POST", "/recorders", tlRec("during", vrsID, 2, "2"))["rec_id"].(string)
		k.ok(t, "PUT", "/playback", tlPlay(prg, vrsID))
		k.ok(t, "POST", "/monitors", tlMonitor(0, "1", "10.9.9.9", 6000))
		k.ok(t, "POST", "/inspections", map[string]any{"mode": 1, "src": map[string]any{"type": 1, "mt_id": "1"}, "dst": map[string]any{"mt_id": "3"}})
		env.Advance(t, 12*time.Second)
		k.ok(t, "PUT", "/recorders/"+rec+"/state", map[string]any{"value": 1, "recorder_mode": 1})

		// The restarted server's clock starts at the fixture time: move it
		// to where the first one was.
		env2 := testserver.Start(t, dsn, testserver.Options{})
		env2.Clock.Advance(env.Clock.Now().Sub(env2.Clock.Now()))
		c2 := env2.LoggedIn(t)
		k2 := tlConf{env: env2, c: c2, id: k.id, domain: k.domain}
		tlWantPoll(t, k2, "/poll", 1, 2, "2")
		got := k2.ok(t, "GET", "/recorders/"+rec, nil)
		tlEq(t, "paused recording", []any{got["state"], got["current_progress"], got["video_name"]}, []any{2, 12, "during"})
		tlWantPlay(t, k2, 2, 12, 50)
		tlEq(t, "monitor", k2.ok(t, "GET", "/monitors/10.9.9.9/6000", nil)["src"].(map[string]any)["mt_id"], "1")
		tlEq(t, "viewing", len(k2.ok(t, "GET", "/inspections", nil)["inspections"].([]any)), 1)

		env2.Advance(t, 8*time.Second)
		tlWantPoll(t, k2, "/poll", 1, 3, "3")
		tlWantPlay(t, k2, 2, 20, 50)
		k2.ok(t, "PUT", "/recorders/"+rec+"/state", map[string]any{"value": 2, "recorder_mode": 1})
		env2.Advance(t, 3*time.Second)
		tlEq(t, "resumed recording", k2.ok(t, "GET", "/recorders/"+rec, nil)["current_progress"], 15)
		env2.Advance(t, 10*time.Second) // no heartbeat for 33 s
		tlEq(t, "monitor released", k2.ok(t, "GET", "/monitors", nil)["monitors"], []any{})
		k2.ok(t, "DELETE", "/recorders/"+rec, map[string]any{"recorder_mode": 1})
		tlEq(t, "program made after the restart", tlProgram(t, k2, rec)["duration"], 25)
	})
}
