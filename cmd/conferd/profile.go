package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

// --cpu-profile writes a CPU profile of the whole run to a file, stopped
// when conferd shuts down (SIGTERM or SIGINT): the profiles of
// docs/benchmarks.md are taken from a server under confer-load this way
// (`go tool pprof -top conferd FILE`).
func addProfileFlag(fs *flag.FlagSet) *string {
	return fs.String("cpu-profile", "", "write a CPU profile of this run to `file`, until shutdown (read it with go tool pprof)")
}

// startProfile starts the profile when path is set; stop ends it.
func startProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpu-profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpu-profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
