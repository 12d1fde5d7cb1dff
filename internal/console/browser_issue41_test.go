package console_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The console's defects of issue 41, each driven in chromium against a
// real server and checked through the API.

// TestConsoleCallsTerminalsOnCreate: the "Terminals to call" box of the
// New conference form invites its terminals (each with the protocol the
// API requires).
func TestConsoleCallsTerminalsOnCreate(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	login(t, ctx, env)
	run(t, ctx, "create with two terminals",
		chromedp.Navigate(env.URL+"/console/#/new"),
		chromedp.WaitVisible(chromedp.ID("create")),
		chromedp.SetValue(chromedp.ID("f-name"), "With guests"),
		chromedp.SendKeys(chromedp.ID("invite"), "10.0.0.21\n5551234"),
		press(chromedp.CSS("#create")),
		chromedp.WaitVisible(chromedp.CSS(`section.live`)),
	)
	confs := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)
	if len(confs) != 1 {
		t.Fatalf("running conferences: %v (page: %s)", confs, pageText(ctx))
	}
	id := confs[0].(map[string]any)["conf_id"].(string)
	var got []string
	for _, m := range testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any) {
		got = append(got, fmt.Sprint(m.(map[string]any)["alias"]))
	}
	if strings.Join(got, " ") != "10.0.0.21 5551234" {
		t.Fatalf("the conference's terminals: %v, want 10.0.0.21 and 5551234", got)
	}
}

// TestConsoleAccounts: a new account is created able to log in with a
// masked password; its edit page shows its fields and saves a change;
// a new password set there is the one that logs in.
func TestConsoleAccounts(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	login(t, ctx, env)
	run(t, ctx, "the new account form",
		chromedp.Navigate(env.URL+"/console/#/accounts/accounts:new"),
		chromedp.WaitVisible(chromedp.ID("f-account")),
	)
	if typ := value(t, ctx, "the password's type", chromedp.Evaluate[string](`document.getElementById('f-password').type`)); typ != "password" {
		t.Errorf("the password field is of type %q, want password (masked)", typ)
	}
	run(t, ctx, "create it",
		chromedp.SendKeys(chromedp.ID("f-account"), "jdoe"),
		chromedp.SendKeys(chromedp.ID("f-name"), "Jane Doe"),
		chromedp.SendKeys(chromedp.ID("f-password"), "first.pass1"),
		press(chromedp.CSS("#save-account")),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Accounts"] td a`)),
	)
	user := env.Client(t)
	if r := user.Login("jdoe", "first.pass1"); !r.OK() {
		t.Fatalf("the new account cannot log in: %s", r.Raw)
	}
	accs := testserver.MustOK(t, api.Do("GET", "/api/v1/amc/accounts", url.Values{"account": {"jdoe"}}))["accounts"].([]any)
	if len(accs) != 1 {
		t.Fatalf("accounts named jdoe: %v", accs)
	}
	moid := accs[0].(map[string]any)["account_moid"].(string)

	run(t, ctx, "its edit page shows its fields",
		chromedp.Navigate(env.URL+"/console/#/accounts/accounts:"+moid),
		chromedp.WaitVisible(chromedp.ID("f-name")),
		until(`document.getElementById('f-name').value === 'Jane Doe'`),
		chromedp.SetValue(chromedp.ID("f-name"), "Jane Roe"),
		press(chromedp.CSS("#save-account")),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Accounts"] td a`)),
	)
	got := testserver.MustOK(t, api.Do("GET", "/api/v1/amc/accounts/"+moid, nil))
	if got["name"] != "Jane Roe" {
		t.Fatalf("the account's name after Save: %v, want Jane Roe", got["name"])
	}
	run(t, ctx, "a new password",
		chromedp.Navigate(env.URL+"/console/#/accounts/accounts:"+moid),
		chromedp.WaitVisible(chromedp.ID("new-password")),
		chromedp.SendKeys(chromedp.ID("new-password"), "second.pass2"),
		press(chromedp.CSS("#set-password")),
		until(`document.getElementById('messages').textContent.includes('Password changed.')`),
	)
	if r := env.Client(t).Login("jdoe", "second.pass2"); !r.OK() {
		t.Fatalf("the new password does not log in: %s", r.Raw)
	}
}

