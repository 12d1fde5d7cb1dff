package main

import (
	"log/slog"
	"runtime/debug"
	"strings"
	"testing"
)

// Bad garbage-collector settings are refused before anything starts.
func TestGCFlagsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"--gc-percent", "-2"},
		{"--memory-limit", "-1"},
		{"--gc-percent", "-1", "--memory-limit", "0"},
	} {
		code, _, errs := runCmd(t, append([]string{"serve"}, args...)...)
		if code != exitUsage || !strings.Contains(errs, "--gc-percent") {
			t.Errorf("serve %v: exit %d, %q", args, code, errs)
		}
	}
}

// The flags set the runtime's pacing; GOGC and GOMEMLIMIT in the
// environment win.
func TestGCFlagsApplied(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	percent, limit := 250, int64(300)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	gcFlags{percent: &percent, limitMB: &limit}.apply(slog.New(slog.DiscardHandler))
	if got := debug.SetGCPercent(100); got != 250 {
		t.Errorf("GC percent %d, want 250", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 300<<20 {
		t.Errorf("memory limit %d, want 300 MiB", got)
	}
	t.Setenv("GOGC", "100")
	percent = 999
	gcFlags{percent: &percent, limitMB: &limit}.apply(slog.New(slog.DiscardHandler))
	if got := debug.SetGCPercent(100); got == 999 {
		t.Error("--gc-percent overrode GOGC from the environment")
	}
}
