//go:build !linux

package node

// diskPercent is unknown outside Linux.
func diskPercent(string) int { return -1 }
