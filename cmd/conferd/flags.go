package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/store/sqlstore"
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

// dbFlags are --db and --create, the database a command opens.
type dbFlags struct {
	dsn    string
	create bool
	// configured is the database the config file (--config) names: the
	// deployment's own, as CONFER_DB's.
	configured string
}

func dbFlag(fs *flag.FlagSet) *dbFlags {
	d := &dbFlags{}
	fs.StringVar(&d.dsn, "db", envOr("CONFER_DB", defaultDB), "SQLite file path or postgres:// URL (env CONFER_DB)")
	fs.BoolVar(&d.create, "create", envBool("CONFER_CREATE"),
		"create the SQLite file --db names when it does not exist (env CONFER_CREATE); the default path, CONFER_DB's and the config file's are created without it")
	return d
}

// open opens the database. A SQLite file that does not exist is created
// only at the default path, at the path CONFER_DB or the config file
// names (a deployment's own) or with --create: a mistyped --db is refused
// rather than answered with a new, empty database.
func (d *dbFlags) open(ctx context.Context, stderr io.Writer) (*sqlstore.DB, bool) {
	if !sqlstore.IsPostgres(d.dsn) && !d.create && !d.usual() {
		if _, err := os.Stat(d.dsn); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stderr, "conferd: database: %s does not exist; --create makes a new database there\n", d.dsn)
			return nil, false
		}
	}
	return openStore(ctx, d.dsn, stderr)
}

// usual tells whether --db names the default path, CONFER_DB's or the
// config file's.
func (d *dbFlags) usual() bool {
	p := filepath.Clean(d.dsn)
	for _, own := range []string{defaultDB, os.Getenv("CONFER_DB"), d.configured} {
		if own != "" && p == filepath.Clean(own) {
			return true
		}
	}
	return false
}
