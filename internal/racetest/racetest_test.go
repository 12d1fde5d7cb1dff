package racetest_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/racetest"
)

// TestSkipFollowsEnabled: Skip skips exactly when the binary has the race
// detector (the race build tag), and runs the test on otherwise.
func TestSkipFollowsEnabled(t *testing.T) {
	skipped := true
	t.Run("sub", func(t *testing.T) {
		racetest.Skip(t, "a test of Skip")
		skipped = false
	})
	if skipped != racetest.Enabled {
		t.Errorf("skipped = %v with racetest.Enabled = %v", skipped, racetest.Enabled)
	}
}
