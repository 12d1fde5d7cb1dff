package rtc_test

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// previewOffer posts a receive-only offer to the WHEP URL with ?preview=1,
// with the session cookie and the bearer token given ("" for none).
func previewOffer(t *testing.T, url, cookie, token string) (*viewer, int, string) {
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
			}
		}
	})
	h := http.Header{}
	if cookie != "" {
		h.Set("Cookie", (&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie}).String())
	}
	r := rtctest.Offer(t, pc, url+"?preview=1", token, h)
	if r.Status == http.StatusCreated && r.Header.Get("X-Confer-Mt-Id") != "" {
		t.Errorf("a preview was given mt_id %q", r.Header.Get("X-Confer-Mt-Id"))
	}
	return v, r.Status, r.Location
}

// An operator's preview (WHEP ?preview=1 with the login cookie) receives
// the broadcast without becoming a terminal: it is not listed, does not
// count against max_join_mt (a full conference still admits it), and a
// token, even one that may subscribe, cannot open one (docs/media.md
// "Preview").
func TestPreviewIsNoTerminal(t *testing.T) {
	t.Parallel()
	// One participant fills the conference (the SFU's per-conference cap).
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{ConferenceLimit: func(string) int { return 1 }}})
	c := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "preview", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	conf := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)

	pubTok := rtcToken(t, c, conf, map[string]any{"name": "stage", "role": "publish"})
	publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	waitFor(t, "the publisher online", func() bool { _, on := terminal(t, c, conf, "stage"); return on })

	// The conference is full: a join page that watches (a participant)
	// is refused.
	sub := rtcToken(t, c, conf, map[string]any{"role": "subscribe"})
	if _, code := view(t, sub["whep_url"].(string)+"?kind=browser", sub["token"].(string)); code != http.StatusConflict {
		t.Fatalf("a watching join page in a full conference = %d, want 409", code)
	}
	// A token cannot open a preview; nor can nobody.
	if _, code, _ := previewOffer(t, sub["whep_url"].(string), "", sub["token"].(string)); code != http.StatusForbidden {
		t.Errorf("preview with a subscribe token = %d, want 403", code)
	}
	if _, code, _ := previewOffer(t, sub["whep_url"].(string), "", ""); code != http.StatusUnauthorized {
		t.Errorf("preview without credentials = %d, want 401", code)
	}

	// The logged-in operator's preview is admitted and receives the broadcast.
	v, code, loc := previewOffer(t, sub["whep_url"].(string), c.Cookie, "")
	if code != http.StatusCreated {
		t.Fatalf("the operator's preview = %d, want 201", code)
	}
	v.flowing(t, 20)
	r := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts", nil))
	if mts := r["mts"].([]any); len(mts) != 1 {
		t.Errorf("terminals with a preview open: %d, want 1 (the publisher)", len(mts))
	}
	if n := len(env.Srv.SFU().Participants(conf)); n != 1 {
		t.Errorf("SFU participants with a preview open: %d, want 1", n)
	}

	// DELETE ends it (the cookie's session has no token: the id protects it).
	req, _ := http.NewRequest("DELETE", env.URL+loc, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("DELETE of the preview = %d", resp.StatusCode)
	}
	waitFor(t, "the preview's session closed", func() bool { return env.Srv.SFU().Sessions() == 1 })
}

// A WHEP viewer (a player) receives and is no terminal (issue 35): vc's
// terminal lists, the join page's state and the SFU's participants leave
// it out, a full conference still admits it, and its DELETE leaves no
// offline terminal behind.
func TestWHEPViewerIsNoTerminal(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{ConferenceLimit: func(string) int { return 1 }}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "viewers")
	pubTok := rtcToken(t, c, conf, map[string]any{"name": "stage", "role": "publish"})
	publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	onlineTerminal(t, c, conf, "stage")

	sub := rtcToken(t, c, conf, map[string]any{"name": "player", "role": "subscribe"})
	pc := newPC(t)
	var audio atomic.Int64
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
				audio.Add(1)
			}
		}
	})
	r := rtctest.Offer(t, pc, sub["whep_url"].(string), sub["token"].(string), nil)
	if r.Status != http.StatusCreated {
		t.Fatalf("WHEP viewer of a conference holding its one participant = %d %q, want 201", r.Status, r.Body)
	}
	if mt := r.Header.Get("X-Confer-Mt-Id"); mt != "" {
		t.Errorf("the WHEP viewer was given mt_id %s", mt)
	}
	waitFor(t, "the broadcast's audio at the viewer", func() bool { return audio.Load() >= 20 })

	mts := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts", nil))["mts"].([]any)
	if len(mts) != 1 || mts[0].(map[string]any)["alias"] != "stage" {
		t.Errorf("vc lists %v, want only the publisher", mts)
	}
	if ps := env.Srv.SFU().Participants(conf); len(ps) != 1 {
		t.Errorf("SFU participants %v, want only the publisher", ps)
	}
	req, _ := http.NewRequest("GET", env.URL+"/rtc/state/"+conf, nil)
	req.Header.Set("Authorization", "Bearer "+sub["token"].(string))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Participants []struct {
			Name string `json:"name"`
		} `json:"participants"`
	}
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || len(st.Participants) != 1 || st.Participants[0].Name != "stage" {
		t.Errorf("the join page's state lists %+v (%v), want only the publisher", st.Participants, err)
	}

	del, _ := http.NewRequest("DELETE", env.URL+r.Location, nil)
	del.Header.Set("Authorization", "Bearer "+sub["token"].(string))
	resp, err = http.DefaultClient.Do(del)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitFor(t, "the viewer's session closed", func() bool { return env.Srv.SFU().Sessions() == 1 })
	if mts := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts", nil))["mts"].([]any); len(mts) != 1 {
		t.Errorf("after the viewer left vc lists %d terminals, want 1", len(mts))
	}
}