// TestConsoleLoggedOutBar: the navigation bar is not shown to someone
// logged out, before logging in and after logging out.
func TestConsoleLoggedOutBar(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	barShown := `getComputedStyle(document.getElementById('top')).display !== 'none'`
	run(t, ctx, "the login form", chromedp.Navigate(env.URL+"/console/"), chromedp.WaitVisible(chromedp.ID("username")))
	if value(t, ctx, "the bar", chromedp.Evaluate[bool](barShown)) {
		t.Errorf("the navigation bar is shown before logging in")
	}
	login(t, ctx, env)
	run(t, ctx, "log out",
		press(chromedp.CSS("#logout")),
		chromedp.WaitVisible(chromedp.ID("username")),
	)
	if value(t, ctx, "the bar", chromedp.Evaluate[bool](barShown)) {
		t.Errorf("the navigation bar is shown after logging out")
	}
}

// rawNames finds, in the page's labels, legends and help, text that
// is a wire field name (max_join_mt) or a note of the API's description.
const rawNames = `[...document.querySelectorAll('#view label, #view legend, #view summary, #view small, #view th, #view option')]
	.filter((e) => /\b[a-z]+_[a-z0-9_]+\b/.test(e.textContent) || e.textContent.includes('required when') || (e.tagName === 'OPTION' && /^\d+ [a-z]/.test(e.textContent)))
	.map((e) => e.textContent.trim()).join(' | ')`

