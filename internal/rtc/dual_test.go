package rtc_test

import (
	"net/http"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A screen share (WHIP ?dual=1 for a participant's session, as the join
// page sends it) is the conference's dual stream in vc: GET .../dualstream
// names its terminal while it runs and nothing once it stops; dual_mode
// refuses it with 403 (0: only the speaker); a vc cancel ends it
// (docs/media.md "Dual stream").
func TestScreenShareIsTheDualStream(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	c.Level = "3"
	conf := startConf(t, c, "dual")
	tok := rtcToken(t, c, conf, map[string]any{"name": "presenter", "role": "publish"})
	whip, token := tok["whip_url"].(string), tok["token"].(string)

	// The presenter's camera session: the share names it with ?viewer=.
	cam := newPC(t)
	if _, err := cam.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
		t.Fatal(err)
	}
	code, camLoc, _ := offer(t, cam, whip, token)
	if code != http.StatusCreated {
		t.Fatalf("camera WHIP = %d", code)
	}
	var mt string
	waitFor(t, "the presenter online", func() bool { id, on := terminal(t, c, conf, "presenter"); mt = id; return on })
	dual := func() string {
		s, _ := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/dualstream", nil))["mt_id"].(string)
		return s
	}
	share := func() (int, string) {
		pc := newPC(t)
		if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeVideo, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
			t.Fatal(err)
		}
		code, loc, _ := offer(t, pc, whip+"?dual=1&viewer="+camLoc[len("/rtc/session/"):], token)
		return code, loc
	}

	// dual_mode 0 (the creation's default): only the speaker shares.
	if code, _ := share(); code != http.StatusForbidden {
		t.Fatalf("a share by a terminal that is not the speaker under dual_mode 0 = %d, want 403", code)
	}
	if d := dual(); d != "" {
		t.Fatalf("dual stream after a refused share: %q", d)
	}
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	code, loc := share()
	if code != http.StatusCreated {
		t.Fatalf("the speaker's share = %d, want 201", code)
	}
	if d := dual(); d != mt {
		t.Fatalf("GET dualstream during the share = %q, want %s", d, mt)
	}
	if got := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts/"+mt, nil)); got["dual"] != float64(1) {
		t.Errorf("the sharing terminal's dual = %v, want 1", got["dual"])
	}

	// Stopping the share (DELETE of its session) clears the source.
	req, _ := http.NewRequest("DELETE", env.URL+loc, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitFor(t, "the dual stream cleared", func() bool { return dual() == "" })

	// dual_mode 1: anyone shares; a vc cancel ends the share in the SFU.
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": ""})))
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/dualmode", testserver.Params(t, map[string]any{"dual_mode": 1})))
	if code, _ := share(); code != http.StatusCreated {
		t.Fatalf("a share under dual_mode 1 = %d, want 201", code)
	}
	if d := dual(); d != mt {
		t.Fatalf("GET dualstream = %q, want %s", d, mt)
	}
	sessions := env.Srv.SFU().Sessions()
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/dualstream", testserver.Params(t, map[string]any{"mt_id": mt})))
	waitFor(t, "the share's session closed by the cancel", func() bool { return env.Srv.SFU().Sessions() == sessions-1 })
	if d := dual(); d != "" {
		t.Fatalf("dual stream after the cancel: %q", d)
	}
}
