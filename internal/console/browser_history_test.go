package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestConsoleHistory: an operator finds an ended conference in the
// History section by its name and opens it: who took part, how they came
// and how long they stayed (docs/console.md "History"; the API's side is
// internal/mc's TestConferenceHistory).
func TestConsoleHistory(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	// Two ended conferences: one where a room system answered (the
	// simulated backend answers an address it does not know after 2 s)
	// and stayed 90 s, one nobody joined.
	end := func(name string, members ...string) {
		var invite []map[string]any
		for _, m := range members {
			invite = append(invite, map[string]any{"name": "Room " + m, "account": m, "account_type": 7, "protocol": 1})
		}
		p := map[string]any{"create_type": 1, "name": name, "duration": 0, "invite_members": invite}
		id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
		env.Advance(t, 3*time.Second) // the answer
		env.Advance(t, 90*time.Second)
		testserver.MustOK(t, api.Do("DELETE", "/api/v1/mc/confs/"+id, nil))
	}
	end("Board meeting", "10.7.0.1")
	end("Empty standup")

	login(t, ctx, env)
	run(t, ctx, "the history lists both",
		press(chromedp.CSS(`a[href="#/history"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.history`)),
		until(`document.querySelectorAll('section.history tbody tr').length === 2`),
	)
	run(t, ctx, "a search by name",
		chromedp.SendKeys(chromedp.ID("history-keyword"), "board"),
		press(chromedp.CSS("#history-search")),
		until(`document.querySelectorAll('section.history tbody tr').length === 1`),
	)
	if got := value(t, ctx, "the row", chromedp.Text(chromedp.CSS(`section.history tbody tr`))); !strings.Contains(got, "Board meeting") {
		t.Fatalf("the search shows %q, want Board meeting", got)
	}
	run(t, ctx, "the conference's calls",
		press(chromedp.CSS(`section.history tbody a`)),
		chromedp.WaitVisible(chromedp.CSS(`section.history-detail`)),
	)
	if got := value(t, ctx, "participants", chromedp.Text(chromedp.ID("history-participants"))); got != "1" {
		t.Errorf("participants %q, want 1", got)
	}
	row := value(t, ctx, "the call", chromedp.Text(chromedp.CSS(`section.history-detail tbody tr`)))
	for _, want := range []string{"10.7.0.1", "SIP", "called by the conference", "1:30"} {
		if !strings.Contains(row, want) {
			t.Errorf("the call row %q lacks %q", row, want)
		}
	}
	screenshot(t, ctx, "history")
	run(t, ctx, "back, and a search that finds nothing",
		press(chromedp.CSS(`a[href="#/history"]`)),
		chromedp.WaitVisible(chromedp.ID("history-keyword")),
		chromedp.SendKeys(chromedp.ID("history-keyword"), "retro"),
		press(chromedp.CSS("#history-search")),
		until(`document.querySelector('section.history .empty')?.textContent === 'No ended conference matches.'`),
	)
}
