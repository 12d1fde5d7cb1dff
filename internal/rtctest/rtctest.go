// Package rtctest holds the pion WebRTC client of the tests that talk to
// a node's WHIP and WHEP endpoints through a real listener (internal/rtc,
// internal/sip, internal/console): a PeerConnection that a browser would
// make on loopback, and the offer/answer exchange of RFC 9725. Imported by
// tests only.
package rtctest

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/lossy"
	"github.com/confer-platform/confer/internal/sfu"
)

// Relay, RelayOptions, LossyNetwork and NewRelay are internal/lossy's,
// named here for the tests that talk through rtctest's clients.
type (
	Relay        = lossy.Relay
	RelayOptions = lossy.Options
)

// LossyNetwork is issue 35's lossy network (lossy.Network).
var LossyNetwork = lossy.Network

// NewRelay starts a lossy relay (lossy.New).
func NewRelay(t testing.TB, o RelayOptions) *Relay { return lossy.New(t, o) }

// NewPC returns a PeerConnection with pion's default codecs and the RFC
// 6464 audio-level extension (voice activation reads it), gathering
// loopback candidates; it is closed when the test ends.
func NewPC(t testing.TB) *webrtc.PeerConnection {
	t.Helper()
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	me := &webrtc.MediaEngine{}
	if err := me.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	if err := me.RegisterHeaderExtension(webrtc.RTPHeaderExtensionCapability{URI: sfu.AudioLevelURI}, webrtc.RTPCodecTypeAudio); err != nil {
		t.Fatal(err)
	}
	pc, err := webrtc.NewAPI(webrtc.WithSettingEngine(se), webrtc.WithMediaEngine(me)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	return pc
}

// Reply is the answer to a WHIP or WHEP POST.
type Reply struct {
	Status   int
	Location string // the session's URL
	Body     string // the SDP answer, or the reason of a refusal
	Header   http.Header
}

// Offer posts pc's complete offer (all candidates gathered) to url with
// the bearer token ("" none) and the extra headers (a Cookie, say), and
// applies the answer of a 201.
func Offer(t testing.TB, pc *webrtc.PeerConnection, url, token string, extra http.Header) Reply {
	t.Helper()
	return OfferThrough(t, pc, url, token, extra, nil)
}

// OfferThrough is Offer with the media through relay (nil: direct): the
// offer goes without candidates, and the answer's are replaced by the
// relay's address, the relay sending on to the node's.
func OfferThrough(t testing.TB, pc *webrtc.PeerConnection, url, token string, extra http.Header, relay *Relay) Reply {
	t.Helper()
	o, err := pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(o); err != nil {
		t.Fatal(err)
	}
	<-gathered
	sdp := pc.LocalDescription().SDP
	if relay != nil {
		sdp = lossy.Offer(sdp)
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(sdp))
	for k, v := range extra {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/sdp")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusCreated {
		answer := string(b)
		if relay != nil {
			if answer, err = relay.Answer(answer); err != nil {
				t.Fatal(err)
			}
		}
		if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer}); err != nil {
			t.Fatal(err)
		}
	}
	return Reply{Status: resp.StatusCode, Location: resp.Header.Get("Location"), Body: string(b), Header: resp.Header}
}
