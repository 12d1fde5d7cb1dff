package rtc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestRestartTakesGhostsOffline: a node stops (its SFU closes without
// telling the engine, as SIGTERM or kill -9 leaves it) while a WHIP
// publisher is online; the node started again on the same database takes
// the publisher's terminal offline within 10 s of its start, after which
// a mute of it is refused (issue 35 item 4: ghosts stayed online and
// accepted mutes).
func TestRestartTakesGhostsOffline(t *testing.T) {
	dsn := testdb.SQLite(t)
	opt := testserver.Options{RTC: &sfu.Config{}, OneNode: true}
	a := testserver.StartNode(t, dsn, nil, opt)
	ca := a.LoggedIn(t)
	conf := startConf(t, ca, "restarted")
	tok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
	publish(t, tok["whip_url"].(string), tok["token"].(string))
	mt := onlineTerminal(t, ca, conf, "camera")
	// While its SFU holds the publisher, the checks leave it online.
	a.Advance(t, 0)
	a.Advance(t, 5*time.Second)
	if _, on := terminal(t, ca, conf, "camera"); !on {
		t.Fatal("a held participant was taken offline")
	}
	a.Kill()

	b := testserver.StartNode(t, dsn, a.Clock, opt)
	cb := b.LoggedIn(t)
	if _, on := terminal(t, cb, conf, "camera"); !on {
		t.Fatal("the terminal is offline before the restarted node checked it")
	}
	for range 5 { // 10 s of the restarted node's ticks
		b.Advance(t, 2*time.Second)
	}
	if _, on := terminal(t, cb, conf, "camera"); on {
		t.Fatal("the publisher of the stopped node is still online 10 s after the restart")
	}
	if r := cb.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 1})); r.OK() {
		t.Fatalf("a mute of the ghost terminal succeeded: %v", r.Body)
	}
}