// TestConsoleFormsInWords: the conference and template forms name their
// fields and choices in words, the template form is grouped without JSON
// boxes, and creating from a template shows the template's own values.
func TestConsoleFormsInWords(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	tpl := testserver.Template("Small room")
	tpl.Bitrate = 1024
	tpl.MaxJoinMt = 8
	tpl.VideoFormats = []model.MCPersonalTemplatesCreateRequestVideoFormat{{Format: 4, Resolution: 13, Frame: 25, Bitrate: 1024}}
	testserver.MustOK(t, api.Do("POST", "/api/v1/mc/personal_templates", testserver.Params(t, tpl)))
	login(t, ctx, env)

	run(t, ctx, "the new conference form",
		chromedp.Navigate(env.URL+"/console/#/new"),
		chromedp.WaitVisible(chromedp.ID("create")),
	)
	if raw := value(t, ctx, "wire names", chromedp.Evaluate[string](rawNames)); raw != "" {
		t.Errorf("the new conference form speaks the wire: %s", raw)
	}
	if d := value(t, ctx, "the default length", chromedp.Evaluate[string](`document.getElementById('f-duration').value`)); d != "0" {
		t.Errorf("default length %q, want 0 (permanent, as the API's default)", d)
	}
	run(t, ctx, "from the template",
		js(`(() => { const s = document.getElementById('create_type'); s.value = '3'; s.dispatchEvent(new Event('change')); return true; })()`),
		until(`document.getElementById('f-bitrate').value === '1024'`),
	)
	shown := value(t, ctx, "the settings shown", chromedp.Evaluate[string](`['max_join_mt', 'video_resolution', 'video_frame'].map((n) => document.getElementById('f-' + n).value).join(' ')`))
	if shown != "8 13 25" {
		t.Errorf("from the template the form shows %q, want the template's 8 13 25", shown)
	}

	run(t, ctx, "the new template form",
		chromedp.Navigate(env.URL+"/console/#/templates/personal_templates:new"),
		chromedp.WaitVisible(chromedp.CSS(`form.edit #f-name`)),
	)
	if raw := value(t, ctx, "wire names", chromedp.Evaluate[string](rawNames)); raw != "" {
		t.Errorf("the template form speaks the wire: %s", raw)
	}
	if n := value(t, ctx, "JSON boxes", chromedp.Evaluate[int](`document.querySelectorAll('form.edit textarea:not(#invite)').length`)); n != 0 {
		t.Errorf("the template form has %d JSON boxes", n)
	}
	groups := value(t, ctx, "groups", chromedp.Evaluate[string](`[...document.querySelectorAll('form.edit .group > legend, form.edit .group > summary')].map((e) => e.textContent).join(', ')`))
	if !strings.HasPrefix(groups, "Basics, Calling participants, Audio and video") {
		t.Errorf("the template form's groups: %q", groups)
	}
	if h := value(t, ctx, "the form's height", chromedp.Evaluate[int](`Math.round(document.querySelector('form.edit').getBoundingClientRect().height)`)); h > 2600 {
		t.Errorf("the template form is %d px tall", h)
	}
	run(t, ctx, "save a template with its defaults",
		chromedp.SetValue(chromedp.CSS(`form.edit #f-name`), "Defaults"),
		press(chromedp.CSS(`form.edit button`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Personal templates"] td a`)),
	)
	for _, it := range testserver.MustOK(t, api.Do("GET", "/api/v1/mc/personal_templates", nil))["personal_templates"].([]any) {
		m := it.(map[string]any)
		if m["name"] == "Defaults" && (m["max_join_mt"] != float64(192) || m["bitrate"] != float64(2048)) {
			t.Errorf("the template saved with the form's defaults: %v", m)
		}
	}
}

// TestConsoleLoginMessages: a wrong password and an unknown user get one
// message, in the login form; the message of an ended session names no
// cookie.
func TestConsoleLoginMessages(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	try := func(user, password string) string {
		run(t, ctx, "log in as "+user,
			chromedp.Navigate(env.URL+"/console/"),
			chromedp.WaitVisible(chromedp.ID("username")),
			chromedp.SendKeys(chromedp.ID("username"), user),
			chromedp.SendKeys(chromedp.ID("password"), password),
			chromedp.Click(chromedp.ID("login")),
			chromedp.WaitVisible(chromedp.CSS(`form.login #login-status`)),
		)
		return value(t, ctx, "the message", chromedp.Text(chromedp.CSS(`form.login #login-status`)))
	}
	wrong := try(testserver.AdminUser, "not-the-password")
	unknown := try("nobody-here", "not-the-password")
	if wrong != unknown || wrong == "" {
		t.Errorf("wrong password: %q; unknown user: %q; want one message", wrong, unknown)
	}
	if strings.Contains(wrong, testserver.AdminUser) {
		t.Errorf("the message names the user: %q", wrong)
	}
	// A locked account (five wrong passwords through the API) is told how
	// an administrator lifts the lock.
	env.Account(t, "", "lockme", false)
	for range 5 {
		env.Client(t).Login("lockme", "wrong")
	}
	if locked := try("lockme", "pw"); !strings.Contains(locked, "locked") || !strings.Contains(locked, "conferd account unlock") {
		t.Errorf("a locked account's message: %q", locked)
	}
}

// TestConsoleRecordingsReadable: the Recordings page names its columns,
// shows dates, lengths and sizes as people read them, and offers Play
// only for a program with a file: one recorded without media says so.
func TestConsoleRecordingsReadable(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "Unfilmed", "max_join_mt": 8, "duration": 0}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	vrsID := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, api.Do("POST", "/api/v1/vc/confs/"+id+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "no media", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	env.Advance(t, 75*time.Second)
	testserver.MustOK(t, api.Do("DELETE", "/api/v1/vc/confs/"+id+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))

	login(t, ctx, env)
	row := `section[aria-label="Recording programs"] tbody tr`
	run(t, ctx, "the recordings",
		chromedp.Navigate(env.URL+"/console/#/programs"),
		chromedp.WaitVisible(chromedp.CSS(row+` .no-media`)),
	)
	if raw := value(t, ctx, "wire names", chromedp.Evaluate[string](rawNames)); raw != "" {
		t.Errorf("the recordings page speaks the wire: %s", raw)
	}
	if n := value(t, ctx, "Play buttons", chromedp.Evaluate[int](`document.querySelectorAll('button.play').length`)); n != 0 {
		t.Errorf("Play is offered %d times for a recording without media", n)
	}
	cells := value(t, ctx, "the row", chromedp.Evaluate[[]string](`[...document.querySelector('`+row+`').cells].map((c) => c.textContent)`))
	if len(cells) < 4 {
		t.Fatalf("the row: %q", cells)
	}
	if when := cells[1]; regexp.MustCompile(`^\d+$`).MatchString(when) || !strings.Contains(when, "2026") {
		t.Errorf("recorded %q, want a date", when)
	}
	if length := cells[2]; length != "1:15" {
		t.Errorf("length %q, want 1:15", length)
	}
	if size := cells[3]; !regexp.MustCompile(`^[0-9.]+ (bytes|KB|MB|GB)$`).MatchString(size) {
		t.Errorf("size %q, want a figure with a unit", size)
	}
}

// TestConsolePhoneWidth: at a phone's width (390 × 844) the running list
// fits the screen with its buttons on it; the pictures of
// docs/console.md are taken at that size and at 1920 × 1080.
func TestConsolePhoneWidth(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	for _, name := range []string{"Morning briefing with the regional offices", "Support"} {
		p := map[string]any{"create_type": 1, "name": name, "max_join_mt": 8, "duration": 60}
		testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))
	}
	run(t, ctx, "a phone", chromedp.EmulateViewport(390, 844))
	login(t, ctx, env)
	run(t, ctx, "the running list", until(`document.querySelectorAll('section[aria-label="Running conferences"] tbody tr').length === 2`))
	off := value(t, ctx, "what is off screen", chromedp.Evaluate[string](`(() => {
		const out = [];
		const d = document.documentElement;
		if (d.scrollWidth > 390) out.push('the page is ' + d.scrollWidth + ' px wide');
		for (const b of document.querySelectorAll('#view button, #view a.button, header a, header button')) {
			const r = b.getBoundingClientRect();
			if (r.right > 390.5 || r.left < 0) out.push(b.textContent + ' at ' + Math.round(r.left) + '..' + Math.round(r.right));
		}
		return out.join('; ');
	})()`))
	if off != "" {
		t.Errorf("at 390 px: %s", off)
	}
	screenshot(t, ctx, "phone-running")
	run(t, ctx, "the new conference form", chromedp.Navigate(env.URL+"/console/#/new"), chromedp.WaitVisible(chromedp.ID("create")))
	if w := value(t, ctx, "the page's width", chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 390 {
		t.Errorf("the new conference form at 390 px is %d px wide", w)
	}
	screenshot(t, ctx, "phone-create")
	run(t, ctx, "a large screen",
		chromedp.EmulateViewport(1920, 1080),
		chromedp.Navigate(env.URL+"/console/#/confs"),
		until(`document.querySelectorAll('section[aria-label="Running conferences"] tbody tr').length === 2`),
	)
	screenshot(t, ctx, "desktop-running")
}

// TestConsoleBookedChange: a booked conference opens on a page of its
// own; saving it with another name and day rebooks it (the old booking
// is cancelled), and "Book a copy" books another.
func TestConsoleBookedChange(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "Board", "max_join_mt": 32, "duration": 90, "x_confer_start_time": "2026-03-02T10:00:00Z"}
	old := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	login(t, ctx, env)
	run(t, ctx, "open the booking",
		chromedp.Navigate(env.URL+"/console/#/booked"),
		press(css(`a.view[href="#/booked/%s"]`, old)),
		chromedp.WaitVisible(chromedp.ID("save-booking")),
		until(`document.getElementById('f-name').value === 'Board' && document.getElementById('f-duration').value === '90' && document.getElementById('f-max_join_mt').value === '32'`),
	)
	screenshot(t, ctx, "booked-edit")
	run(t, ctx, "move it",
		chromedp.SetValue(chromedp.ID("f-name"), "Board (moved)"),
		chromedp.SetValue(chromedp.ID("start_time"), "2026-03-03T11:00"),
		press(chromedp.CSS("#save-booking")),
		until(`document.getElementById('messages').textContent.includes('Conference `+old+` changed')`),
		chromedp.WaitVisible(chromedp.ID("book-again")),
	)
	booked := testserver.MustOK(t, api.Do("GET", "/api/v1/mc/booked_confs", url.Values{"count": {"0"}}))["booked_confs"].([]any)
	if len(booked) != 1 {
		t.Fatalf("booked after the change: %v", booked)
	}
	b := booked[0].(map[string]any)
	if b["name"] != "Board (moved)" || !strings.HasPrefix(fmt.Sprint(b["start_time"]), "2026-03-03") || b["duration"] != float64(90) || b["conf_id"] == old {
		t.Errorf("the changed booking: %v", b)
	}
	run(t, ctx, "book a copy",
		press(chromedp.CSS("#book-again")),
		until(`document.getElementById('messages').textContent.includes('booked.')`),
	)
	if n := testserver.MustOK(t, api.Do("GET", "/api/v1/mc/booked_confs", url.Values{"count": {"0"}}))["total"]; n != float64(2) {
		t.Errorf("booked after a copy: %v, want 2", n)
	}
}

