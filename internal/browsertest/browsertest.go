// Package browsertest starts the headless Chromium that the browser tests
// drive (the console, the join page, the wall page): Debian's chromium,
// found or the test skipped, with the flags this closed network and
// WebRTC on loopback need. Imported by tests only.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// Chromium returns the browser's path ($CONFER_CHROMIUM, /usr/bin/chromium
// or chromium on PATH), or skips the test when there is none.
func Chromium(t testing.TB) string {
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
	t.Skip("chromium is not installed (Debian package chromium; .ci/run installs it): skipping the browser test")
	return ""
}

// Start starts a headless browser with a fresh profile, a fake camera and
// microphone, and WebRTC allowed on loopback, and returns a tab's context
// (ended with the test) and a function that kills the browser at once (no
// page unload: like a crash or a pulled cable). extra options come last.
func Start(t testing.TB, extra ...chromedp.ExecAllocatorOption) (context.Context, func()) {
	t.Helper()
	bin := Chromium(t)
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
		// Without these, Chromium's calls home are refused by a closed
		// network, many at a time.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	t.Cleanup(cancel2)
	// The first run starts the browser and must not carry a timeout (it
	// would stop the browser with it).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	return ctx, cancel
}

// Run evaluates a script for its effect, as a step of chromedp.Do.
func Run(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](script)(ctx, t)
		return err
	})
}
