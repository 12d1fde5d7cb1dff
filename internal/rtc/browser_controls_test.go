package rtc_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// click presses a button of the page once it is there and enabled.
func click(t *testing.T, ctx context.Context, what, sel string) {
	t.Helper()
	pageShows(t, ctx, what, `(() => { const b = document.querySelector(`+"`"+sel+"`"+`); if (!b || b.disabled) return false; b.click(); return true; })()`)
}

func mtField(t *testing.T, c *testserver.Client, conf, mt, field string) any {
	t.Helper()
	return testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts/"+mt, nil))[field]
}

// The join page's controls in headless Chromium (issue 19, docs/join-page.md): the page's own mute is the terminal's mute in vc (and
// a chair's mute cannot be lifted from the page), the camera button shows
// on the other pages, the chairman's page (logged in, no token) mutes,
// makes speaker and mutes all through the public API, a token-only page
// gets no controls, and an ICE restart through PATCH keeps the media
// flowing.
func TestJoinPageControls(t *testing.T) {
	browsertest.Chromium(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "controls")

	// Ada logs in (the console's login form) and joins from the plain link.
	ada := openBrowser(t)
	step, cancel := browsertest.Patient(t, ada)
	if err := chromedp.Do(step, chromedp.Navigate(env.URL+"/console/"), chromedp.WaitVisible(chromedp.ID("username")),
		chromedp.SendKeys(chromedp.ID("username"), testserver.AdminUser),
		chromedp.SendKeys(chromedp.ID("password"), testserver.AdminPassword),
		chromedp.Click(chromedp.ID("login")), chromedp.WaitVisible(chromedp.ID("top")),
		chromedp.WaitVisible(chromedp.CSS("#push-state.online"))); err != nil { // logged in: the push connection is up
		t.Fatalf("logging in: %v", err)
	}

	cancel()
	joinAs(t, ada, env.URL+"/rtc/join/"+conf, "Ada")
	grace := openBrowser(t)
	joinAs(t, grace, rtcToken(t, c, conf, map[string]any{})["join_url"].(string), "Grace")
	var adaID, graceID string
	waitFor(t, "both online", func() bool {
		a, aOn := terminal(t, c, conf, "Ada")
		g, gOn := terminal(t, c, conf, "Grace")
		adaID, graceID = a, g
		return aOn && gOn
	})

	// A picture composition: the pages show its panes in order.
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/vmps", testserver.Params(t, map[string]any{
		"mode": 1, "layout": 5, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
		"mt_name_style": map[string]any{"font_size": 1, "font_color": "#FF0000", "position": 2},
		"members": []any{
			map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": graceID},
			map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": adaID},
		}})))
	pageShows(t, ada, "the composition's panes on Ada's page", `(() => { const c = document.getElementById('tiles').children;
		return document.getElementById('tiles').className === 'layout-panes' && c[0].dataset.key === 'mt:`+graceID+`' && c[0].dataset.pane === '0' && c[1].dataset.key === 'me' && c[1].dataset.pane === '1'; })()`)
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/vmps/1", nil))
	pageShows(t, ada, "the grid again without a composition", `document.getElementById('tiles').className === 'layout-grid'`)

	// Grace's own mute is her terminal's mute in vc; unmuting lifts it.
	click(t, grace, "Grace's mute button", "#mute")
	waitFor(t, "Grace muted in vc", func() bool { return mtField(t, c, conf, graceID, "mute") == float64(1) })
	pageShows(t, ada, "Grace muted on Ada's page", `!!document.querySelector('#participants li[data-mt="`+graceID+`"].muted')`)
	// Her own page toggles from the roster it has seen: a click before it
	// saw her muted would mute again (the test's race, not the page's).
	pageShows(t, grace, "Grace muted on her own page", `document.getElementById('mute').textContent === 'Unmute'`)
	click(t, grace, "Grace's unmute button", "#mute")
	waitFor(t, "Grace unmuted in vc", func() bool { return mtField(t, c, conf, graceID, "mute") == float64(0) })

	// Her camera button shows on Ada's page.
	click(t, grace, "Grace's camera button", "#camera")
	pageShows(t, ada, "Grace's camera off on Ada's page",
		`!!document.querySelector('#participants li[data-mt="`+graceID+`"] .flags')?.textContent.includes('camera off')`)

	// The chair lowers Grace's loudspeaker (vol_mode 1) through the API:
	// her page plays Ada at it (15, the terminal's default, is full).
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+graceID+"/volume", testserver.Params(t, map[string]any{
		"vol_mode": 1, "vol_value": 3})))
	pageShows(t, grace, "Ada at Grace's volume on Grace's page",
		`document.querySelector('.tile[data-key="mt:`+adaID+`"] video')?.volume === 0.2`)

	// Ada becomes chairman: her page (logged in) offers the controls;
	// Grace's (token) does not.
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/chairman", testserver.Params(t, map[string]any{"mt_id": adaID})))
	pageShows(t, ada, "the chairman's controls", `!document.getElementById('chair-actions').hidden`)
	click(t, ada, "Ada mutes Grace", `#participants li[data-mt="`+graceID+`"] button[data-action="mute"]`)
	waitFor(t, "Grace muted by the chair in vc", func() bool { return mtField(t, c, conf, graceID, "mute") == float64(1) })
	pageShows(t, grace, "the chair's mute on Grace's page", `document.getElementById('room-status').textContent.includes('chair muted you')`)
	// Grace cannot lift the chair's mute.
	click(t, grace, "Grace tries to unmute", "#mute")
	pageShows(t, grace, "the refusal on Grace's page", `document.getElementById('room-status').textContent.includes('Cannot unmute')`)
	if v := mtField(t, c, conf, graceID, "mute"); v != float64(1) {
		t.Fatalf("Grace lifted the chair's mute: mute %v", v)
	}
	// Grace, not the speaker, may not share (dual_mode 0): her page says
	// why, in vc's words.
	step, cancel = browsertest.Patient(t, grace)
	if err := chromedp.Do(step, chromedp.Click(chromedp.ID("share"))); err != nil { // a real click: getDisplayMedia wants a gesture
		t.Fatal(err)
	}
	cancel()
	pageShows(t, grace, "the refused share's reason on Grace's page",
		`document.getElementById('room-status').textContent === 'You cannot share your screen: only the speaker may share a screen in this conference (dual_mode 0).'`)
	click(t, ada, "Ada makes Grace speaker", `#participants li[data-mt="`+graceID+`"] button[data-action="speaker"]`)
	waitFor(t, "Grace the speaker", func() bool {
		s, _ := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/speaker", nil))["mt_id"].(string)
		return s == graceID
	})
	// Grace, the speaker, shares her screen (dual_mode 0: the speaker may):
	// vc's dual stream names her; stopping the share clears it.
	dualOf := func() string {
		d, _ := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/dualstream", nil))["mt_id"].(string)
		return d
	}
	step, cancel = browsertest.Patient(t, grace)
	if err := chromedp.Do(step, chromedp.Click(chromedp.ID("share"))); err != nil { // a real click: getDisplayMedia wants a gesture
		t.Fatal(err)
	}
	cancel()
	waitFor(t, "Grace's share as vc's dual stream", func() bool { return dualOf() == graceID })
	pageShows(t, ada, "Grace's screen on Ada's page", `!!document.querySelector('.tile[data-key="dual"]')`)
	step, cancel = browsertest.Patient(t, grace)
	if err := chromedp.Do(step, chromedp.Click(chromedp.ID("share"))); err != nil {
		t.Fatal(err)
	}
	cancel()
	waitFor(t, "the dual stream cleared by the share's end", func() bool { return dualOf() == "" })

	click(t, ada, "Ada unmutes all", "#unmute-all")
	waitFor(t, "Grace unmuted by the chair", func() bool { return mtField(t, c, conf, graceID, "mute") == float64(0) })

	// Grace's page as chairman: she has only a token, so no controls.
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/chairman", testserver.Params(t, map[string]any{"mt_id": graceID})))
	pageShows(t, grace, "the token-only chairman's note", `!document.getElementById('chair').hidden && document.getElementById('chair-actions').hidden && document.getElementById('chair-note').textContent.includes('Log in')`)
	pageShows(t, ada, "Ada's controls gone", `document.getElementById('chair').hidden`)

	// An ICE restart of Ada's publication (PATCH, RFC 9725 section 4.4.2):
	// a new ETag, and her video keeps reaching Grace's page.
	step, cancel = browsertest.Patient(t, ada)
	defer cancel()
	etags, err := chromedp.Run(step, chromedp.Evaluate[[]string](`(async () => [window.confer.etag(), await window.confer.restartIce()])()`, chromedp.EvalAwaitPromise))
	if err != nil || len(etags) != 2 || etags[1] == "" || etags[0] == etags[1] {
		t.Fatalf("ICE restart from the page: ETag before and after %q, %v", etags, err)
	}
	frames := `(() => { const v = document.querySelector('.tile[data-key="mt:` + adaID + `"] video'); return v ? v.getVideoPlaybackQuality().totalVideoFrames : 0; })()`
	n, err := chromedp.Run(grace, chromedp.Evaluate[int](frames))
	if err != nil {
		t.Fatal(err)
	}
	pageShows(t, grace, "Ada's video still arriving after the restart", frames+` > `+strconv.Itoa(n+30))
	if _, on := terminal(t, c, conf, "Ada"); !on {
		t.Error("Ada offline after the ICE restart")
	}

	// The chair hangs Grace up through the API: her page says so and lets
	// her camera and microphone go.
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts", testserver.Params(t, map[string]any{
		"mts": []any{map[string]any{"mt_id": graceID}}})))
	pageShows(t, grace, "the removal on Grace's page", `!document.getElementById('left').hidden && document.getElementById('left-title').textContent === 'The chair removed you from the conference.'`)
	pageShows(t, grace, "Grace's camera and microphone released", `window.confer.liveTracks() === 0 && !window.confer.polling()`)
}
