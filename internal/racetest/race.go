//go:build race

package racetest

// Enabled is true: the test binary was built with -race.
const Enabled = true
