package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/confer-platform/confer/internal/store/sqlstore"
)

// migrate copies every row of one database into another (SQLite to
// PostgreSQL or back), in one transaction on the target
// (docs/deployment.md "From SQLite to PostgreSQL").
//
//	conferd migrate --from confer-data/confer.db --to postgres://... [--force]
func migrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("migrate", stderr)
	from := fs.String("from", "", "database to copy: SQLite file path or postgres:// URL")
	to := fs.String("to", "", "database to fill: SQLite file path or postgres:// URL")
	force := fs.Bool("force", false, "replace what the target holds (otherwise a target with data is refused)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *from == "" || *to == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "conferd: migrate needs --from and --to (and nothing else)")
		return exitUsage
	}
	if *from == *to {
		fmt.Fprintln(stderr, "conferd: migrate: --from and --to name the same database")
		return exitUsage
	}
	if !sqlstore.IsPostgres(*from) { // opening a missing file would make an empty database
		if _, err := os.Stat(*from); err != nil {
			fmt.Fprintf(stderr, "conferd: migrate: --from: %v\n", err)
			return exitUsage
		}
	}
	src, ok := openStore(ctx, *from, stderr)
	if !ok {
		return exitUsage
	}
	defer src.Close()
	dst, ok := openStore(ctx, *to, stderr)
	if !ok {
		return exitUsage
	}
	defer dst.Close()
	stats, err := dst.CopyFrom(ctx, src, *force)
	if errors.Is(err, sqlstore.ErrTargetNotEmpty) {
		fmt.Fprintf(stderr, "conferd: migrate: %s holds data already; nothing was copied (--force replaces it)\n", redactDSN(*to))
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "conferd: migrate: %v; nothing was copied\n", err)
		return 1
	}
	tables := make([]string, 0, len(stats))
	total := 0
	for t, n := range stats {
		tables = append(tables, fmt.Sprintf("%s %d", t, n))
		total += n
	}
	sort.Strings(tables)
	fmt.Fprintf(stdout, "copied %d rows from %s to %s (%s)\n", total, redactDSN(*from), redactDSN(*to), strings.Join(tables, ", "))
	return 0
}

// redactDSN hides the password of a postgres:// URL.
func redactDSN(dsn string) string {
	if !sqlstore.IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://..."
	}
	return u.Redacted()
}
