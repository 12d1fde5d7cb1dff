//go:build !unix

package main

import "time"

// cpuTime is 0 where getrusage is missing (Windows): the CPU figures of
// the report read 0 there.
func cpuTime() time.Duration { return 0 }
