package rtc_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// A TV wall in its split-screen style: channel 0 shows a playback's
// video, channel 1 a WHIP publisher. Its state and WHEP streams need the
// session cookie; the page in Chromium plays the channels.

// wallState reads /wall/{id}/state with the session cookie of c (nil: none).
func wallState(t *testing.T, env *testserver.Env, c *testserver.Client, id string) (int, vc.WallView) {
	t.Helper()
	req, _ := http.NewRequest("GET", env.URL+"/wall/"+id+"/state", nil)
	if c != nil {
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.Cookie})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v vc.WallView
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("state %s: %v", b, err)
		}
	}
	return resp.StatusCode, v
}

// watchWithCookie opens a WHEP viewer with the session cookie of c.
func watchWithCookie(t *testing.T, u string, c *testserver.Client) (*watcher, int) {
	t.Helper()
	prev := http.DefaultClient.Jar
	t.Cleanup(func() { http.DefaultClient.Jar = prev })
	http.DefaultClient.Jar = cookieJar{c.Cookie}
	return watch(t, u, "")
}

type cookieJar struct{ v string }

func (j cookieJar) SetCookies(*url.URL, []*http.Cookie) {}
func (j cookieJar) Cookies(*url.URL) []*http.Cookie {
	return []*http.Cookie{{Name: "SSO_COOKIE_KEY", Value: j.v}}
}

func TestWallChannels(t *testing.T) {
	recDir := t.TempDir()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "wall")
	// Long enough to be playing still when the page, started after the
	// checks below, opens (a 10 s movie had ended on a loaded machine).
	programOf(t, env, recDir, conf, "9101", 120)
	vcPath := "/api/v1/vc/confs/" + conf
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	testserver.MustOK(t, c.Do("POST", vcPath+"/playback", testserver.Params(t, map[string]any{
		"play_dual_stream": 0, "file_name": "movie", "file_id": 9101, "vrs_id": vrsID})))
	pubTok := rtcToken(t, c, conf, map[string]any{"name": "desk", "role": "publish"})
	publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	var movie, desk string
	waitFor(t, "both terminals online", func() bool {
		var on1, on2 bool
		movie, on1 = terminal(t, c, conf, "movie")
		desk, on2 = terminal(t, c, conf, "desk")
		return on1 && on2
	})
	testserver.MustOK(t, c.Do("POST", vcPath+"/hdus", testserver.Params(t, map[string]any{"hdu_id": "1_0", "mode": 2, "show_mt_name": 1,
		"spilt": map[string]any{"members": []any{map[string]any{"chn_idx": 0, "mt_id": movie}, map[string]any{"chn_idx": 1, "mt_id": desk}}}})))

	if code, _ := wallState(t, env, nil, "1_0"); code != http.StatusUnauthorized {
		t.Fatalf("wall state without the session = %d, want 401", code)
	}
	code, v := wallState(t, env, c, "1_0")
	if code != http.StatusOK || v.ConfID != conf || v.Mode != 2 || len(v.Channels) != 2 || v.Channels[0].MtID != movie ||
		v.Channels[1].Name != "desk" || v.Channels[0].WHEP == "" {
		t.Fatalf("wall state = %d %+v", code, v)
	}
	// A channel's stream needs the session; with it, the movie's video arrives.
	if _, code := watch(t, env.URL+v.Channels[0].WHEP, ""); code != http.StatusUnauthorized {
		t.Errorf("wall channel without the session = %d, want 401", code)
	}
	w, code := watchWithCookie(t, env.URL+v.Channels[0].WHEP, c)
	if code != http.StatusCreated {
		t.Fatalf("wall channel with the session = %d", code)
	}
	waitFor(t, "the movie's video on channel 0", func() bool { return w.video.Load() >= 20 })

	// The page shows both channels, the first playing the movie.
	browsertest.Chromium(t)
	ctx, _ := browsertest.Start(t)
	tctx, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if _, err := chromedp.Call(tctx, network.SetCookie, network.SetCookieParams{Name: "SSO_COOKIE_KEY", Value: c.Cookie, URL: env.URL}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(env.URL+"/wall/1_0")); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, "two channels", `document.querySelectorAll('#wall .chn').length === 2 && document.getElementById('wall').className === 'mode-2'`)
	pageShows(t, ctx, "channel 0 playing the movie", `(() => { const v = document.querySelector('.chn[data-chn="0"] video');
		return v && v.videoWidth === 160 && v.currentTime > 0.5; })()`)
	pageShows(t, ctx, "channel 1 with the desk's stream", `(() => { const v = document.querySelector('.chn[data-chn="1"] video');
		return v && !!v.srcObject && v.srcObject.getAudioTracks().length === 1; })()`)
	// Each channel's audio is the conference's mix: the first channel
	// plays it, the second stays muted.
	pageShows(t, ctx, "channel 0 playing the sound, channel 1 muted", `(() => {
		const a = document.querySelector('.chn[data-chn="0"] video'), b = document.querySelector('.chn[data-chn="1"] video');
		return a && b && !a.muted && b.muted; })()`)
}
