package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/testserver"
)

// browser starts a headless chromium with a fresh profile and returns a
// tab's context, ended with the test. Dialogs (confirm) are accepted by
// the page helpers, not here.
func browser(t *testing.T) context.Context {
	t.Helper()
	ctx, _ := browsertest.Start(t, chromedp.WindowSize(1366, 900))
	return ctx
}

// run runs browser actions, failing the test with what was being done and
// the page's messages.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	step, cancel := browsertest.Patient(t, ctx) // until go test's -timeout: the page's events, not a budget
	defer cancel()
	if err := chromedp.Do(step, actions...); err != nil {
		t.Fatalf("%s: %v\npage: %s", what, err, pageText(ctx))
	}
}

// pageText is the page's messages and the start of its content, for failures.
func pageText(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('messages').innerText + ' | ' + document.getElementById('view').innerText.slice(0, 800)`))
	return s
}

// value runs an action that gives a value.
func value[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	step, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	v, err := chromedp.Run(step, a)
	if err != nil {
		t.Fatalf("%s: %v\npage: %s", what, err, pageText(ctx))
	}
	return v
}

// login logs in from the console's form as the fixture administrator.
func login(t *testing.T, ctx context.Context, env *testserver.Env) {
	t.Helper()
	run(t, ctx, "log in",
		chromedp.Navigate(env.URL+"/console/"),
		chromedp.WaitVisible(chromedp.ID("username")),
		chromedp.SendKeys(chromedp.ID("username"), testserver.AdminUser),
		chromedp.SendKeys(chromedp.ID("password"), testserver.AdminPassword),
		chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.ID("top")),
		chromedp.WaitVisible(chromedp.CSS("#push-state.online")),
	)
}

// until waits for a script's condition to hold in the page.
func until(cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		for {
			ok, err := chromedp.Evaluate[bool](cond)(ctx, t)
			if err != nil || ok {
				return chromedp.Void{}, err
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, fmt.Errorf("waiting for %s: %w", cond, ctx.Err())
			case <-time.After(50 * time.Millisecond): // polling the page, not waiting for time
			}
		}
	}
}

// press clicks a button once it is in the page and enabled. The click is
// the element's own (one step inside the page), so a render that replaces
// the button between finding and clicking it cannot make it miss, as a
// mouse click at a node found a moment before can.
func press(sel chromedp.CSS) chromedp.Action[chromedp.Void] {
	q, _ := json.Marshal(string(sel))
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := until(fmt.Sprintf(`(() => { const b = document.querySelector(%s); if (!b || b.disabled) return false; b.click(); return true; })()`, q))(ctx, t)
		return chromedp.Void{}, err
	}
}

// js evaluates a script in the page for its effect.
func js(script string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[bool](script)(ctx, t)
		return chromedp.Void{}, err
	}
}

// screenshot saves the page as docs/console/NAME.png when
// CONFER_CONSOLE_SCREENSHOTS names a folder (docs/console.md).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("CONFER_CONSOLE_SCREENSHOTS")
	if dir == "" {
		return
	}
	run(t, ctx, "clear the messages", js(`document.getElementById('messages').replaceChildren(); true`))
	img := value(t, ctx, "screenshot "+name, chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), img, 0o644); err != nil {
		t.Fatal(err)
	}
}

// css is a CSS selector made with Sprintf.
func css(format string, args ...any) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf(format, args...))
}
