package sfu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/lossy"
)

// The join page against Jitsi Meet's and LiveKit Meet's (issue 41, docs/join-page.md): these tests drive Debian's chromium with fake devices and
// wait for what the page shows, never for a time.

// sized starts a browser whose page is w×h CSS pixels; extra flags last.
func sized(t *testing.T, w, h int64, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	ctx, _ := browsertest.Start(t, extra...)
	step, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if err := chromedp.Do(step, chromedp.EmulateViewport(w, h)); err != nil {
		t.Fatalf("viewport %dx%d: %v", w, h, err)
	}
	return ctx
}

// pageValue evaluates an expression once.
func pageValue[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	step, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	v, err := chromedp.Run(step, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// fits is true when the page's controls and panel are on screen and every
// tile on stage is 16:9 within a pixel.
const fits = `(() => {
	const inView = (el) => { const r = el.getBoundingClientRect();
		return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5; };
	const tiles = [...document.querySelectorAll('#tiles .tile:not(.offstage)')];
	const stage = document.getElementById('stage').getBoundingClientRect();
	return ['leave', 'mute', 'camera', 'share', 'hand', 'react', 'settings', 'panel', 'participants', 'quality'].every((id) => inView(document.getElementById(id))) &&
		tiles.length > 0 && tiles.every((t) => { const r = t.getBoundingClientRect();
			return r.width > 40 && Math.abs(r.width / r.height - 16 / 9) < 0.02 &&
				r.left >= stage.left - 0.5 && r.right <= stage.right + 0.5 && r.top >= stage.top - 0.5 && r.bottom <= stage.bottom + 0.5; });
})()`

// pictures is true when every tile on stage shows a picture (no
// placeholder: camera off, interrupted) and the page is connected.
const pictures = `document.getElementById('quality').dataset.level !== 'lost' &&
	[...document.querySelectorAll('#tiles .tile:not(.offstage)')].every((t) =>
		!t.classList.contains('video-off') && !t.classList.contains('stalled') && t.querySelector('video').videoWidth > 0)`

// tileCount is the number of tiles on stage.
const tileCount = `document.querySelectorAll('#tiles .tile:not(.offstage)').length`

// screenshot saves the page as name.png in $CONFER_JOIN_SCREENSHOTS when it
// is set (docs/join/ holds the ones the docs show).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("CONFER_JOIN_SCREENSHOTS")
	if dir == "" {
		return
	}
	step, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	png, err := chromedp.Run(step, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// joinedAs returns the mt_id the events gave the participant named name.
func (rg *testRig) joinedAs(t *testing.T, name string, after int) string {
	t.Helper()
	id := ""
	waitFor(t, name+" joined", func() bool {
		rg.ev.mu.Lock()
		defer rg.ev.mu.Unlock()
		for i := after; i < len(rg.ev.joined); i++ {
			if rg.ev.joined[i].Name == name {
				id = rg.ev.mts[i]
				return true
			}
		}
		return false
	})
	return id
}

// playing is true once the tile of key shows a picture that advances by
// more than n frames from now (n: frames counted when first asked).
func framesOf(key string) string {
	return `(() => { const v = document.querySelector('.tile[data-key="` + key + `"] video');
		return v && v.videoWidth > 0 ? v.getVideoPlaybackQuality().totalVideoFrames : 0; })()`
}

func advancing(t *testing.T, ctx context.Context, what, key string) {
	t.Helper()
	pageEval(t, ctx, what+" showing a picture", framesOf(key)+` > 0`)
	n := pageValue[int](t, ctx, framesOf(key))
	pageEval(t, ctx, what+" advancing", framesOf(key)+` > `+strconv.Itoa(n+10))
}

// A laptop (1920×1080) and a phone (390×844) in a conference of three, with
// a WHEP viewer watching: the page names the conference, the lobby offers
// the token's name and the devices, the tiles keep 16:9 and every control is
// on screen, in the grid and with a speaker; the viewer is in no list; a
// camera turned off shows the name; levels and connection quality show; a
// second camera can be chosen while joined.
func TestJoinPageLayout(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	rg := newRig(t, nil)
	// Two fake cameras on the laptop (Chromium's device-count option).
	laptop := sized(t, 1920, 1080, chromedp.Flag("use-fake-device-for-media-stream", "device-count=2"))
	step, cancel := browsertest.Patient(t, laptop)
	if err := chromedp.Do(step, chromedp.Navigate(rg.srv.URL+"/rtc/join/c1#token=both"),
		chromedp.WaitVisible(chromedp.CSS("#join-form[data-ready]"))); err != nil {
		t.Fatal(err)
	}
	cancel()
	if name := pageValue[string](t, laptop, `document.getElementById('name').value`); name != "user-both" {
		t.Errorf("the lobby offers the name %q, want the token's user-both", name)
	}
	if title := pageValue[string](t, laptop, `document.getElementById('lobby-title').textContent + ' | ' + document.title`); title != "Join Conference c1 | Conference c1 · Confer" {
		t.Errorf("the lobby is titled %q", title)
	}
	pageEval(t, laptop, "two cameras and a microphone to choose from",
		`document.getElementById('camera-select').options.length === 2 && document.getElementById('mic-select').options.length >= 1`)
	pageEval(t, laptop, "the lobby's preview showing the camera", `document.getElementById('preview').videoWidth > 0`)
	screenshot(t, laptop, "lobby-1920")
	joinPage(t, laptop, rg.srv.URL+"/rtc/join/c1#token=both", "Ada")
	ada := rg.joinedAs(t, "Ada", 0)

	phone := sized(t, 390, 844)
	step, cancel = browsertest.Patient(t, phone)
	if err := chromedp.Do(step, chromedp.Navigate(rg.srv.URL+"/rtc/join/c1#token=both"),
		chromedp.WaitVisible(chromedp.CSS("#join-form[data-ready]"))); err != nil {
		t.Fatal(err)
	}
	cancel()
	pageEval(t, phone, "the phone's lobby on screen", `(() => { const r = (id) => document.getElementById(id).getBoundingClientRect();
		return document.getElementById('preview').videoWidth > 0 && ['preview', 'name', 'join', 'camera-select', 'mic-select'].every((id) => r(id).left >= 0 && r(id).right <= innerWidth + 0.5 && r(id).width > 0); })()`)
	screenshot(t, phone, "lobby-390")
	joinPage(t, phone, rg.srv.URL+"/rtc/join/c1#token=both", "Grace")
	grace := rg.joinedAs(t, "Grace", 0)
	// A third participant on a small laptop (1280×720, where tiles were
	// once portrait crops of a third of the picture) and a WHEP viewer.
	small := sized(t, 1280, 720)
	joinPage(t, small, rg.srv.URL+"/rtc/join/c1#token=both", "Hedy")
	hedy := rg.joinedAs(t, "Hedy", 0)
	viewer := rg.viewer("c1", "?mt_id="+ada+"&name=Viewer", "sub")
	_ = viewer // it watches Ada (TestWHEPViewerWatches checks what a viewer receives)
	rg.ev.mu.Lock()
	for _, p := range rg.ev.joined {
		if p.Name == "Viewer" {
			t.Errorf("the WHEP viewer was announced as a participant: %+v", p)
		}
	}
	rg.ev.mu.Unlock()

	for _, p := range []struct {
		name string
		ctx  context.Context
	}{{"laptop", laptop}, {"phone", phone}, {"small laptop", small}} {
		pageEval(t, p.ctx, "three tiles on the "+p.name, tileCount+` === 3`)
		pageEval(t, p.ctx, "the "+p.name+"'s controls on screen and 16:9 tiles", fits)
		pageEval(t, p.ctx, "three participants and no viewer on the "+p.name, `(() => {
			const li = [...document.querySelectorAll('#participants li')];
			return li.length === 3 && !li.some((x) => x.textContent.includes('Viewer')); })()`)
		pageEval(t, p.ctx, "the conference's name on the "+p.name, `document.getElementById('room-title').textContent === 'Conference c1'`)
		pageEval(t, p.ctx, "a connection quality on the "+p.name, `['good', 'fair', 'poor'].includes(document.getElementById('quality').dataset.level)`)
	}
	advancing(t, laptop, "Grace's tile on the laptop", "mt:"+grace)
	advancing(t, phone, "Ada's tile on the phone", "mt:"+ada)
	advancing(t, small, "Grace's tile on the small laptop", "mt:"+grace)
	advancing(t, laptop, "Hedy's tile on the laptop", "mt:"+hedy)
	// Chromium's fake microphone beeps: the meters move.
	// (Queries may find no tile while a subscription heals: "?.".)
	pageEval(t, laptop, "Grace's level on the laptop", `!['0%', '', undefined].includes(document.querySelector('.tile[data-key="mt:`+grace+`"] .meter i')?.style.width)`)
	pageEval(t, laptop, "Grace's tile outlined as speaking on the laptop", `!!document.querySelector('.tile[data-key="mt:`+grace+`"]')?.classList.contains('speaking')`)
	pageEval(t, laptop, "a connection quality on each tile of the laptop", `[...document.querySelectorAll('.tile[data-key^="mt:"] .dot')].every((d) => ['good', 'fair', 'poor'].includes(d.dataset.level))`)
	pageEval(t, laptop, "the laptop's own level", `!['0%', '', undefined].includes(document.querySelector('.tile[data-key="me"] .meter i')?.style.width)`)
	for _, p := range []struct {
		name string
		ctx  context.Context
	}{{"grid-1920", laptop}, {"grid-390", phone}, {"grid-1280", small}} {
		pageEval(t, p.ctx, "every picture in "+p.name, pictures)
		screenshot(t, p.ctx, p.name)
	}

	// A speaker: large over a strip, still 16:9 and on screen.
	if err := rg.sfu.SetBroadcast("c1", Broadcast{Speaker: grace}); err != nil {
		t.Fatal(err)
	}
	for _, ctx := range []context.Context{laptop, phone, small} {
		pageEval(t, ctx, "the speaker large", `document.getElementById('tiles').className === 'layout-speaker' && !!document.querySelector('.tile.large')`)
		pageEval(t, ctx, "the speaker layout on screen and 16:9", fits)
	}
	pageEval(t, laptop, "every picture with a speaker on the laptop", pictures)
	screenshot(t, laptop, "speaker-1920")
	pageEval(t, phone, "every picture with a speaker on the phone", pictures)
	screenshot(t, phone, "speaker-390")

	// The phone turned to landscape (844×390): still on screen and 16:9.
	step, cancel = browsertest.Patient(t, phone)
	if err := chromedp.Do(step, chromedp.EmulateViewport(844, 390)); err != nil {
		t.Fatal(err)
	}
	cancel()
	pageEval(t, phone, "the landscape phone's controls on screen and 16:9 tiles", `innerWidth === 844 && `+fits)
	screenshot(t, phone, "speaker-844x390")

	// Grace's camera off: her tile shows her name, not a frozen frame.
	click(t, phone, "#camera")
	pageEval(t, laptop, "Grace's placeholder", `(() => { const t = document.querySelector('.tile[data-key="mt:`+grace+`"]');
		return !!t && t.classList.contains('video-off') && getComputedStyle(t.querySelector('.avatar')).display === 'flex' &&
			t.querySelector('.avatar').textContent.includes('Grace') && getComputedStyle(t.querySelector('video')).visibility === 'hidden'; })()`)
	pageEval(t, phone, "Grace's own placeholder", `document.querySelector('.tile[data-key="me"]').classList.contains('video-off')`)
	click(t, phone, "#camera")
	pageEval(t, laptop, "Grace's picture again", `document.querySelector('.tile[data-key="mt:`+grace+`"]')?.classList.contains('video-off') === false`)

	// Ada picks her second camera while joined: the publication sends it
	// (replaceTrack, no new session).
	before := pageValue[string](t, laptop, `window.confer.session()`)
	click(t, laptop, "#settings")
	pageEval(t, laptop, "the device choice in the room", `!document.getElementById('device-slot').hidden && document.getElementById('camera-select').offsetParent !== null`)
	second := pageValue[string](t, laptop, `(() => { const s = document.getElementById('camera-select');
		const other = [...s.options].find((o) => o.value !== s.value).value; s.value = other; s.dispatchEvent(new Event('change')); return other; })()`)
	pageEval(t, laptop, "the second camera published", `(() => { const p = window.confer.sender('video'); return !!p && p.getSettings().deviceId === `+fmt.Sprintf("%q", second)+`; })()`)
	// Whether the phone then sees frames of it is not checked: Chromium's
	// second fake camera stamps its frames from zero, behind the first's,
	// and WebRTC's encoder drops frames older than the last it sent (a real
	// camera stamps with the system clock).
	pageEval(t, laptop, "the second camera in Ada's own tile", `document.querySelector('.tile[data-key="me"] video').srcObject.getVideoTracks()[0].getSettings().deviceId === `+fmt.Sprintf("%q", second))
	if after := pageValue[string](t, laptop, `window.confer.session()`); after != before {
		t.Errorf("the camera change opened session %s after %s; want the same session", after, before)
	}

	// The speaker (Chromium offers its fake output where setSinkId
	// exists): every other participant's tile plays through it.
	pageEval(t, laptop, "a speaker to choose", `!document.getElementById('speaker-row').hidden && document.getElementById('speaker-select').options.length >= 1`)
	sink := pageValue[string](t, laptop, `(() => { const s = document.getElementById('speaker-select');
		s.value = s.options[s.options.length - 1].value; s.dispatchEvent(new Event('change')); return s.value; })()`)
	pageEval(t, laptop, "the others' tiles on the chosen speaker", `(() => { const v = [...document.querySelectorAll('.tile:not([data-key="me"]) video')];
		return v.length === 2 && v.every((x) => x.sinkId === `+fmt.Sprintf("%q", sink)+`); })()`)
}

// click presses a button once it is there and enabled.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	pageEval(t, ctx, "a click on "+sel, `(() => { const b = document.querySelector(`+"`"+sel+"`"+`); if (!b || b.disabled) return false; b.click(); return true; })()`)
}

// Chat, raised hands and reactions reach the other page through the room's
// state; a refused screen share says why; a participant the chair hangs up
// is told so, and the page lets the camera go and stops polling.
func TestJoinPageTalk(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	rg := newRig(t, nil)
	ada := browser(t)
	joinPage(t, ada, rg.srv.URL+"/rtc/join/c1#token=both", "Ada")
	grace := browser(t)
	joinPage(t, grace, rg.srv.URL+"/rtc/join/c1#token=both", "Grace")
	graceID := rg.joinedAs(t, "Grace", 0)
	pageEval(t, ada, "Grace on Ada's page", `!!document.querySelector('#participants li[data-mt="`+graceID+`"]')`)

	// Chat, both ways.
	step, cancel := browsertest.Patient(t, ada)
	if err := chromedp.Do(step, chromedp.SendKeys(chromedp.ID("chat-text"), "Hello <b>all</b>"), chromedp.Click(chromedp.ID("chat-send"))); err != nil {
		t.Fatal(err)
	}
	cancel()
	pageEval(t, grace, "Ada's line in Grace's chat", `[...document.querySelectorAll('#chat li')].some((li) => li.textContent === 'Ada: Hello <b>all</b>')`)
	pageEval(t, ada, "the input emptied once sent", `document.getElementById('chat-text').value === ''`)

	// Grace raises her hand: Ada's list and tile show it.
	click(t, grace, "#hand")
	pageEval(t, ada, "Grace's hand on Ada's page", `!!document.querySelector('#participants li[data-mt="`+graceID+`"]')?.classList.contains('hand') &&
		!!document.querySelector('.tile[data-key="mt:`+graceID+`"]')?.classList.contains('hand-up')`)
	pageEval(t, grace, "the lower-hand button", `document.getElementById('hand').textContent === 'Lower hand'`)
	click(t, grace, "#hand")
	pageEval(t, ada, "Grace's hand lowered", `document.querySelector('#participants li[data-mt="`+graceID+`"]')?.classList.contains('hand') === false`)

	// A reaction floats on the other page.
	click(t, ada, "#react")
	click(t, ada, `#reactions button[data-reaction="👏"]`)
	pageEval(t, grace, "Ada's applause on Grace's page", `[...document.querySelectorAll('#floating span, #chat li.reaction')].some((s) => s.textContent.includes('👏') && s.textContent.includes('Ada'))`)

	// Bad input is refused with the reason (a page's session, a JSON body).
	session := pageValue[string](t, ada, `window.confer.session()`)
	for _, body := range []string{`{"reaction":"🦄"}`, `{"text":""}`, `{"text":"a","reaction":"👏"}`, `[`} {
		if code := rg.do("POST", PathSession+session+"/chat", "both", "application/json", body); code != 400 {
			t.Errorf("chat %s = %d, want 400", body, code)
		}
	}
	if code := rg.do("POST", PathSession+session+"/hand", "both", "application/json", `{}`); code != 400 {
		t.Errorf("hand {} = %d, want 400", code)
	}

	// vc's dual_mode refuses Grace's share: her page says why.
	rg.ev.mu.Lock()
	rg.ev.refuseDual = true
	rg.ev.mu.Unlock()
	step, cancel = browsertest.Patient(t, grace)
	if err := chromedp.Do(step, chromedp.Click(chromedp.ID("share"))); err != nil { // a real click: getDisplayMedia wants a gesture
		t.Fatal(err)
	}
	cancel()
	pageEval(t, grace, "the refusal's reason", `document.getElementById('room-status').textContent === 'You cannot share your screen: dual_mode refuses.'`)

	// The chair hangs Grace up.
	if err := rg.sfu.Hangup("c1", graceID); err != nil {
		t.Fatal(err)
	}
	pageEval(t, grace, "the removal on Grace's page", `!document.getElementById('left').hidden && document.getElementById('left-title').textContent === 'The chair removed you from the conference.'`)
	pageEval(t, grace, "Grace's camera and microphone released and the polling stopped", `window.confer.liveTracks() === 0 && !window.confer.polling()`)
	pageEval(t, ada, "Grace gone from Ada's page", `!document.querySelector('#participants li[data-mt="`+graceID+`"]') && !document.querySelector('.tile[data-key="mt:`+graceID+`"]')`)
}

// ownerOf is the session that published mtID in conference c1.
func (rg *testRig) ownerOf(t *testing.T, mtID string) *session {
	t.Helper()
	rm := rg.sfu.room("c1", false)
	if rm == nil {
		t.Fatal("no room c1")
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	m := rm.members[mtID]
	if m == nil {
		t.Fatalf("no member %s", mtID)
	}
	return m.owner
}

// subscriptionOf is the WHEP session of viewer's page showing source.
func (rg *testRig) subscriptionOf(t *testing.T, viewer, source string) *session {
	t.Helper()
	rg.sfu.mu.Lock()
	defer rg.sfu.mu.Unlock()
	for _, x := range rg.sfu.sessions {
		if x.whep && x.member != nil && x.member.mtID == viewer && len(x.downs) > 0 && x.downs[0].fixed == source {
			return x
		}
	}
	t.Fatalf("no subscription of %s to %s", viewer, source)
	return nil
}

// The join page heals (issue 35 "A join page that heals"): a participant
// the server drops joins again by itself, both pages rejoin after the media
// server restarts and see each other's video again without a reload, and
// the conference's end shows a message, stops the camera and the polling.
// Every page's media goes through a lossy relay (3 % loss, up to 20 ms of
// jitter, issue 35), the ICE restart's as well.
func TestJoinPageHeals(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	rg := newRig(t, nil)
	rg.lossy.Store(&lossy.Network)
	ada := browser(t)
	joinPage(t, ada, rg.srv.URL+"/rtc/join/c1#token=both", "Ada")
	grace := browser(t)
	joinPage(t, grace, rg.srv.URL+"/rtc/join/c1#token=both", "Grace")
	adaID, graceID := rg.joinedAs(t, "Ada", 0), rg.joinedAs(t, "Grace", 0)
	advancing(t, ada, "Grace's tile on Ada's page", "mt:"+graceID)
	for _, p := range []context.Context{ada, grace} {
		pageValue[int](t, p, `window.notReloaded = 1`) // gone if the page reloads
	}

	// The server drops Grace as lost (ICE gone for good): her page
	// publishes again, as the same participant (its client id), and
	// Ada's page shows her new session's video.
	n := pageValue[int](t, grace, `window.confer.rejoins()`)
	rg.ownerOf(t, graceID).close(endLost)
	joined, _, _ := rg.ev.snapshot()
	if id := rg.joinedAs(t, "Grace", joined); id != graceID {
		t.Errorf("Grace rejoined as %s, want her terminal %s", id, graceID)
	}
	pageEval(t, grace, "Grace's rejoin", `window.confer.rejoins() > `+strconv.Itoa(n)+` && window.confer.mtID() === "`+graceID+`"`)
	advancing(t, ada, "Grace's video on Ada's page after her rejoin", "mt:"+graceID)

	// The server ends Ada's subscription to Grace: the tile says so and
	// her page subscribes again (once, not a 404 loop).
	ended := rg.subscriptionOf(t, adaID, graceID)
	ended.close(endEngine)
	pageEval(t, ada, "a new subscription to Grace", `(() => { const s = window.confer.subscription("mt:`+graceID+`"); return !!s && s !== "`+ended.id+`"; })()`)
	advancing(t, ada, "Grace's video on Ada's page again", "mt:"+graceID)

	// The media server restarts: every session is gone. Both pages join
	// the new one and see each other again.
	joined, _, _ = rg.ev.snapshot()
	rg.restart()
	if a, g := rg.joinedAs(t, "Ada", joined), rg.joinedAs(t, "Grace", joined); a != adaID || g != graceID {
		t.Errorf("after the restart Ada and Grace rejoined as %s and %s, want %s and %s", a, g, adaID, graceID)
	}
	advancing(t, ada, "Grace's video on Ada's page after the restart", "mt:"+graceID)
	advancing(t, grace, "Ada's video on Grace's page after the restart", "mt:"+adaID)
	for _, p := range []context.Context{ada, grace} {
		pageEval(t, p, "the same page (no reload) in the room", `window.notReloaded === 1 && !document.getElementById('room').hidden`)
	}
	pageEval(t, ada, "one tile for Grace", `document.querySelectorAll('#tiles .tile').length === 2`)
	rg.relayed(t)

	// The conference ends: a message, the camera released, no more polls.
	rg.auth.mu.Lock()
	delete(rg.auth.confs, "c1")
	rg.auth.mu.Unlock()
	if err := rg.sfu.EndConference("c1"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []context.Context{ada, grace} {
		pageEval(t, p, "the end's message", `!document.getElementById('left').hidden && document.getElementById('left-title').textContent === 'The conference has ended.'`)
		pageEval(t, p, "the camera and microphone released and the polling stopped", `window.confer.liveTracks() === 0 && !window.confer.polling()`)
	}
}
