package rtc_test

import (
	"net/http"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 12: one domain's sessions took all of --rtc-max-sessions
// and another domain's WHEP got 503. With --domain-share 50 and a node
// cap of 4, one domain opens 2 sessions, its third offer is answered 503,
// and the other domain's is served.
func TestMediaSessionsSharedBetweenDomains(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{MaxSessions: 4},
		Conference: engine.Config{DomainShare: 50}})
	a := env.LoggedIn(t)
	b := env.Account(t, "other", "bob", true)
	confA, confB := startConf(t, a, "a"), startConf(t, b, "b")
	for _, name := range []string{"a1", "a2"} {
		tok := rtcToken(t, a, confA, map[string]any{"name": name, "role": "publish"})
		publish(t, tok["whip_url"].(string), tok["token"].(string))
	}
	tok := rtcToken(t, a, confA, map[string]any{"name": "a3", "role": "publish"})
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	if status, _, body := offer(t, pc, tok["whip_url"].(string), tok["token"].(string)); status != http.StatusServiceUnavailable {
		t.Fatalf("the domain's third session: %d %s, want 503 (its share of 4 is 2)", status, body)
	}
	tok = rtcToken(t, b, confB, map[string]any{"name": "b1", "role": "publish"})
	publish(t, tok["whip_url"].(string), tok["token"].(string))
}
