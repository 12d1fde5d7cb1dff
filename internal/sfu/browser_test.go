package sfu

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/lossy"
	"github.com/pion/webrtc/v4"
)

// chromium finds the Debian chromium (.ci/run installs it when absent).
// browser starts a headless chromium with fake camera and microphone and
// a fresh profile.
func browser(t *testing.T) context.Context {
	ctx, _ := browsertest.Start(t)
	return ctx
}

// joinPage opens the join page, types a name and joins.
func joinPage(t *testing.T, ctx context.Context, url, name string) {
	t.Helper()
	ctx, cancel := browsertest.Patient(t, ctx) // until go test's -timeout
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS("#join-form[data-ready]")),
		browsertest.Run(`document.getElementById("name").value = ""`), // not the token's name the lobby offers
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
	ctx, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil { // bounded by ctx only
		t.Fatalf("page never showed %s: %v", what, err)
	}
}

// A browser joins through the join page: the engine hears Joined, a pion
// WHEP subscriber receives its video; a second browser and a mute appear in
// the first page's participant list. Every session's media goes through a
// lossy relay (3 % loss, up to 20 ms of jitter, issue 35).
func TestBrowserJoin(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	rg := newRig(t, nil)
	rg.lossy.Store(&lossy.Network)
	first := browser(t)
	joinPage(t, first, rg.srv.URL+"/rtc/join/c1#token=both", "Ada")
	waitFor(t, "Joined of the browser", func() bool { j, _, _ := rg.ev.snapshot(); return j >= 1 })
	rg.ev.mu.Lock()
	p, ada := rg.ev.joined[0], rg.ev.mts[0]
	rg.ev.mu.Unlock()
	if p.Kind != KindBrowser || p.Name != "Ada" {
		t.Fatalf("Joined(%+v), want a browser named Ada", p)
	}

	watcher := rg.subscribe("c1", "?mt_id="+ada, "sub")
	watcher.flowing(t, "video", 30)
	watcher.flowing(t, "audio", 30)

	second := browser(t)
	joinPage(t, second, rg.srv.URL+"/rtc/join/c1#token=both", "Grace")
	// The mt_id the events gave (a page that reconnects under load joins
	// again with its old number, so a join's index is not its number).
	grace := rg.joinedAs(t, "Grace", 0)
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
	third, kill := browsertest.Start(t)
	joinPage(t, third, rg.srv.URL+"/rtc/join/c1#token=both", "Hedy")
	hedy := rg.joinedAs(t, "Hedy", 0)
	pageEval(t, first, "Hedy in the participant list",
		`[...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Hedy'))`)
	_, before, _ := rg.ev.snapshot()
	kill()
	waitFor(t, "Left(lost) of the killed browser", func() bool {
		_, left, _ := rg.ev.snapshot()
		for _, l := range left[len(before):] {
			if l.mtID == hedy && l.lost {
				return true
			}
		}
		return false
	})
	pageEval(t, first, "Hedy gone from the participant list",
		`![...document.querySelectorAll('#participants li')].some(li => li.textContent.includes('Hedy'))`)
	rg.relayed(t)
}

// A conference with a password: the page asks for it and joins with it.
func TestBrowserPassword(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	rg := newRig(t, nil)
	page := browser(t)
	ctx, cancel := browsertest.Patient(t, page)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(rg.srv.URL+"/rtc/join/locked#token=both"),
		chromedp.WaitVisible(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS("#join-form[data-ready]")),
		browsertest.Run(`document.getElementById("name").value = ""`),
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

// A browser that joins a conference holding a SIP terminal that speaks
// only PCMU sends PCMU (the answer prefers it), so the terminal hears the
// browser without transcoding (issue 26, docs/sip-media.md "Media").
func TestBrowserSpeaksPCMUToASIPTerminal(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	rg := newRig(t, nil)
	pcmu := LocalCodec{MimeType: webrtc.MimeTypePCMU, ClockRate: 8000, Channels: 1, PayloadType: 0}
	phone := newSink()
	if _, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, MtID: "90", Name: "phone", Kind: KindSIP,
		PublishAudio: &pcmu, Receive: SourceBroadcast, AudioOut: phone, AudioCodecs: []LocalCodec{pcmu}}); err != nil {
		t.Fatal(err)
	}
	page := browser(t)
	joinPage(t, page, rg.srv.URL+"/rtc/join/c1#token=both", "Ada")
	waitFor(t, "the browser's PCMU audio at the SIP terminal", func() bool {
		phone.mu.Lock()
		defer phone.mu.Unlock()
		return phone.n > 50 && phone.pts[0] && len(phone.pts) == 1
	})
}
