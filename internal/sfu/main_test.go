package sfu

import (
	"os"
	"testing"

	"github.com/confer-platform/confer/internal/watchdog"
)

// TestMain runs the tests under the watchdog: a deadlock or a stuck write
// fails the run with every goroutine's stack (docs/sfu-internals.md "Lock
// discipline").
func TestMain(m *testing.M) {
	os.Exit(watchdog.Run(m))
}
