//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the CPU (user and system) this process has used: the load
// generator's share of a machine it shares with conferd.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
