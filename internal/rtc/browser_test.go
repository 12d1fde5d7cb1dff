package rtc_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A person joins from the join_url of rtc_tokens in headless Chromium with
// a fake camera and microphone: the API lists the browser as an online
// terminal, its video reaches a WHEP viewer, a second browser shows in the
// first page's list, and a mute made through vc shows on both pages
// (issue 19 "Evidence").

func openBrowser(t *testing.T) context.Context {
	t.Helper()
	ctx, _ := browsertest.Start(t)
	return ctx
}

func joinAs(t *testing.T, bctx context.Context, url, name string) {
	t.Helper()
	ctx, cancel := browsertest.Patient(t, bctx) // until go test's -timeout
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#join-form[data-ready]")),
		browsertest.Run(`document.getElementById("name").value = ""`), // not the token's name the lobby offers
		chromedp.SendKeys(chromedp.CSS("#name"), name), chromedp.Click(chromedp.CSS("#join")),
		chromedp.WaitVisible(chromedp.CSS("#room"))); err != nil {
		sctx, scancel := context.WithTimeout(bctx, 5*time.Second)
		defer scancel()
		msg, _ := chromedp.Run(sctx, chromedp.Evaluate[string](`location.href + ' | ' + document.body.innerText.slice(0, 300)`))
		t.Fatalf("joining as %s: %v (the page says %q)", name, err, msg)
	}
}

func pageShows(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	ctx, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil { // bounded by ctx only
		t.Fatalf("the page never showed %s: %v", what, err)
	}
}

func TestBrowserJoinsThroughTheAPI(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "browsers")

	first := openBrowser(t)
	joinAs(t, first, rtcToken(t, c, conf, map[string]any{})["join_url"].(string), "Ada")
	var ada string
	waitFor(t, "Ada online in vc's terminal list", func() bool {
		id, online := terminal(t, c, conf, "Ada")
		ada = id
		return online
	})

	sub := rtcToken(t, c, conf, map[string]any{"role": "subscribe"})
	v, code := view(t, sub["whep_url"].(string)+"?mt_id="+ada, sub["token"].(string))
	if code != 201 {
		t.Fatalf("WHEP of Ada = %d", code)
	}
	waitFor(t, "Ada's video at the WHEP viewer", func() bool { return v.video.Load() >= 30 })

	pageShows(t, first, "the conference's name on Ada's page", `document.getElementById('room-title').textContent === 'browsers' && document.title === 'browsers · Confer'`)

	// The lobby offers the name the token carries.
	second := openBrowser(t)
	graceURL := rtcToken(t, c, conf, map[string]any{"name": "Grace Hopper"})["join_url"].(string)
	step, cancel := browsertest.Patient(t, second)
	if err := chromedp.Do(step, chromedp.Navigate(graceURL), chromedp.WaitVisible(chromedp.CSS("#join-form[data-ready]"))); err != nil {
		t.Fatal(err)
	}
	cancel()
	pageShows(t, second, "the token's name and the conference's in Grace's lobby", `document.getElementById('name').value === 'Grace Hopper' && document.getElementById('lobby-title').textContent === 'Join browsers'`)
	joinAs(t, second, graceURL, "Grace")
	var grace string
	waitFor(t, "Grace online in vc's terminal list", func() bool {
		id, online := terminal(t, c, conf, "Grace")
		grace = id
		return online
	})
	pageShows(t, first, "Grace in Ada's participant list",
		`[...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Grace'))`)
	// The page's icon is the node's (the console's), an image, not an error.
	pageShows(t, first, "the page's icon an image", `(() => { if (!window.iconType) { window.iconType = "?";
		fetch(document.querySelector('link[rel="icon"]').href).then((r) => { window.iconType = r.status + " " + r.headers.get("content-type"); }); }
		return window.iconType.startsWith("200 image/"); })()`)

	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+grace+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	pageShows(t, first, "Grace muted in Ada's list", `!!document.querySelector('#participants li[data-mt="`+grace+`"].muted')`)
	pageShows(t, second, "the mute on Grace's own page", `document.getElementById('room-status').textContent.includes('muted')`)
}
