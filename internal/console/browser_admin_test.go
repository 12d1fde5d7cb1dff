package console_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestConsoleTemplatesAndBooking: make a personal template on its edit
// page, start a conference from it, book one for tomorrow and cancel it,
// and open the other record pages without an error.
func TestConsoleTemplatesAndBooking(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	api.Level = "3"
	login(t, ctx, env)

	// A personal template from the form the schema builds.
	run(t, ctx, "new personal template",
		chromedp.Navigate(env.URL+"/console/#/templates/personal_templates:new"),
		chromedp.WaitVisible(chromedp.CSS(`form.edit #f-name`)),
		chromedp.SetValue(chromedp.CSS(`form.edit #f-name`), "Weekly review"),
		press(chromedp.CSS(`form.edit button`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Personal templates"] td a`)),
	)
	tpls := testserver.MustOK(t, api.Do("GET", "/api/v1/mc/personal_templates", nil))["personal_templates"].([]any)
	if len(tpls) != 1 || tpls[0].(map[string]any)["name"] != "Weekly review" {
		t.Fatalf("personal templates through the API: %v", tpls)
	}
	screenshot(t, ctx, "templates")

	// A conference from it: the name is the template's.
	run(t, ctx, "a conference from the template",
		chromedp.Navigate(env.URL+"/console/#/new"),
		chromedp.WaitVisible(chromedp.ID("create")),
		js(`(() => { const s = document.getElementById('create_type'); s.value = '3'; s.dispatchEvent(new Event('change')); return true; })()`),
		until(`document.getElementById('template_id').options.length === 1`),
		press(chromedp.CSS("#create")),
		chromedp.WaitVisible(chromedp.CSS(`section.live`)),
	)
	confs := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)
	if len(confs) != 1 || confs[0].(map[string]any)["name"] != "Weekly review" {
		t.Fatalf("conference from the template through the API: %v", confs)
	}

	// Booked for tomorrow (the server's clock is 2026-03-01 09:00 UTC; the
	// browser's zone is UTC in the test's headless chromium or not: the
	// offset travels with the time).
	run(t, ctx, "book a conference",
		chromedp.Navigate(env.URL+"/console/#/new"),
		chromedp.WaitVisible(chromedp.ID("create")),
		chromedp.SetValue(chromedp.ID("f-name"), "Tomorrow"),
		chromedp.SetValue(chromedp.ID("start_time"), "2026-03-02T10:00"),
		press(chromedp.CSS("#create")),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Booked conferences"] td`)),
	)
	booked := testserver.MustOK(t, api.Do("GET", "/api/v1/mc/booked_confs", nil))["booked_confs"].([]any)
	if len(booked) != 1 || booked[0].(map[string]any)["name"] != "Tomorrow" {
		t.Fatalf("booked conferences through the API: %v", booked)
	}
	screenshot(t, ctx, "booked")
	run(t, ctx, "cancel it",
		press(chromedp.CSS(`section[aria-label="Booked conferences"] button.danger`)),
		press(chromedp.CSS(`dialog.ask .confirm-yes`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Booked conferences"] p.empty`)),
	)
	if n := testserver.MustOK(t, api.Do("GET", "/api/v1/mc/booked_confs", nil))["total"]; n != float64(0) {
		t.Fatalf("booked conferences after cancelling: %v", n)
	}

	// The other record pages open without an error message.
	for _, page := range []struct{ hash, ready string }{
		{"#/rooms", `section[aria-label="Virtual meeting rooms"]`},
		{"#/accounts", `section[aria-label="departments"] ul.tree`},
		{"#/programs", `section[aria-label="Recording programs"]`},
		{"#/nms", `section[aria-label="network"] .card`},
	} {
		run(t, ctx, "open "+page.hash,
			chromedp.Navigate(env.URL+"/console/"+page.hash),
			chromedp.WaitVisible(chromedp.CSS(page.ready)),
		)
		if n := value(t, ctx, "errors on "+page.hash, chromedp.Evaluate[int](`document.querySelectorAll('#messages .msg.error').length`)); n != 0 {
			t.Errorf("%s shows an error: %s", page.hash, value(t, ctx, "the error", chromedp.Evaluate[string](`[...document.querySelectorAll("#messages .msg.error")].map((m) => m.innerText).join(" / ")`)))
		}
	}
	if st := value(t, ctx, "the node's state", chromedp.Text(chromedp.CSS(`.server-state`))); !strings.HasPrefix(st, "online ·") {
		t.Errorf("this node on the network page: %q, want it online", st)
	}
	screenshot(t, ctx, "network")
}

// TestConsoleListPagingAndSearch: twelve running conferences are two pages;
// a search finds one by name and one by number.
func TestConsoleListPagingAndSearch(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	var ids []string
	for i := range 12 {
		p := map[string]any{"create_type": 1, "name": fmt.Sprintf("Standup %02d", i), "max_join_mt": 8, "duration": 0}
		ids = append(ids, testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string))
	}
	login(t, ctx, env)
	rows := `document.querySelectorAll('section[aria-label="Running conferences"] tbody tr').length`
	run(t, ctx, "first page",
		until(rows+` === 10`),
		until(`document.querySelector('.pager span').textContent === 'page 1 of 2 · 12 in all'`),
		press(chromedp.CSS(`.pager button:last-child`)),
		until(rows+` === 2`),
		until(`document.querySelector('.pager span').textContent === 'page 2 of 2 · 12 in all'`),
	)
	run(t, ctx, "search by name",
		chromedp.SendKeys(chromedp.ID("search"), "standup 07"),
		press(chromedp.CSS(`form[role="search"] button`)),
		until(rows+` === 1`),
		chromedp.WaitVisible(css(`a[href="#/conf/%s"]`, ids[7])),
	)
	run(t, ctx, "search by number",
		chromedp.SetValue(chromedp.ID("search"), ids[11]),
		press(chromedp.CSS(`form[role="search"] button`)),
		until(rows+` === 1`),
		chromedp.WaitVisible(css(`a[href="#/conf/%s"]`, ids[11])),
	)
}

// TestConsoleLayouts: the console draws every layout style that the
// composition endpoint accepts (reference A2, from /api/openapi.json), no
// other, each with as many panes as starting a composition with one
// member per pane allows.
func TestConsoleLayouts(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	login(t, ctx, env)
	got := value(t, ctx, "the drawn styles", chromedp.Evaluate[string](`(async () => {
		const { LAYOUTS } = await import('/console/js/layouts.js');
		const api = await fetch('/api/openapi.json').then((r) => r.json());
		const want = api.paths['/api/v1/vc/confs/{conf_id}/vmps'].post.requestBody.content['application/x-www-form-urlencoded']
			.schema.properties.params.contentSchema.properties.layout.enum;
		const drawn = LAYOUTS.map((l) => l.style);
		const bad = [];
		for (const s of want) if (!drawn.includes(s)) bad.push('missing ' + s);
		for (const s of drawn) if (!want.includes(s)) bad.push('extra ' + s);
		for (const l of LAYOUTS) {
			const n = l.rects ? l.rects.length : l.cols * l.rows - Object.values(l.spans).reduce((a, [c, r]) => a + c * r - 1, 0);
			if (n !== l.panes) bad.push(l.style + ' draws ' + n + ' panes, says ' + l.panes);
		}
		return bad.join('; ') || 'ok';
	})()`, chromedp.EvalAwaitPromise))
	if got != "ok" {
		t.Fatal(got)
	}
	// The pane counts are the server's: a composition with one terminal
	// per pane starts, one more member is refused (20546).
	api := env.LoggedIn(t)
	api.Level = "3"
	p := map[string]any{"create_type": 1, "name": "layouts", "max_join_mt": 32, "duration": 0, "call_mode": 2, "call_times": 3, "call_interval": 10}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	var mts []map[string]any
	for i := range 26 {
		mts = append(mts, map[string]any{"account": fmt.Sprintf("55501%02d", i), "account_type": 5, "bitrate": 1024, "protocol": 0})
	}
	added := testserver.MustOK(t, api.Do("POST", "/api/v1/vc/confs/"+id+"/mts", testserver.Params(t, map[string]any{"mts": mts})))["mts"].([]any)
	// Numbers out of the directory answer 2 s after their call; the calls
	// go out in turn.
	for step := 0; ; step++ {
		env.Advance(t, time.Second)
		online := 0
		for _, m := range testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any) {
			if m.(map[string]any)["online"] == float64(1) {
				online++
			}
		}
		if online == len(mts) {
			break
		}
		if step == 120 {
			t.Fatalf("%d of %d terminals online after 2 minutes of the clock", online, len(mts))
		}
	}
	panes := value(t, ctx, "the drawn pane counts", chromedp.Evaluate[map[string]int](`(async () => {
		const { LAYOUTS } = await import('/console/js/layouts.js');
		return Object.fromEntries(LAYOUTS.map((l) => [String(l.style), l.panes]));
	})()`, chromedp.EvalAwaitPromise))
	for style, n := range panes {
		members := func(k int) []map[string]any {
			var ms []map[string]any
			for i := range k {
				ms = append(ms, map[string]any{"chn_idx": i, "member_type": 1, "mt_id": added[i].(map[string]any)["mt_id"]})
			}
			return ms
		}
		vmp := func(k int) testserver.Reply {
			var layout int
			fmt.Sscan(style, &layout)
			return api.Do("POST", "/api/v1/vc/confs/"+id+"/vmps", testserver.Params(t, map[string]any{
				"mode": 1, "layout": layout, "broadcast": 0, "voice_hint": 0, "show_mt_name": 0, "members": members(k)}))
		}
		if r := vmp(n + 1); r.OK() || r.Code() != 20546 {
			t.Errorf("layout %s with %d members: %s, want 20546", style, n+1, r.Raw)
			continue
		}
		testserver.MustOK(t, vmp(n))
		testserver.MustOK(t, api.Do("DELETE", "/api/v1/vc/confs/"+id+"/vmps/1", nil))
	}
}

// TestConsoleOlderReleases: at an older platform release the console sends
// that release's API-Level (none before 6.0.0.3.0), offers what the release
// serves (public templates until 6.1.0.2.0) and creates a conference from
// its form.
func TestConsoleOlderReleases(t *testing.T) {
	ctx := browser(t)
	for _, c := range []struct {
		release string
		public  bool
	}{{"6.0.0.3.0", true}, {"5.0.0.4.1", true}, {"6.1.0.4.0", false}} {
		t.Run(c.release, func(t *testing.T) {
			env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: c.release})
			// Before 6.1.0.2.0 the login cookie carries an Expires date 14
			// days after the server's now (reference 01); the test clock's
			// 2026-03-01 could be past for the browser, which would then drop
			// the cookie. The server's clock is set to the browser's day.
			env.Clock.Set(time.Now().Truncate(time.Hour))
			login(t, ctx, env)
			run(t, ctx, "the form",
				chromedp.Navigate(env.URL+"/console/#/new"),
				chromedp.WaitVisible(chromedp.ID("create")),
			)
			public := value(t, ctx, "the sources", chromedp.Evaluate[bool](`!!document.querySelector('#create_type option[value="2"]')`))
			if public != c.public {
				t.Errorf("public templates offered: %v, want %v", public, c.public)
			}
			run(t, ctx, "create",
				chromedp.SetValue(chromedp.ID("f-name"), "Old release"),
				press(chromedp.CSS("#create")),
				chromedp.WaitVisible(chromedp.CSS(`section.live h1`)),
			)
			if n := value(t, ctx, "errors", chromedp.Evaluate[int](`document.querySelectorAll('#messages .msg.error').length`)); n != 0 {
				t.Errorf("errors: %s", pageText(ctx))
			}
			api := env.LoggedIn(t)
			confs := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)
			if len(confs) != 1 || confs[0].(map[string]any)["name"] != "Old release" {
				t.Fatalf("conferences through the API: %v", confs)
			}
		})
	}
}

