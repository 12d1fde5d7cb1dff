package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
)

// The garbage collector's pacing (docs/operations.md "Memory and the
// garbage collector"). A request allocates tens of kilobytes that die
// with it; at Go's default (GOGC 100) the collector ran for about a tenth
// of a speaker change's CPU (docs/benchmarks.md). conferd lets the heap
// grow to five times what is live (GOGC 400) and bounds it with a soft
// memory limit instead, so the collector runs less while memory is
// plentiful and as often as needed near the limit. GOGC and GOMEMLIMIT in
// the environment keep their meaning and win over these defaults.
const (
	defaultGCPercent = 400
	// defaultMemoryLimit keeps a node under the 512 MiB of resident
	// memory that issue 11 allows at 1,000 × 64: idle it holds 110 to
	// 200 MiB, and at 768 MiB the heap grew to 435 MiB resident under a
	// list load (docs/benchmarks.md "Seventh pass").
	defaultMemoryLimit = 448 << 20 // bytes
)

type gcFlags struct {
	percent *int
	limitMB *int64
}

func addGCFlags(fs *flag.FlagSet) gcFlags {
	return gcFlags{
		percent: fs.Int("gc-percent", defaultGCPercent, "heap growth over the live heap before a collection, in percent, as GOGC (env GOGC wins; -1 turns the collector off below --memory-limit)"),
		limitMB: fs.Int64("memory-limit", defaultMemoryLimit>>20, "soft memory limit of the Go runtime in MiB, as GOMEMLIMIT (env GOMEMLIMIT wins; 0: none)"),
	}
}

func (g gcFlags) check() error {
	if *g.percent < -1 || *g.limitMB < 0 {
		return fmt.Errorf("--gc-percent must be -1 or more and --memory-limit not negative")
	}
	if *g.percent == -1 && *g.limitMB == 0 {
		return fmt.Errorf("--gc-percent -1 needs a --memory-limit")
	}
	return nil
}

// apply sets the pacing unless the environment did.
func (g gcFlags) apply(log *slog.Logger) {
	percent, limit := "GOGC", "GOMEMLIMIT"
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(*g.percent)
		percent = fmt.Sprint(*g.percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" && *g.limitMB > 0 {
		debug.SetMemoryLimit(*g.limitMB << 20)
		limit = fmt.Sprintf("%d MiB", *g.limitMB)
	}
	log.Info("garbage collector", "gc_percent", percent, "memory_limit", limit)
}