// TestConsoleCapacity: the Capacity page shows the platform's ports in
// use out of its total and the conferences of each size that could start,
// as the API gives them, and follows a conference started elsewhere.
func TestConsoleCapacity(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	start := func(name string, size int) {
		// preoccupy_resource 1: the conference takes its ports at once
		// (otherwise as terminals join, issue 38 item 7).
		p := map[string]any{"create_type": 1, "name": name, "max_join_mt": size, "duration": 0, "preoccupy_resource": 1}
		testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))
	}
	start("Big", 32)
	login(t, ctx, env)
	run(t, ctx, "the capacity page",
		press(chromedp.CSS(`a[href="#/capacity"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.capacity #ports`)),
		until(`document.getElementById('running').textContent.startsWith('1 running conference')`),
	)
	portsOf := func() (used, total float64) {
		var platform string
		for _, d := range testserver.MustOK(t, api.Do("GET", "/api/v1/nms/domains", nil))["domains"].([]any) {
			m := d.(map[string]any)
			if r := api.Do("GET", "/api/v1/nms/platform_domains/"+m["moid"].(string)+"/mediaresources", nil); r.OK() {
				platform = m["moid"].(string)
				return r.Body["used_port"].(float64), r.Body["total_port"].(float64)
			}
		}
		t.Fatalf("no platform domain answers its media resources (%s)", platform)
		return 0, 0
	}
	used, total := portsOf()
	if used != 32 {
		t.Fatalf("ports in use through the API: %v, want 32", used)
	}
	want := fmt.Sprintf("%.0f of %.0f", used, total)
	if got := value(t, ctx, "the ports", chromedp.Text(chromedp.CSS(`#ports .gauge-figure`))); !strings.HasPrefix(got, want) {
		t.Errorf("the page shows %q ports, want %s", got, want)
	}
	if n := value(t, ctx, "the size rows", chromedp.Evaluate[int](`document.querySelectorAll('section.capacity tbody tr').length`)); n != 4 {
		t.Errorf("%d conference sizes shown, want 4 (8, 32, 64, 192)", n)
	}
	start("Small", 8)
	run(t, ctx, "a conference started elsewhere", until(`document.querySelector('#ports .gauge-figure').textContent.startsWith('40 of')`))
	screenshot(t, ctx, "capacity")
}

