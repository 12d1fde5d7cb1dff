//go:build !race

package racetest

// Enabled is false: the test binary was built without -race.
const Enabled = false
