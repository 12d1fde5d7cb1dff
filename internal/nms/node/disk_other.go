//go:build !linux && !darwin && !freebsd && !windows

package node

// diskPercent is unknown on this platform.
func diskPercent(string) int { return -1 }
