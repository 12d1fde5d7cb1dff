// Package racetest tells a test whether it runs under the race detector,
// so that a test the race detector adds nothing to (an end-to-end test of
// separate processes, a long real-time workload) can skip there and run
// in the plain `go test ./...` stage of .ci/run, which covers it.
package racetest

import "testing"

// Skip skips t when the race detector is on, saying why: what the plain
// run covers and why -race adds nothing to it.
func Skip(t testing.TB, why string) {
	t.Helper()
	if Enabled {
		t.Skip("skipped under -race (the plain go test run covers it): " + why)
	}
}
