package sfu

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds the Debian chromium (.ci/run installs it when absent).
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CONFER_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Skip("chromium not installed (Debian package chromium; .ci/run installs it): skipping the browser test")
	return ""
}

// browser starts a headless chromium with fake camera and microphone and
// a fresh profile.
func browser(t *testing.T, bin string) context.Context {
	ctx, _ := browserKill(t, bin)
	return ctx
}

// browserKill is browser with a function that kills the browser at once
// (no page unload: like a crash or a pulled cable).
func browserKill(t *testing.T, bin string) (context.Context, func()) {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("allow-loopback-in-peer-connection", true),
		chromedp.Flag("disable-features", "WebRtcHideLocalIpsWithMdns"),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	// The first run starts the browser and must not carry a timeout (it
	// would stop the browser with it).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	return ctx, cancel
}

// joinPage opens the join page, types a name and joins.
func joinPage(t *testing.T, ctx context.Context, url, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS("#name")),
		chromedp.SendKeys(chromedp.CSS("#name"), name),
		chromedp.Click(chromedp.CSS("#join")),
		chromedp.WaitVisible(chromedp.CSS("#room")),
	); err != nil {
		status, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#lobby-status")))
		t.Fatalf("joining %s as %s: %v (page says %q)", url, name, err, status)
	}
}

// pageEval polls a JavaScript condition in the page until it is true.
func pageEval(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("page never showed %s: %v", what, err)
	}
}

// A browser joins through the join page: the engine hears Joined, a pion
// WHEP subscriber receives its video; a second browser and a mute appear in
// the first page's participant list.
func TestBrowserJoin(t *testing.T) {
	bin := chromium(t)
	rg := newRig(t, nil)
	first := browser(t, bin)
	joinPage(t, first, rg.srv.URL+"/rtc/join/c1#token=both", "Ada")
	waitFor(t, "Joined of the browser", func() bool { j, _, _ := rg.ev.snapshot(); return j == 1 })
	rg.ev.mu.Lock()
	p := rg.ev.joined[0]
	rg.ev.mu.Unlock()
	if p.Kind != KindBrowser || p.Name != "Ada" {
		t.Fatalf("Joined(%+v), want a browser named Ada", p)
	}
	ada := "1"

	watcher := rg.subscribe("c1", "?mt_id="+ada, "sub")
	watcher.flowing(t, "video", 30)
	watcher.flowing(t, "audio", 30)

	second := browser(t, bin)
	joinPage(t, second, rg.srv.URL+"/rtc/join/c1#token=both", "Grace")
	grace := ""
	waitFor(t, "Joined of the second browser", func() bool {
		rg.ev.mu.Lock()
		defer rg.ev.mu.Unlock()
		for i, j := range rg.ev.joined {
			if j.Name == "Grace" {
				grace = strconv.Itoa(i + 1)
				return true
			}
		}
		return false
	})
	pageEval(t, first, "Grace in the participant list",
		`[...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Grace'))`)
	// Ada's page subscribes to Grace: a WHEP session serving Ada's member.
	pageEval(t, first, "Grace's tile playing video",
		`(() => { const v = document.querySelector('.tile[data-key="mt:`+grace+`"] video'); return !!v && v.videoWidth > 0; })()`)

	if err := rg.sfu.SetMute("c1", grace, true); err != nil {
		t.Fatal(err)
	}
	pageEval(t, first, "Grace muted in the participant list",
		`!!document.querySelector('#participants li[data-mt="`+grace+`"].muted')`)
	pageEval(t, second, "the chair's mute on Grace's own page",
		`document.getElementById('room-status').textContent.includes('muted')`)

	// The speaker shows large on the other page.
	if err := rg.sfu.SetBroadcast("c1", Broadcast{Speaker: grace}); err != nil {
		t.Fatal(err)
	}
	pageEval(t, first, "Grace's tile large as the speaker",
		`!!document.querySelector('.tile.large[data-key="mt:`+grace+`"]') && !!document.querySelector('#participants li.speaker[data-mt="`+grace+`"]')`)

	// Hang-up: Grace leaves Ada's list and her own page says so.
	if err := rg.sfu.Hangup("c1", grace); err != nil {
		t.Fatal(err)
	}
	pageEval(t, first, "Grace gone from the participant list",
		`![...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Grace'))`)
	pageEval(t, second, "Grace's page showing she left", `!document.getElementById('left').hidden`)

	// A browser that dies without leaving is reported lost.
	third, kill := browserKill(t, bin)
	joinPage(t, third, rg.srv.URL+"/rtc/join/c1#token=both", "Hedy")
	hedy := ""
	waitFor(t, "Joined of the third browser", func() bool {
		rg.ev.mu.Lock()
		defer rg.ev.mu.Unlock()
		for i, j := range rg.ev.joined {
			if j.Name == "Hedy" {
				hedy = strconv.Itoa(i + 1)
				return true
			}
		}
		return false
	})
	pageEval(t, first, "Hedy in the participant list",
		`[...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Hedy'))`)
	kill()
	waitFor(t, "Left(lost) of the killed browser", func() bool {
		_, left, _ := rg.ev.snapshot()
		for _, l := range left {
			if l.mtID == hedy {
				return l.lost
			}
		}
		return false
	})
	pageEval(t, first, "Hedy gone from the participant list",
		`![...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Hedy'))`)
}

// A conference with a password: the page asks for it and joins with it.
func TestBrowserPassword(t *testing.T) {
	bin := chromium(t)
	rg := newRig(t, nil)
	page := browser(t, bin)
	ctx, cancel := context.WithTimeout(page, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(rg.srv.URL+"/rtc/join/locked#token=both"),
		chromedp.WaitVisible(chromedp.CSS("#password")),
		chromedp.SendKeys(chromedp.CSS("#name"), "Lin"),
		chromedp.SendKeys(chromedp.CSS("#password"), "pw"),
		chromedp.Click(chromedp.CSS("#join")),
		chromedp.WaitVisible(chromedp.CSS("#room")),
	); err != nil {
		status, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#lobby-status")))
		t.Fatalf("joining with the password: %v (page says %q)", err, status)
	}
	waitFor(t, "Joined of the browser", func() bool { j, _, _ := rg.ev.snapshot(); return j == 1 })
	pageEval(t, page, "the page's own entry in the list",
		`[...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Lin'))`)
}
