package sfu

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pion/webrtc/v4"
)

// clientOffer returns a real browser-like offer (audio+video sendrecv).
func clientOffer(t *testing.T) string {
	t.Helper()
	pc, err := clientAPI(t).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := pc.AddTransceiverFromKind(k); err != nil {
			t.Fatal(err)
		}
	}
	o, err := pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	return o.SDP
}

// Refused offers get their status and leave nothing: no session, no
// participant, no Joined.
func TestRefusedOffers(t *testing.T) {
	t.Parallel()
	rg := newRig(t, func(c *Config) { c.MaxSessions = 3 })
	good := clientOffer(t)
	noFP := strings.Join(filterLines(good, "a=fingerprint:"), "\r\n")
	recvOnly := strings.ReplaceAll(good, "a=sendrecv", "a=recvonly")
	inactive := strings.ReplaceAll(good, "a=sendrecv", "a=inactive")
	// The small conference (limit 1) gets its one participant first.
	occupant := rg.subscribe("small", "", "sub")
	_ = occupant
	cases := []struct {
		name, path, token, sdp string
		want                   int
	}{
		{"garbage SDP", "/rtc/whip/c1", "pub", "hello", http.StatusBadRequest},
		{"no media", "/rtc/whip/c1", "pub", "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n", http.StatusBadRequest},
		{"no fingerprint", "/rtc/whip/c1", "pub", noFP, http.StatusBadRequest},
		{"WHIP sending nothing", "/rtc/whip/c1", "pub", recvOnly, http.StatusUnprocessableEntity},
		{"WHIP all inactive", "/rtc/whip/c1", "pub", inactive, http.StatusUnprocessableEntity},
		{"no token", "/rtc/whip/c1", "", good, http.StatusUnauthorized},
		{"bad token", "/rtc/whip/c1", "nope", good, http.StatusUnauthorized},
		{"subscriber on WHIP", "/rtc/whip/c1", "sub", good, http.StatusForbidden},
		{"publisher on WHEP", "/rtc/whep/c1", "pub", good, http.StatusForbidden},
		{"unknown conference", "/rtc/whip/nope", "pub", good, http.StatusNotFound},
		{"full conference", "/rtc/whip/small", "pub", good, http.StatusConflict},
		{"unknown viewer", "/rtc/whep/c1?viewer=0123", "sub", good, http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			joined, _, _ := rg.ev.snapshot()
			code, loc, body := rg.post(tc.path, tc.token, tc.sdp)
			if code != tc.want {
				t.Fatalf("POST %s = %d %q, want %d", tc.path, code, body, tc.want)
			}
			if loc != "" || body == "" {
				t.Fatalf("refusal has Location %q, body %q", loc, body)
			}
			if n := rg.sfu.Sessions(); n != 1 {
				t.Fatalf("sessions after refusal = %d, want 1 (the occupant)", n)
			}
			if j, _, _ := rg.ev.snapshot(); j != joined {
				t.Fatalf("Joined called for a refused offer")
			}
			if n := rg.sfu.count.Load(); n != 1 {
				t.Fatalf("reserved sessions = %d, want 1", n)
			}
		})
	}
	t.Run("node limit", func(t *testing.T) {
		rg.subscribe("c1", "", "sub")
		rg.subscribe("c1", "", "sub")
		if code, _, body := rg.post("/rtc/whep/c1", "sub", good); code != http.StatusServiceUnavailable {
			t.Fatalf("POST beyond MaxSessions = %d %q, want 503", code, body)
		}
		if n := rg.sfu.Sessions(); n != 3 {
			t.Fatalf("sessions = %d, want 3", n)
		}
	})
	t.Run("wrong content type", func(t *testing.T) {
		if code := rg.do(http.MethodPost, "/rtc/whip/c1", "pub", "text/plain", good); code != http.StatusUnsupportedMediaType {
			t.Fatalf("POST text/plain = %d, want 415", code)
		}
	})
	t.Run("oversized offer", func(t *testing.T) {
		if code, _, _ := rg.post("/rtc/whip/c1", "pub", strings.Repeat("a", maxSDP+1)); code != http.StatusRequestEntityTooLarge {
			t.Fatalf("oversized POST = %d, want 413", code)
		}
	})
}

func filterLines(sdp, prefix string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(sdp, "\r\n"), "\r\n") {
		if !strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return append(out, "")
}

// A publisher that vanishes (no DELETE, no DTLS close) is reported lost
// once ICE fails (the test's timeouts: 1 s + 1 s).
func TestVanishedPublisherIsLost(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	p := rg.publish("c1", idA, false, "")
	p.run(idA, &sendOpts{level: 127})
	sub := rg.subscribe("c1", "?mt_id="+p.mtID, "sub")
	sub.flowing(t, "video/65", 20)
	// Cut the publisher off: its ICE transport stops without a word.
	if err := p.pc.SCTP().Transport().ICETransport().Stop(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "Left(lost) of the vanished publisher", func() bool {
		_, left, _ := rg.ev.snapshot()
		for _, l := range left {
			if l.mtID == p.mtID && l.lost {
				return true
			}
		}
		return false
	})
	if got := rg.sfu.Participants("c1"); len(got) != 1 || got[0] != sub.mtID {
		t.Fatalf("participants = %v, want [%s]", got, sub.mtID)
	}
}

// A conference password and a logged-in user's cookie reach the
// Authorizer through RequestFromContext.
func TestPasswordAndCookie(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	offer := clientOffer(t)
	send := func(path string, hdr map[string]string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, rg.srv.URL+path, strings.NewReader(offer))
		req.Header.Set("Content-Type", "application/sdp")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := send("/rtc/whip/locked", map[string]string{"Authorization": "Bearer pub"}); code != http.StatusUnauthorized || !strings.Contains(body, "password required") {
		t.Fatalf("without the password: %d %q, want 401 password required", code, body)
	}
	if code, body := send("/rtc/whip/locked", map[string]string{"Authorization": "Bearer pub", "X-Confer-Password": "nope"}); code != http.StatusUnauthorized {
		t.Fatalf("wrong password: %d %q, want 401", code, body)
	}
	if code, body := send("/rtc/whip/locked", map[string]string{"Authorization": "Bearer pub", "X-Confer-Password": "pw"}); code != http.StatusCreated {
		t.Fatalf("with the password: %d %q, want 201", code, body)
	}
	if code, body := send("/rtc/whip/c1", nil); code != http.StatusUnauthorized {
		t.Fatalf("no token, no cookie: %d %q, want 401", code, body)
	}
	if code, body := send("/rtc/whip/c1", map[string]string{"Cookie": "confer_session=ok"}); code != http.StatusCreated {
		t.Fatalf("logged-in cookie: %d %q, want 201", code, body)
	}
}
