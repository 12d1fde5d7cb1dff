package sfu

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/browsertest"
)

// pageMedia is what window.confer.media() reports: the publication's send
// estimate and the smallest picture among the page's subscriptions.
type pageMedia struct {
	Send   float64 `json:"send"`
	Width  int     `json:"width"`
	Height int     `json:"height"`
}

// recovered is true when a page sends on an estimate above 1.5 Mbit/s and
// receives 640×360 or more.
func (m pageMedia) recovered() bool { return m.Send > 1.5e6 && m.Width >= 640 && m.Height >= 360 }

// TestLoadRecovery (opt-in: CONFER_LOAD_RECOVERY=1, needs stress-ng):
// two Chromium pages in a call; `stress-ng --cpu 2` loads the machine for
// 60 s; once it ends, each page's send estimate climbs back above 1.5
// Mbit/s and each page receives 640×360 or more (issue 35 "Under CPU load,
// browser video falls to the lowest quality and stays there"). The test
// waits for the recovery, bounded by go test's -timeout only, and logs how
// long it took after the load and the lowest estimate under load
// (docs/sfu-internals.md "Simulcast and layer selection").
func TestLoadRecovery(t *testing.T) {
	if os.Getenv("CONFER_LOAD_RECOVERY") == "" {
		t.Skip("set CONFER_LOAD_RECOVERY=1 to load the machine with stress-ng for 60 s")
	}
	stress, err := exec.LookPath("stress-ng")
	if err != nil {
		t.Skip("stress-ng is not installed")
	}
	browsertest.Chromium(t)
	rg := newRig(t, nil)
	ada := sized(t, 1920, 1080)
	joinPage(t, ada, rg.srv.URL+"/rtc/join/c1#token=both", "Ada")
	grace := sized(t, 1920, 1080)
	joinPage(t, grace, rg.srv.URL+"/rtc/join/c1#token=both", "Grace")
	pages := map[string]context.Context{"Ada": ada, "Grace": grace}
	media := func(name string) pageMedia { return pageValue[pageMedia](t, pages[name], `window.confer.media()`) }
	start := time.Now()
	waitFor(t, "both pages at 1.5 Mbit/s and 640x360 before the load", func() bool {
		return media("Ada").recovered() && media("Grace").recovered()
	})
	t.Logf("idle: up after %s: Ada %+v, Grace %+v", time.Since(start).Round(time.Second), media("Ada"), media("Grace"))

	cmd := exec.Command(stress, "--cpu", "2", "--timeout", "60s", "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	low := map[string]pageMedia{}
	for loaded := true; loaded; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("stress-ng: %v", err)
			}
			loaded = false
		case <-time.After(2 * time.Second): // a sample of the load's effect, not a wait
			for name := range pages {
				if m := media(name); low[name] == (pageMedia{}) || m.Send < low[name].Send {
					low[name] = m
				}
			}
		}
	}
	ended := time.Now()
	t.Logf("under load, lowest estimates: Ada %+v, Grace %+v", low["Ada"], low["Grace"])
	back := map[string]time.Duration{}
	logged := ended
	waitFor(t, "both pages back at 1.5 Mbit/s and 640x360 after the load", func() bool {
		for name := range pages {
			m := media(name)
			if _, ok := back[name]; !ok && m.recovered() {
				back[name] = time.Since(ended)
			}
			if time.Since(logged) > 10*time.Second { // progress in the log, not a wait
				t.Logf("%s after the load: %s %+v", time.Since(ended).Round(time.Second), name, m)
			}
		}
		if time.Since(logged) > 10*time.Second {
			logged = time.Now()
		}
		return len(back) == len(pages)
	})
	t.Logf("after the load: Ada back in %s (%+v), Grace in %s (%+v)",
		back["Ada"].Round(100*time.Millisecond), media("Ada"), back["Grace"].Round(100*time.Millisecond), media("Grace"))
}
