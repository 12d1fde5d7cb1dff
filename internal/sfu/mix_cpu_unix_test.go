//go:build unix

package sfu

import "syscall"

// cpuNanos is the process's CPU time (user and system), for benchmarks
// that report CPU rather than wall time on a shared machine.
func cpuNanos() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
