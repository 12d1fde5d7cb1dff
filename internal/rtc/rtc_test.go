package rtc_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The media plane as an integrator uses it, end to end through a real
// listener and store: a token from vc's rtc_tokens, a pion WHIP publisher
// that becomes a terminal of the conference, a pion WHEP viewer of the
// broadcast, and vc controls that change what arrives (issue 19).

func startConf(t *testing.T, c *testserver.Client, name string) string {
	t.Helper()
	p := map[string]any{"create_type": 1, "name": name, "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	return testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
}

func rtcToken(t *testing.T, c *testserver.Client, conf string, p map[string]any) map[string]any {
	t.Helper()
	return testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens", testserver.Params(t, p)))
}

func newPC(t *testing.T) *webrtc.PeerConnection { return rtctest.NewPC(t) }

// offer posts pc's complete offer to url and returns the status, the
// session's Location and the body; a 201 sets the answer.
func offer(t *testing.T, pc *webrtc.PeerConnection, url, token string) (int, string, string) {
	t.Helper()
	return offerVia(t, pc, url, token, nil)
}

// offerVia is offer with the media through a lossy relay (nil: direct).
func offerVia(t *testing.T, pc *webrtc.PeerConnection, url, token string, relay *rtctest.Relay) (int, string, string) {
	t.Helper()
	r := rtctest.OfferThrough(t, pc, url, token, nil, relay)
	return r.Status, r.Location, r.Body
}

// netPath is how the test clients reach the node: directly, or through
// rtctest's lossy relay (3 % loss, 20 ms jitter; issue 35).
type netPath struct {
	name  string
	lossy bool
}

var networks = []netPath{{"direct", false}, {"lossy", true}}

// relay returns a new relay for one client on a lossy network, nil on a
// direct one.
func (n netPath) relay(t *testing.T) *rtctest.Relay {
	if !n.lossy {
		return nil
	}
	r := rtctest.NewRelay(t, rtctest.LossyNetwork)
	t.Cleanup(func() { // the media went through it, and lost some
		if sent, lost := r.Stats(); sent < 100 || lost == 0 {
			t.Errorf("the lossy relay carried %d datagrams and lost %d", sent, lost)
		}
	})
	return r
}

// publisher sends Opus packets every 10 ms until the test ends, with an
// RFC 6464 audio level when level is set (0 loudest, 127 silence).
type publisher struct {
	pc    *webrtc.PeerConnection
	sent  atomic.Int64
	level atomic.Int32 // -1: no level extension
}

func publish(t *testing.T, url, token string) *publisher {
	return publishAt(t, url, token, -1)
}

func publishAt(t *testing.T, url, token string, level int32) *publisher {
	t.Helper()
	p := &publisher{pc: newPC(t)}
	p.level.Store(level)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "pub")
	if err != nil {
		t.Fatal(err)
	}
	sender, err := p.pc.AddTrack(tr)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, body := offer(t, p.pc, url, token); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %q", code, body)
	}
	levelID := uint8(0)
	for _, h := range sender.GetParameters().HeaderExtensions {
		if h.URI == sfu.AudioLevelURI {
			levelID = uint8(h.ID)
		}
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for seq := uint16(0); ; seq++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			pkt := &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 480}, Payload: []byte{0xfc, 0xff, 0xfe}}
			if l := p.level.Load(); l >= 0 && levelID != 0 {
				_ = pkt.SetExtension(levelID, []byte{0x80 | byte(l)}) // V bit: voice
			}
			if tr.WriteRTP(pkt) == nil && p.pc.ConnectionState() == webrtc.PeerConnectionStateConnected {
				p.sent.Add(1)
			}
		}
	}()
	return p
}

// viewer counts the audio and video packets a WHEP session receives.
type viewer struct{ audio, video atomic.Int64 }