// TestConsoleTabletAndKeyboard: log in with the keyboard alone (Tab,
// Enter), then the conference page at a tablet's width has no horizontal
// scrolling and stacks its columns.
func TestConsoleTabletAndKeyboard(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "On a tablet", "max_join_mt": 8, "duration": 0, "call_mode": 2, "call_times": 3, "call_interval": 10}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	run(t, ctx, "log in with the keyboard",
		chromedp.EmulateViewport(820, 1180),
		chromedp.Navigate(env.URL+"/console/#/conf/"+id),
		chromedp.WaitVisible(chromedp.ID("username")),
		until(`document.activeElement.id === 'username'`),
		chromedp.KeyEvent(testserver.AdminUser+kb.Tab+testserver.AdminPassword+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`section.live[data-live="on"]`)),
	)
	wide := value(t, ctx, "the page's width", chromedp.Evaluate[string](`(() => {
		const d = document.documentElement;
		const cols = getComputedStyle(document.querySelector('.live-grid')).gridTemplateColumns.split(' ').length;
		return d.scrollWidth + ' ' + innerWidth + ' ' + cols;
	})()`))
	var scroll, width, cols int
	fmt.Sscan(wide, &scroll, &width, &cols)
	if scroll > width || cols != 1 {
		t.Errorf("at 820 px: page %d px wide in a %d px window, %d columns; want no horizontal scrolling and 1 column", scroll, width, cols)
	}
	screenshot(t, ctx, "tablet")
}

