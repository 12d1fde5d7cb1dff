package sip_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/testserver"
)

// The SIP terminal's RTP reaches a WHEP viewer as it comes (PCMA, no
// transcoding), a mute from vc stops it, and a WHIP publisher's PCMA
// reaches the terminal (issue 26 "Media bridge"). The WebRTC legs go
// through a lossy relay each (3 % loss, up to 20 ms of jitter, issue 35).
func TestBridgeToWebRTC(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_answer.xml", nil), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	e.waitOnline(t, conf, mt, "the terminal online")
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))

	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "viewer", "role": "subscribe"})))
	var audio atomic.Int64
	var mime atomic.Value
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			if p.PayloadType == 8 {
				mime.Store(tr.Codec().MimeType)
				audio.Add(1)
			}
		}
	})
	if code := rtctest.OfferThrough(t, pc, tok["whep_url"].(string), tok["token"].(string), nil, rtctest.NewRelay(t, rtctest.LossyNetwork)).Status; code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the terminal's PCMA at the viewer", func() bool { return audio.Load() >= 20 })

	// Mute through vc: the terminal's audio no longer reaches the viewer.
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	rtctest.Silenced(t, "the muted terminal's audio at the viewer", audio.Load,
		func() int64 { return int64(e.ua.Stats().RTPReceived) }, 25)

	// A WHIP publisher's PCMA reaches the terminal.
	pub := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "browser", "role": "publish"})))
	ppc := newPC(t)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypePCMA, ClockRate: 8000, Channels: 1}, "audio", "pub")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ppc.AddTrack(tr); err != nil {
		t.Fatal(err)
	}
	if code := rtctest.OfferThrough(t, ppc, pub["whip_url"].(string), pub["token"].(string), nil, rtctest.NewRelay(t, rtctest.LossyNetwork)).Status; code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d", code)
	}
	var pubMt string
	waitFor(t, "the publisher online", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["alias"] == "browser" && online(m) {
				pubMt = m["mt_id"].(string)
				return true
			}
		}
		return false
	})
	// The publisher speaks: the terminal receives the speaker.
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": pubMt})))
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for seq := uint16(0); ; seq++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			_ = tr.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 8, SequenceNumber: seq, Timestamp: uint32(seq) * 160, SSRC: 7},
				Payload: make([]byte, 160)})
		}
	}()
	sent := e.ua.Stats().RTPSent
	waitFor(t, "the publisher's PCMA at the terminal", func() bool { return e.ua.Stats().RTPSent >= sent+20 })
	if m, _ := mime.Load().(string); !strings.EqualFold(m, webrtc.MimeTypePCMA) {
		t.Errorf("viewer's codec %q, want PCMA", m)
	}
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}

func newPC(t *testing.T) *webrtc.PeerConnection { return rtctest.NewPC(t) }

func rtctestOffer(t *testing.T, pc *webrtc.PeerConnection, url, token string) rtctest.Reply {
	return rtctest.Offer(t, pc, url, token, nil)
}

// whepOffer posts pc's complete offer (WHIP or WHEP) and applies the answer.
func whepOffer(t *testing.T, pc *webrtc.PeerConnection, url, token string) int {
	t.Helper()
	return rtctest.Offer(t, pc, url, token, nil).Status
}
