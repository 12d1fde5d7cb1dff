package rtc_test

import (
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// terminalsNamed returns the conference's terminals with alias: mt_id ->
// online.
func terminalsNamed(t *testing.T, c *testserver.Client, conf, alias string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, x := range testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts", nil))["mts"].([]any) {
		m := x.(map[string]any)
		if m["alias"] == alias {
			out[m["mt_id"].(string)] = m["online"] == float64(1)
		}
	}
	return out
}

// onlyTerminal waits until alias is one terminal, mt, online.
func onlyTerminal(t *testing.T, c *testserver.Client, conf, alias, mt string) {
	t.Helper()
	waitFor(t, alias+" online as terminal "+mt+" and no other", func() bool {
		ts := terminalsNamed(t, c, conf, alias)
		return len(ts) == 1 && ts[mt]
	})
}

// A client that publishes again with the same ?client= id and token is
// the same terminal (issue 35 item 7: every rejoin left an offline
// terminal behind): while its first session still runs (that session
// ends), after its connection was lost (the terminal comes back online),
// and after the node restarted (the restarted node's ghost checks leave
// it online). Another client id is another terminal.
func TestRejoinIsTheSameTerminal(t *testing.T) {
	t.Parallel()
	dsn := testdb.SQLite(t)
	opt := testserver.Options{RTC: &sfu.Config{}, OneNode: true}
	a := testserver.StartNode(t, dsn, nil, opt)
	ca := a.LoggedIn(t)
	conf := startConf(t, ca, "rejoins")
	tok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
	whip := tok["whip_url"].(string) + "?client=page-0123456789abcdef"
	first := publish(t, whip, tok["token"].(string))
	mt := onlineTerminal(t, ca, conf, "camera")

	// The same client again while its session runs: the old session ends.
	second := publish(t, whip, tok["token"].(string))
	onlyTerminal(t, ca, conf, "camera", mt)
	waitFor(t, "the first session closed by the server", func() bool {
		s := first.pc.ConnectionState()
		return s == webrtc.PeerConnectionStateClosed || s == webrtc.PeerConnectionStateFailed
	})
	waitFor(t, "one session in the SFU", func() bool { return a.Srv.SFU().Sessions() == 1 })
	second.flowingTo(t, a, conf, mt)

	// Its connection lost: offline; back with the same id: the same
	// terminal, online again.
	_ = second.pc.Close() // no DELETE
	waitFor(t, "the dropped terminal offline", func() bool { return !terminalsNamed(t, ca, conf, "camera")[mt] })
	third := publish(t, whip, tok["token"].(string))
	onlyTerminal(t, ca, conf, "camera", mt)
	third.flowingTo(t, a, conf, mt)

	// Another client id is another participant.
	publish(t, tok["whip_url"].(string)+"?client=other-0123456789abcdef", tok["token"].(string))
	waitFor(t, "a second terminal for another client", func() bool { return len(terminalsNamed(t, ca, conf, "camera")) == 2 })

	// A bad id is refused.
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	if code, _, body := offer(t, pc, tok["whip_url"].(string)+"?client=short", tok["token"].(string)); code != 400 {
		t.Errorf("?client=short = %d %q, want 400", code, body)
	}

	// The node restarts; the client publishes to it again: the same
	// terminal, which the restarted node's ghost checks leave online.
	a.Kill()
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	cb := b.LoggedIn(t)
	u, _ := url.Parse(whip)
	publish(t, b.URL+u.RequestURI(), tok["token"].(string))
	waitFor(t, "the rejoined terminal in the restarted SFU", func() bool { return slices.Contains(b.Srv.SFU().Participants(conf), mt) })
	for range 5 { // 10 s of the restarted node's ticks
		b.Advance(t, 2*time.Second)
	}
	if ts := terminalsNamed(t, cb, conf, "camera"); !ts[mt] {
		t.Errorf("after the restart the rejoined terminal %s is not online: %v", mt, ts)
	}
}

// flowingTo waits until the SFU holds mt as a participant of conf and the
// publisher's packets keep being sent on a connected session.
func (p *publisher) flowingTo(t *testing.T, n *testserver.Node, conf, mt string) {
	t.Helper()
	waitFor(t, "terminal "+mt+" held by the SFU", func() bool { return slices.Contains(n.Srv.SFU().Participants(conf), mt) })
	from := p.sent.Load()
	waitFor(t, "the publisher connected and sending", func() bool { return p.sent.Load() >= from+20 })
}
