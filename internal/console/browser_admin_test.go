package console_test

import (
	"testing"

	"github.com/chromedp/chromedp"

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
		chromedp.Click(chromedp.CSS(`form.edit button`)),
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
		chromedp.Click(chromedp.ID("create")),
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
		chromedp.Click(chromedp.ID("create")),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Booked conferences"] td`)),
	)
	booked := testserver.MustOK(t, api.Do("GET", "/api/v1/mc/booked_confs", nil))["booked_confs"].([]any)
	if len(booked) != 1 || booked[0].(map[string]any)["name"] != "Tomorrow" {
		t.Fatalf("booked conferences through the API: %v", booked)
	}
	screenshot(t, ctx, "booked")
	run(t, ctx, "cancel it",
		acceptDialogs(),
		chromedp.Click(chromedp.CSS(`section[aria-label="Booked conferences"] button.danger`)),
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
	screenshot(t, ctx, "network")
}
