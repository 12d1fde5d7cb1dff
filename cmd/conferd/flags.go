package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// Defaults of the serve flags; each flag may also come from the
// environment variable named beside it.
const (
	defaultAddr = ":8080"
	defaultDB   = "confer-data/confer.db"
)

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// envBool is a boolean from the environment ("1", "true"; false when
// unset or unreadable).
func envBool(name string) bool {
	b, _ := strconv.ParseBool(os.Getenv(name))
	return b
}

func envDuration(name string, def time.Duration) time.Duration {
	if v, ok := os.LookupEnv(name); ok {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { // help.go
		fmt.Fprint(fs.Output(), commandUsage(name))
		fs.PrintDefaults()
	}
	return fs
}

func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", envOr("CONFER_DB", defaultDB), "SQLite file path or postgres:// URL (env CONFER_DB)")
}
