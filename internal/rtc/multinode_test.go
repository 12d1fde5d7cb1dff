package rtc_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Two nodes on one PostgreSQL database: a conference's media lives on the
// node that first served it; the other node answers its WHIP, WHEP, join
// page and state with 307 to the owner, a client that follows the
// redirect publishes there, and a vc control issued on the other node
// reaches the owner's SFU (docs/media-nodes.md).
func TestTwoNodesOneMediaOwner(t *testing.T) {
	t.Parallel()
	dsn := testdb.Postgres(t)
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "two nodes")

	// A WHEP viewer on A: A serves the conference's media.
	sub := rtcToken(t, ca, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	if !strings.HasPrefix(sub["whep_url"].(string), a.URL) {
		t.Fatalf("A's whep_url %v", sub["whep_url"])
	}
	v, code := view(t, sub["whep_url"].(string), sub["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP on A = %d", code)
	}

	// B answers WHIP with 307 to A, method and body kept.
	pubTok := rtcToken(t, cb, conf, map[string]any{"name": "far", "role": "publish"})
	whipB := pubTok["whip_url"].(string)
	if !strings.HasPrefix(whipB, b.URL) {
		t.Fatalf("B's whip_url %v", whipB)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	o, _ := pc.CreateOffer(nil)
	_ = pc.SetLocalDescription(o)
	for _, r := range []struct{ method, url, body, ctype, want string }{
		{"POST", whipB, o.SDP, "application/sdp", a.URL + "/rtc/whip/" + conf},
		{"POST", strings.Replace(whipB, "/whip/", "/whep/", 1) + "?mt_id=1", o.SDP, "application/sdp", a.URL + "/rtc/whep/" + conf + "?mt_id=1"},
		{"GET", b.URL + "/rtc/join/" + conf, "", "", a.URL + "/rtc/join/" + conf},
		{"GET", b.URL + "/rtc/state/" + conf, "", "", a.URL + "/rtc/state/" + conf},
	} {
		req, _ := http.NewRequest(r.method, r.url, strings.NewReader(r.body))
		if r.ctype != "" {
			req.Header.Set("Content-Type", r.ctype)
		}
		req.Header.Set("Authorization", "Bearer "+pubTok["token"].(string))
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != r.want {
			t.Errorf("%s %s on B = %d Location %q, want 307 to %s", r.method, r.url, resp.StatusCode, resp.Header.Get("Location"), r.want)
		}
	}
	if n := b.Srv.SFU().Sessions(); n != 0 {
		t.Fatalf("B holds %d sessions after redirecting", n)
	}

	// A client that follows the redirect publishes on A.
	pub := publish(t, whipB, pubTok["token"].(string))
	var mt string
	waitFor(t, "the publisher online (seen from B)", func() bool { id, on := terminal(t, cb, conf, "far"); mt = id; return on })
	if got := a.Srv.SFU().Participants(conf); !slices.Contains(got, mt) {
		t.Fatalf("A's participants = %v, want the publisher %s among them", got, mt)
	}
	if n := b.Srv.SFU().Sessions(); n != 0 {
		t.Fatalf("B holds %d sessions", n)
	}

	// Controls issued on B reach A's SFU: speaker, then mute and unmute.
	testserver.MustOK(t, cb.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	v.flowing(t, 20)
	testserver.MustOK(t, cb.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	v.stopped(t, pub)
	testserver.MustOK(t, cb.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 0})))
	v.flowing(t, 20)

	// A hang-up on B closes the publisher's session on A; ending the
	// conference on B ends A's sessions and forgets the owner.
	testserver.MustOK(t, cb.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	waitFor(t, "the hung-up publisher gone from A", func() bool { return !slices.Contains(a.Srv.SFU().Participants(conf), mt) })
	testserver.MustOK(t, cb.Do("DELETE", "/api/v1/mc/confs/"+conf, nil))
	waitFor(t, "A's sessions ended with the conference", func() bool { return a.Srv.SFU().Sessions() == 0 })
}

// TestTwoNodesSpeakerABA: node A sets speaker 2, node B sets 3, node A
// sets 2 again; the media owner (A) shows 2 (issue 35 item 6: A took its
// second 2 as already told and the owner kept B's 3).
func TestTwoNodesSpeakerABA(t *testing.T) {
	t.Parallel()
	dsn := testdb.Postgres(t)
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "speaker A B A")
	tok := rtcToken(t, ca, conf, map[string]any{"name": "viewer", "role": "both"})
	if _, code := view(t, tok["whep_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHEP on A = %d", code)
	}
	var mts []string
	for _, name := range []string{"first", "second"} {
		pt := rtcToken(t, ca, conf, map[string]any{"name": name, "role": "publish"})
		publish(t, pt["whip_url"].(string), pt["token"].(string))
		var mt string
		waitFor(t, name+" online", func() bool { id, on := terminal(t, ca, conf, name); mt = id; return on })
		mts = append(mts, mt)
	}
	speakerOnA := func() string {
		req, _ := http.NewRequest("GET", a.URL+"/rtc/state/"+conf, nil)
		req.Header.Set("Authorization", "Bearer "+tok["token"].(string))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st struct {
			Speaker string `json:"speaker"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st.Speaker
	}
	for i, step := range []struct {
		c  *testserver.Client
		mt string
	}{{ca, mts[0]}, {cb, mts[1]}, {ca, mts[0]}} {
		testserver.MustOK(t, step.c.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": step.mt})))
		if got := speakerOnA(); got != step.mt {
			t.Fatalf("step %d: the owner shows speaker %q, want %q", i, got, step.mt)
		}
	}
}
