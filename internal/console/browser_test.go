package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestConsoleRunsAMeeting drives the console in headless chromium against
// a real server: log in, create a conference from the form, find it in the
// running list, open it, add a terminal and see it come online through
// push, mute it, make it speaker, drag it into the composition, add a
// second one, chairman, mute all, voice activation, mixing, a poll and a
// recording, end the conference. Each step is also checked through the API.
func TestConsoleRunsAMeeting(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	api.Level = "3"

	login(t, ctx, env)

	// Create from the form: defaults for every required field.
	run(t, ctx, "create a conference",
		chromedp.Navigate(env.URL+"/console/#/new"),
		chromedp.WaitVisible(chromedp.ID("create")),
		chromedp.SetValue(chromedp.ID("f-name"), "Console review"),
		chromedp.SetValue(chromedp.ID("f-duration"), "120"),
	)
	screenshot(t, ctx, "create")
	run(t, ctx, "submit the form",
		press(chromedp.CSS("#create")),
		chromedp.WaitVisible(chromedp.CSS(`section.live`)),
	)
	confs := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)
	if len(confs) != 1 || confs[0].(map[string]any)["name"] != "Console review" {
		t.Fatalf("running conferences after the form: %v", confs)
	}
	conf := confs[0].(map[string]any)
	id := conf["conf_id"].(string)
	if conf["max_join_mt"] != float64(192) || conf["bitrate"] != float64(2048) {
		t.Errorf("the form's defaults: max_join_mt %v bitrate %v, want 192 and 2048", conf["max_join_mt"], conf["bitrate"])
	}

	// The running list shows it; open it from there.
	run(t, ctx, "the running list shows the conference",
		chromedp.Navigate(env.URL+"/console/#/confs"),
		chromedp.WaitVisible(css(`a[href="#/conf/%s"]`, id)),
	)
	screenshot(t, ctx, "running")
	run(t, ctx, "open it",
		press(css(`a[href="#/conf/%s"]`, id)),
		chromedp.WaitVisible(chromedp.CSS(`section.live[data-live="on"]`)),
	)

	// Add a terminal: it is called, then answers after 2 s of the clock.
	run(t, ctx, "add a terminal",
		chromedp.SendKeys(chromedp.ID("add-mt"), "5550001"),
		press(chromedp.CSS("#add-button")),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-mt] [data-state="offline"]`)),
	)
	mts := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any)
	if len(mts) != 1 {
		t.Fatalf("terminals after adding: %v", mts)
	}
	mt := mts[0].(map[string]any)
	mtID := mt["mt_id"].(string)
	if p := mt["protocol"]; p != float64(1) {
		t.Errorf("the terminal added from the page is called with protocol %v, want 1 (SIP, the form's default)", p)
	}
	env.Advance(t, 3*time.Second)
	run(t, ctx, "the terminal comes online through push (no reload)",
		chromedp.WaitVisible(css(`tr[data-mt="%s"] [data-state="online"]`, mtID)),
	)
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts/"+mtID, nil)); got["online"] != float64(1) {
		t.Fatalf("terminal online through the API: %v", got["online"])
	}

	// Mute it: the state comes back through push.
	run(t, ctx, "mute the terminal",
		press(css(`tr[data-mt="%s"] button[title="mute"]`, mtID)),
		chromedp.WaitVisible(css(`tr[data-mt="%s"] [data-state="muted"]`, mtID)),
	)
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts/"+mtID, nil)); got["mute"] != float64(1) {
		t.Fatalf("terminal mute through the API: %v", got["mute"])
	}

	// Make it speaker.
	run(t, ctx, "set the speaker",
		press(css(`tr[data-mt="%s"] button[title="make speaker"]`, mtID)),
		chromedp.WaitVisible(css(`tr[data-mt="%s"] [data-state="speaker"]`, mtID)),
	)
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/speaker", nil)); got["mt_id"] != mtID {
		t.Fatalf("speaker through the API: %v", got)
	}

	// Composition: pick layout 1 from its picture, drag the terminal's row
	// into its pane with the mouse, start.
	run(t, ctx, "compose",
		press(chromedp.CSS(`button.thumb[data-layout="1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.layout.big .pane[data-chn="0"]`)),
		chromedp.DragAndDrop(css(`tr[data-mt="%s"] .grip`, mtID), chromedp.CSS(`.layout.big .pane[data-chn="0"] .pane-label`)),
		until(`document.querySelector('.layout.big .pane[data-chn="0"] select').value === "m`+mtID+`"`),
		press(chromedp.CSS("#vmp-apply")),
		chromedp.WaitVisible(css(`tr[data-mt="%s"] [data-state="vmp"]`, mtID)),
	)
	vmp := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/vmps/1", nil))
	members, _ := vmp["members"].([]any)
	if vmp["layout"] != float64(1) || len(members) != 1 || members[0].(map[string]any)["mt_id"] != mtID {
		t.Fatalf("composition through the API: layout %v members %v", vmp["layout"], members)
	}
	run(t, ctx, "the composition shows as running", chromedp.WaitVisible(chromedp.CSS(`#vmp-state`)),
		until(`document.getElementById('vmp-state').textContent === 'running, layout 1'`))

	// A second terminal, the chairman, everyone muted.
	run(t, ctx, "add a second terminal",
		chromedp.SendKeys(chromedp.ID("add-mt"), "5550002"),
		press(chromedp.CSS("#add-button")),
		until(`document.querySelectorAll('tr[data-mt]').length === 2`),
	)
	env.Advance(t, 3*time.Second)
	run(t, ctx, "both online, then chairman and mute all",
		until(`document.querySelectorAll('tr[data-mt] [data-state="online"]').length === 2`),
		press(css(`tr[data-mt="%s"] button[title="make chairman"]`, mtID)),
		chromedp.WaitVisible(css(`tr[data-mt="%s"] [data-state="chairman"]`, mtID)),
		press(chromedp.CSS(`button[data-do="mute-all"]`)),
		until(`document.querySelectorAll('tr[data-mt] [data-state="muted"]').length === 2`),
	)
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/chairman", nil)); got["mt_id"] != mtID {
		t.Fatalf("chairman through the API: %v", got)
	}

	// Voice activation, smart mixing, a poll, a recording.
	run(t, ctx, "voice activation and mixing",
		press(chromedp.CSS(`button[data-do="vad"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-do="vad"][aria-pressed="true"]`)),
		press(chromedp.CSS(`button[data-do="smart-mix"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-do="stop-mix"]`)),
	)
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/vad", nil)); got["voice_activity_detection"] != float64(1) {
		t.Fatalf("voice activation through the API: %v", got)
	}
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mixs/1", nil)); got["mode"] != float64(1) {
		t.Fatalf("mixing through the API: %v", got)
	}
	run(t, ctx, "poll",
		press(chromedp.CSS(`button[data-do="poll"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-do="poll-pause"]`)),
	)
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/poll", nil)); got["state"] != float64(1) {
		t.Fatalf("poll through the API: %v", got)
	}
	run(t, ctx, "pause the poll",
		press(chromedp.CSS(`button[data-do="poll-pause"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-do="poll-resume"]`)),
	)
	if got := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/poll", nil)); got["state"] != float64(2) {
		t.Fatalf("paused poll through the API: %v", got)
	}
	run(t, ctx, "record",
		press(chromedp.CSS(`button[data-do="record"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-do="rec-pause"]`)),
	)
	recs := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/recorders", nil))["recorders"].([]any)
	if len(recs) != 1 {
		t.Fatalf("recordings through the API: %v", recs)
	}
	run(t, ctx, "pause the recording",
		press(chromedp.CSS(`button[data-do="rec-pause"]`)),
		chromedp.WaitVisible(chromedp.CSS(`button[data-do="rec-resume"]`)),
	)
	if st := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/recorders", nil))["recorders"].([]any)[0].(map[string]any)["state"]; st != float64(2) {
		t.Fatalf("paused recording's state through the API: %v", st)
	}
	screenshot(t, ctx, "live")
	run(t, ctx, "stop the recording",
		press(chromedp.CSS(`button[data-do="rec-stop"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`button[data-do="rec-resume"]`)),
	)
	if recs := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/recorders", nil))["recorders"].([]any); len(recs) != 0 {
		t.Fatalf("recordings after stopping: %v", recs)
	}

	// Hang up the second terminal, call it again, drop it.
	second := ""
	for _, m := range testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any) {
		if m.(map[string]any)["mt_id"] != mtID {
			second = m.(map[string]any)["mt_id"].(string)
		}
	}
	run(t, ctx, "hang up the second terminal",
		press(css(`tr[data-mt="%s"] button[title="hang up"]`, second)),
		chromedp.WaitVisible(css(`tr[data-mt="%s"] [data-state="offline"]`, second)),
		// The reply, not only the push message: a call while the hang up
		// still runs can fail (the report of the console branch).
		until(`document.getElementById('messages').textContent.includes('Hung up 5550002.')`),
		press(css(`tr[data-mt="%s"] button[title="call"]`, second)),
		until(`document.getElementById('messages').textContent.includes('Calling 5550002.')`),
	)
	env.Advance(t, 3*time.Second)
	run(t, ctx, "called again, it answers; drop it",
		chromedp.WaitVisible(css(`tr[data-mt="%s"] [data-state="online"]`, second)),
		press(css(`tr[data-mt="%s"] button[title="remove"]`, second)),
		press(chromedp.CSS(`dialog.ask .confirm-yes`)),
		chromedp.WaitNotPresent(css(`tr[data-mt="%s"]`, second)),
	)
	if n := len(testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any)); n != 1 {
		t.Fatalf("terminals after dropping one: %d", n)
	}

	// Delay by 30 minutes: the end moves from 11:00 to 11:30.
	run(t, ctx, "delay",
		press(chromedp.CSS(`button[data-do="delay"]`)),
		chromedp.WaitVisible(chromedp.ID("delay-min")),
		until(`document.querySelector('dialog[open] h2').textContent.startsWith('Delay conference')`),
		chromedp.SetValue(chromedp.ID("delay-min"), "30"),
		press(chromedp.CSS(`dialog form button`)),
		until(`document.querySelector('section.live .meta').textContent.includes('ends 2026-03-01 11:30')`),
	)
	if end := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id, nil))["end_time"].(string); !strings.HasPrefix(end, "2026-03-01T11:30") {
		t.Fatalf("end_time after the delay: %s", end)
	}

	// End it, in the page's own dialog: "Keep it" keeps it, "End it" ends
	// it and the page goes back to the running list, which is empty.
	run(t, ctx, "keep the conference",
		press(chromedp.CSS("#end-conf")),
		press(chromedp.CSS(`dialog.ask .confirm-no`)),
		chromedp.WaitNotPresent(chromedp.CSS(`dialog.ask`)),
	)
	testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id, nil))
	run(t, ctx, "end the conference",
		press(chromedp.CSS("#end-conf")),
		press(chromedp.CSS(`dialog.ask .confirm-yes`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Running conferences"] p.empty`)),
	)
	if r := api.Do("GET", "/api/v1/vc/confs/"+id, nil); r.Code() != 12103 {
		t.Fatalf("ended conference through the API: %s", r.Raw)
	}
}

// TestConsoleSessionExpiry: after the login's idle lifetime, the next
// action shows the login form with a message saying the session ended.
func TestConsoleSessionExpiry(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	login(t, ctx, env)
	run(t, ctx, "the running list", chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Running conferences"]`)))

	env.Advance(t, 31*time.Minute) // reference 03: 30 idle minutes
	run(t, ctx, "an action after the expiry",
		press(chromedp.CSS(`a[href="#/booked"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.login`)),
	)
	text := value(t, ctx, "the message", chromedp.Text(chromedp.CSS(`form.login #login-status`)))
	if !strings.Contains(text, "session has ended") || strings.Contains(text, "SSO_COOKIE_KEY") {
		t.Fatalf("message after expiry = %q, want it to say in words that the session has ended", text)
	}
	// Logging in again works.
	run(t, ctx, "log in again",
		chromedp.SendKeys(chromedp.ID("username"), testserver.AdminUser),
		chromedp.SendKeys(chromedp.ID("password"), testserver.AdminPassword),
		chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Booked conferences"]`)),
	)
}