func view(t *testing.T, url, token string) (*viewer, int) {
	t.Helper()
	v := &viewer{}
	pc := newPC(t)
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
			if tr.Kind() == webrtc.RTPCodecTypeAudio {
				v.audio.Add(1)
			} else {
				v.video.Add(1)
			}
		}
	})
	code, _, _ := offer(t, pc, url, token)
	return v, code
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() { // until go test's -timeout, not a budget of its own
		if browsertest.Expired(t) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// flowing waits until the viewer has n more audio packets.
func (v *viewer) flowing(t *testing.T, n int64) {
	t.Helper()
	from := v.audio.Load()
	waitFor(t, fmt.Sprintf("%d audio packets", n), func() bool { return v.audio.Load() >= from+n })
}

// stopped checks that the viewer's audio stopped while the publisher
// kept sending: counted in the publisher's packets (rtctest.Silenced),
// not in time.
func (v *viewer) stopped(t *testing.T, p *publisher) {
	t.Helper()
	rtctest.Silenced(t, "the viewer's audio", v.audio.Load, p.sent.Load, 30)
}

// onlineTerminal waits until the terminal named alias is online and
// returns its mt_id.
func onlineTerminal(t *testing.T, c *testserver.Client, conf, alias string) string {
	t.Helper()
	var mt string
	waitFor(t, "the publisher online", func() bool {
		id, online := terminal(t, c, conf, alias)
		mt = id
		return online
	})
	return mt
}

// terminal returns the conference's terminal with alias, "" when absent.
func terminal(t *testing.T, c *testserver.Client, conf, alias string) (mtID string, online bool) {
	t.Helper()
	r := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts", nil))
	mts, _ := r["mts"].([]any)
	for _, x := range mts {
		m := x.(map[string]any)
		if m["alias"] == alias {
			id, _ := m["mt_id"].(string)
			return id, m["online"] == float64(1)
		}
	}
	return "", false
}

func TestPublisherIsATerminalAndControlsActOnMedia(t *testing.T) {
	t.Parallel()
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{RTC: &sfu.Config{}})
		c := env.LoggedIn(t)
		conf := startConf(t, c, "media")

		pubTok := rtcToken(t, c, conf, map[string]any{"name": "OBS studio", "role": "publish"})
		for _, f := range []string{"whip_url", "whep_url", "join_url", "expires_at"} {
			if s, _ := pubTok[f].(string); s == "" {
				t.Fatalf("rtc_tokens reply lacks %s: %v", f, pubTok)
			}
		}
		if want := env.URL + "/rtc/whip/" + conf; pubTok["whip_url"] != want {
			t.Errorf("whip_url = %v, want %s", pubTok["whip_url"], want)
		}
		pub := publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))

		// The publisher is a terminal: listed with its name as alias, online.
		var mt string
		waitFor(t, "the publisher online in vc's terminal list", func() bool {
			id, online := terminal(t, c, conf, "OBS studio")
			mt = id
			return online
		})

		// The speaker's audio reaches a WHEP viewer of the broadcast.
		testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
		subTok := rtcToken(t, c, conf, map[string]any{"name": "viewer", "role": "subscribe"})
		v, code := view(t, subTok["whep_url"].(string), subTok["token"].(string))
		if code != http.StatusCreated {
			t.Fatalf("WHEP POST = %d", code)
		}
		v.flowing(t, 20)

		// Mute through vc: the audio stops; unmute: it flows again.
		mute := func(val int) {
			testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": val})))
		}
		mute(1)
		v.stopped(t, pub)
		mute(0)
		v.flowing(t, 20)

		// Hang up through vc: the session ends, the terminal is offline.
		testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
			testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
		if _, online := terminal(t, c, conf, "OBS studio"); online {
			t.Error("the hung-up publisher is still online")
		}
		waitFor(t, "the SFU to drop the session", func() bool { return !slices.Contains(env.Srv.SFU().Participants(conf), mt) })
	})
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "refusals")

	// API side: bad parameters and unknown conferences change nothing.
	testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens", testserver.Params(t, map[string]any{"ttl": 5})), 90400)
	testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens", testserver.Params(t, map[string]any{"role": "admin"})), 90400)
	testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/9999999/rtc_tokens", testserver.Params(t, map[string]any{})), 12103)

	// Media side: the protocol's own statuses.
	sub := rtcToken(t, c, conf, map[string]any{"role": "subscribe"})
	whip := sub["whip_url"].(string)
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := offer(t, pc, whip, "not-a-token"); code != http.StatusUnauthorized {
		t.Errorf("WHIP with a wrong token = %d, want 401", code)
	}
	pc2 := newPC(t)
	if _, err := pc2.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := offer(t, pc2, whip, sub["token"].(string)); code != http.StatusForbidden {
		t.Errorf("WHIP with a subscribe token = %d, want 403", code)
	}
	req, _ := http.NewRequest("POST", whip, strings.NewReader("v=0 garbage"))
	req.Header.Set("Content-Type", "application/sdp")
	pubTok := rtcToken(t, c, conf, map[string]any{"role": "publish"})
	req.Header.Set("Authorization", "Bearer "+pubTok["token"].(string))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("WHIP with a malformed offer = %d, want 400", resp.StatusCode)
	}
	if n := len(env.Srv.SFU().Participants(conf)); n != 0 {
		t.Errorf("refused offers left %d participants", n)
	}
	if id, _ := terminal(t, c, conf, "guest"); id != "" {
		t.Errorf("a refused offer left terminal %s", id)
	}

	// A token dies with its conference.
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+conf, nil))
	pc3 := newPC(t)
	if _, err := pc3.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := offer(t, pc3, whip, pubTok["token"].(string)); code != http.StatusNotFound {
		t.Errorf("WHIP after the conference ended = %d, want 404", code)
	}
}

// Voice activation: with voice_activity_detection on, the publisher that
// stays loudest for vacinterval seconds (read on the engine's clock, moved
// by the test) becomes the speaker, as GET .../speaker shows.
func TestVoiceActivationPicksTheLoudest(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "voices")
	tok := func(name string) map[string]any {
		return rtcToken(t, c, conf, map[string]any{"name": name, "role": "publish"})
	}
	q, l := tok("quiet"), tok("loud")
	publishAt(t, q["whip_url"].(string), q["token"].(string), 60)
	publishAt(t, l["whip_url"].(string), l["token"].(string), 20)
	var loud string
	waitFor(t, "both publishers online", func() bool {
		_, qOn := terminal(t, c, conf, "quiet")
		id, lOn := terminal(t, c, conf, "loud")
		loud = id
		return qOn && lOn
	})
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/vad", testserver.Params(t, map[string]any{"state": 1, "vacinterval": 5})))
	speaker := func() string {
		r := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/speaker", nil))
		s, _ := r["mt_id"].(string)
		return s
	}
	if s := speaker(); s != "" {
		t.Fatalf("speaker %q before anyone held the floor", s)
	}
	waitFor(t, "the loud publisher as speaker", func() bool {
		env.Clock.Advance(time.Second) // the hold is read on the engine's clock
		// Pacing, not a wait: an engine second per 100 ms of the
		// publishers' real audio levels, whose loudness the hold weighs.
		time.Sleep(100 * time.Millisecond)
		return speaker() == loud
	})
}
