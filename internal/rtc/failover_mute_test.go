package rtc_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// flagsOn reads a participant's mute and silence in a node's
// /rtc/state ("" participant: absent).
func flagsOn(t *testing.T, n *testserver.Node, conf, token, mt string) (present, muted, silenced bool) {
	t.Helper()
	req, _ := http.NewRequest("GET", n.URL+"/rtc/state/"+conf, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		Participants []struct {
			MtID     string `json:"mt_id"`
			Muted    bool   `json:"muted"`
			Silenced bool   `json:"silenced"`
		} `json:"participants"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Participants {
		if p.MtID == mt {
			return true, p.Muted, p.Silenced
		}
	}
	return false, false, false
}

// volumeOn reads the loudspeaker volume a node's /rtc/state gives a
// participant's page (nil: none set, or absent).
func volumeOn(t *testing.T, n *testserver.Node, conf, token, mt string) *int {
	t.Helper()
	req, _ := http.NewRequest("GET", n.URL+"/rtc/state/"+conf, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		Participants []struct {
			MtID   string `json:"mt_id"`
			Volume *int   `json:"volume"`
		} `json:"participants"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Participants {
		if p.MtID == mt {
			return p.Volume
		}
	}
	return nil
}

// TestFailoverKeepsMuteAndSilence: a terminal the chair muted and
// silenced on node A, the media owner, rejoins as the same terminal
// (?client=) through node B after B took the media over: B's SFU holds
// it muted and silenced (and its page at the volume the chair set), its
// viewer hears nothing from it until the chair unmutes it (issue 35: the new owner knew none of the terminals'
// controls).
func TestFailoverKeepsMuteAndSilence(t *testing.T) {
	t.Parallel()
	dsn := testdb.Postgres(t)
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}, MediaLease: failoverLease}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "muted over a failover")
	vcPath := "/api/v1/vc/confs/" + conf

	tok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "both"})
	whip := tok["whip_url"].(string) + "?client=page-0123456789abcdef"
	publish(t, whip, tok["token"].(string))
	mt := onlineTerminal(t, ca, conf, "camera")
	testserver.MustOK(t, ca.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+mt+"/silence", testserver.Params(t, map[string]any{"value": 1})))
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+mt+"/volume", testserver.Params(t, map[string]any{"vol_mode": 1, "vol_value": 4})))
	if _, muted, silenced := flagsOn(t, a, conf, tok["token"].(string), mt); !muted || !silenced {
		t.Fatalf("on A the terminal is muted %v, silenced %v", muted, silenced)
	}

	// A stops; B takes the media over; the client rejoins through B.
	a.Kill()
	a.Clock.Advance(failoverLease)
	waitFor(t, "B the conference's media owner", func() bool { return ownerURL(t, b, conf) == b.URL })
	u, _ := url.Parse(whip)
	pub := publish(t, b.URL+u.RequestURI(), tok["token"].(string))
	waitFor(t, "the rejoined terminal in B's SFU", func() bool { return slices.Contains(b.Srv.SFU().Participants(conf), mt) })
	if _, muted, silenced := flagsOn(t, b, conf, tok["token"].(string), mt); !muted || !silenced {
		t.Errorf("after the failover the rejoined terminal is muted %v, silenced %v on B, want both", muted, silenced)
	}
	if v := volumeOn(t, b, conf, tok["token"].(string), mt); v == nil || *v != 4 {
		t.Errorf("after the failover the rejoined terminal's page plays at volume %v on B, want 4", v)
	}
	sub := rtcToken(t, cb, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	v, code := view(t, sub["whep_url"].(string), sub["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP on B = %d", code)
	}
	v.stopped(t, pub)
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 0})))
	v.flowing(t, 20)
}
