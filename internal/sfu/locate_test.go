package sfu

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// With Config.Locate naming another node, WHIP, WHEP, the join page and
// the state answer 307 to it (method and body kept), and a client that
// follows the redirect is served there; Locate's "" serves here
// (docs/media-nodes.md).
func TestLocateRedirectsToTheOwner(t *testing.T) {
	t.Parallel()
	owner := newRig(t, nil)
	var (
		mu     sync.Mutex
		claims []bool
	)
	other := newRig(t, func(c *Config) {
		c.Locate = func(_ context.Context, conf string, claim bool) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			claims = append(claims, claim)
			if conf == "c1" {
				return owner.srv.URL, nil
			}
			return "", nil
		}
	})
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, r := range []struct{ method, path, ctype string }{
		{"POST", "/rtc/whip/c1?name=x", "application/sdp"},
		{"POST", "/rtc/whep/c1?mt_id=2", "application/sdp"},
		{"GET", "/rtc/join/c1", ""},
		{"GET", "/rtc/state/c1?since=3", ""},
	} {
		req, _ := http.NewRequest(r.method, other.srv.URL+r.path, strings.NewReader("v=0"))
		if r.ctype != "" {
			req.Header.Set("Content-Type", r.ctype)
		}
		req.Header.Set("Authorization", "Bearer both")
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != owner.srv.URL+r.path {
			t.Errorf("%s %s = %d %q, want 307 to the owner", r.method, r.path, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	mu.Lock()
	if len(claims) != 4 || !claims[0] || !claims[1] || claims[2] || claims[3] {
		t.Errorf("claims asked = %v, want WHIP and WHEP only", claims)
	}
	mu.Unlock()

	// A publisher that follows the redirect is the owner's.
	other.publish("c1", 1, false, "")
	if owner.sfu.Sessions() != 1 || other.sfu.Sessions() != 0 {
		t.Fatalf("sessions: owner %d, other %d; want 1 and 0", owner.sfu.Sessions(), other.sfu.Sessions())
	}
	// Locate "" serves here.
	other.publish("small", 2, false, "")
	if other.sfu.Sessions() != 1 {
		t.Fatalf("a conference the other node serves: %d sessions there", other.sfu.Sessions())
	}
}
