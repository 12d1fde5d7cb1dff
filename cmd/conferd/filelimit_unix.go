//go:build unix

package main

import (
	"log/slog"
	"syscall"
)

// raiseFileLimit raises the soft limit of open files to the hard limit
// (the Go runtime does so too at start; this also logs it) and returns
// the soft limit in force, 0 when unknown.
func raiseFileLimit(log *slog.Logger) uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	if r.Cur < r.Max {
		want := r
		want.Cur = r.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err == nil {
			r = want
		}
	}
	log.Info("open-file limit", "soft", r.Cur, "hard", r.Max)
	return uint64(r.Cur) // int64 on FreeBSD, uint64 elsewhere
}
