//go:build !unix

package main

import "log/slog"

// raiseFileLimit has nothing to raise where open files have no rlimit
// (Windows); 0 says the limit is unknown.
func raiseFileLimit(log *slog.Logger) uint64 { return 0 }