// TestConsoleTemplateEditKeepsTheRest: saving a template from its page
// changes what the form shows and keeps what it does not (its mixing).
func TestConsoleTemplateEditKeepsTheRest(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	tpl := testserver.Template("Mixed")
	tpl.Mix = &model.MCPersonalTemplatesCreateRequestMix{Mode: 1}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/personal_templates", testserver.Params(t, tpl)))["template_id"].(string)
	login(t, ctx, env)
	run(t, ctx, "rename it on its page",
		chromedp.Navigate(env.URL+"/console/#/templates/personal_templates:"+id),
		chromedp.WaitVisible(chromedp.CSS(`form.edit #f-name`)),
		until(`document.getElementById('f-name').value === 'Mixed'`),
		chromedp.SetValue(chromedp.CSS(`form.edit #f-name`), "Mixed again"),
		chromedp.SetValue(chromedp.ID("f-bitrate"), "768"),
		press(chromedp.CSS(`form.edit button`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Personal templates"] td a`)),
	)
	got := testserver.MustOK(t, api.Do("GET", "/api/v1/mc/personal_templates/"+id, nil))
	mix, _ := got["mix"].(map[string]any)
	if got["name"] != "Mixed again" || got["bitrate"] != float64(768) || mix == nil || mix["mode"] != float64(1) {
		t.Errorf("the template after saving: name %v bitrate %v mix %v; want the new name and bit rate, the mixing kept", got["name"], got["bitrate"], got["mix"])
	}
}

// TestConsoleNavOneRow: at a laptop's 1366 px and at 1920 px the
// navigation bar is one row: every section's link on the same line as
// the brand and the log-out button (docs/console.md "Keyboard, screens, errors").
func TestConsoleNavOneRow(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	env.LoggedIn(t)
	login(t, ctx, env)
	for _, w := range []int64{1366, 1920} {
		run(t, ctx, fmt.Sprintf("%d px", w), chromedp.EmulateViewport(w, 768))
		rows := value(t, ctx, "the bar's rows", chromedp.Evaluate[string](`(() => {
			const tops = new Set();
			for (const e of document.querySelectorAll('header .brand, header nav a, header #logout')) {
				const r = e.getBoundingClientRect();
				tops.add(Math.round(r.top + r.height / 2));
			}
			return [...tops].join(',') + ' / ' + Math.round(document.getElementById('top').getBoundingClientRect().height);
		})()`))
		if tops, _, _ := strings.Cut(rows, " / "); strings.Contains(tops, ",") {
			t.Errorf("at %d px the navigation bar has more than one row (centres of its items %s px high)", w, rows)
		}
	}
}
