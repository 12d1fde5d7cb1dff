package console_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestConsoleTVWalls: an administrator registers a TV wall in the TV
// walls section, opens its page on "its screen" (a second tab of the same
// browser, logged in), sees it come online, and removes it
// (docs/console.md "TV walls"; the API's side is internal/vc's
// TestRegisteredTVWalls).
func TestConsoleTVWalls(t *testing.T) {
	ctx := browser(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	api := env.LoggedIn(t)
	login(t, ctx, env)
	run(t, ctx, "register a wall",
		press(chromedp.CSS(`a[href="#/walls"]`)),
		chromedp.WaitVisible(chromedp.ID("wall-id")),
		chromedp.SendKeys(chromedp.ID("wall-id"), "7_0"),
		chromedp.SendKeys(chromedp.ID("wall-name"), "Lobby screen"),
		press(chromedp.CSS("#wall-add")),
		until(`[...document.querySelectorAll('section.walls tbody tr')].length === 1`),
	)
	if row := value(t, ctx, "the row", chromedp.Text(chromedp.CSS(`section.walls tbody tr`))); !strings.Contains(row, "Lobby screen (7_0)") || !strings.Contains(row, "offline") {
		t.Fatalf("the wall's row %q, want Lobby screen (7_0), offline", row)
	}
	walls := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/hdus", nil))["hdus"].([]any)
	if len(walls) != 1 || walls[0].(map[string]any)["hdu_id"] != "7_0" {
		t.Fatalf("the API lists %v, want the registered wall only", walls)
	}

	// The screen: the wall's page in another tab of the logged-in browser.
	screen, cancel := chromedp.NewContext(ctx)
	defer cancel()
	step, stop := browsertest.Patient(t, screen)
	defer stop()
	if err := chromedp.Do(step, chromedp.Navigate(env.URL+"/wall/7_0")); err != nil {
		t.Fatalf("open the wall page: %v", err)
	}
	run(t, ctx, "the wall comes online", until(`(() => { const r = document.querySelector('section.walls tbody tr'); return !!r && r.innerText.includes('online') && !r.innerText.includes('offline'); })()`))
	screenshot(t, ctx, "walls")

	run(t, ctx, "remove it",
		press(chromedp.CSS(`button[data-remove="7_0"]`)),
		press(chromedp.CSS(`dialog .confirm-yes`)),
		until(`!!document.querySelector('section.walls .empty') || document.querySelectorAll('section.walls tbody tr').length === 8`),
	)
}
