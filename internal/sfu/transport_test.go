package sfu

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pion/webrtc/v4"
)

// With a 1:1 NAT address configured, the answer's host candidates carry it
// instead of the interface addresses.
func TestPublicIPInAnswer(t *testing.T) {
	t.Parallel()
	rg := newRig(t, func(c *Config) { c.PublicIPs = []string{"203.0.113.7"}; c.Loopback = false })
	code, _, body := rg.post("/rtc/whep/c1", "sub", clientOffer(t))
	if code != http.StatusCreated {
		t.Fatalf("POST = %d %q", code, body)
	}
	var cands []string
	for _, l := range strings.Split(body, "\r\n") {
		if strings.HasPrefix(l, "a=candidate:") {
			cands = append(cands, l)
		}
	}
	if len(cands) == 0 {
		t.Fatal("answer has no candidates")
	}
	for _, c := range cands {
		if !strings.Contains(c, " 203.0.113.7 ") {
			t.Errorf("candidate without the public address: %s", c)
		}
	}
}

// A client that cannot use UDP reaches the SFU over ICE-TCP.
func TestICETCPFallback(t *testing.T) {
	t.Parallel()
	rg := newRig(t, func(c *Config) { c.TCPPort = 0 })
	p := rg.publish("c1", idA, false, "")
	p.run(idA, &sendOpts{level: 127})

	// A subscriber whose only transport is TCP (active candidates).
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	var se webrtc.SettingEngine
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeTCP4})
	se.SetIncludeLoopbackCandidate(true)
	se.SetICEMulticastDNSMode(0)
	pc, err := webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithSettingEngine(se)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	pair := rg.watchVia(pc, "/rtc/whep/c1?mt_id="+p.mtID)
	if pair.Remote.Protocol != webrtc.ICEProtocolTCP {
		t.Fatalf("selected pair %s, want TCP", pair)
	}
}

// The 201 of WHIP carries what RFC 9725 section 4.3 asks for.
func TestCreatedHeaders(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	req, _ := http.NewRequest(http.MethodPost, rg.srv.URL+"/rtc/whip/c1", strings.NewReader(clientOffer(t)))
	req.Header.Set("Content-Type", "application/sdp")
	req.Header.Set("Authorization", "Bearer pub")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for k, want := range map[string]string{
		"Content-Type":   "application/sdp",
		"Accept-Patch":   "application/trickle-ice-sdpfrag",
		"X-Confer-Mt-Id": "1",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(resp.Header.Get("Location"), PathSession) || resp.Header.Get("ETag") == "" {
		t.Errorf("status %d, Location %q, ETag %q", resp.StatusCode, resp.Header.Get("Location"), resp.Header.Get("ETag"))
	}
}