// TestConsoleFollowsOthers: changes made by another client arrive through
// push: a conference created elsewhere appears in the open running list,
// one ended elsewhere closes its open page; a virtual room made on its page
// gives a conference.
func TestConsoleFollowsOthers(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	api.Level = "3"
	login(t, ctx, env)
	run(t, ctx, "the empty running list", chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Running conferences"] p.empty`)))
	p := map[string]any{"create_type": 1, "name": "Made elsewhere", "max_join_mt": 8, "duration": 0}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	run(t, ctx, "it appears without a reload",
		chromedp.WaitVisible(css(`a[href="#/conf/%s"]`, id)),
		press(css(`a[href="#/conf/%s"]`, id)),
		chromedp.WaitVisible(chromedp.CSS(`section.live[data-live="on"]`)),
	)
	testserver.MustOK(t, api.Do("DELETE", "/api/v1/mc/confs/"+id, nil))
	run(t, ctx, "ended elsewhere, its page closes",
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Running conferences"] p.empty`)),
		until(`document.getElementById('messages').textContent.includes('Conference `+id+` has ended.')`),
	)

	// A virtual room from its page, then a conference from the room.
	run(t, ctx, "new virtual room",
		chromedp.Navigate(env.URL+"/console/#/rooms/virtual_meeting_rooms:new"),
		chromedp.WaitVisible(chromedp.CSS(`form.edit #f-name`)),
		chromedp.SetValue(chromedp.CSS(`form.edit #f-name`), "Room 7"),
		press(chromedp.CSS(`form.edit button`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Virtual meeting rooms"] td a`)),
		chromedp.Navigate(env.URL+"/console/#/new"),
		chromedp.WaitVisible(chromedp.ID("create")),
		js(`(() => { const s = document.getElementById('create_type'); s.value = '4'; s.dispatchEvent(new Event('change')); return true; })()`),
		until(`document.getElementById('template_id').options.length === 1`),
		press(chromedp.CSS("#create")),
		chromedp.WaitVisible(chromedp.CSS(`section.live`)),
	)
	confs := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)
	if len(confs) != 1 || confs[0].(map[string]any)["name"] != "Room 7" {
		t.Fatalf("conference from the room through the API: %v", confs)
	}
}
