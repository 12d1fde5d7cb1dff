package robust

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/store/sqlstore"
)

// renewed are the columns that a request rejected after authentication
// may still legitimately change: every authenticated request slides the
// expiry of its token and session (seed 000 "Authentication"; internal/auth).
var renewed = map[string]bool{"tokens.expires_at": true, "sessions.expires_at": true}

// dumper reads every table of the test database directly (not through the
// store), so that the comparison covers what the store's interface does
// not show: events, counters, accounts, nms tables, ...
type dumper struct {
	db     *sql.DB
	pg     bool
	tables []string
}

func newDumper(t *testing.T, dsn string) *dumper {
	t.Helper()
	d := &dumper{pg: sqlstore.IsPostgres(dsn)}
	var err error
	var q string
	if d.pg {
		d.db, err = sql.Open("pgx", dsn)
		q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name"
	} else {
		d.db, err = sql.Open("sqlite", "file:"+dsn+"?"+url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(10000)"}}.Encode())
		q = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
	}
	if err != nil {
		t.Fatal(err)
	}
	d.db.SetMaxOpenConns(1)
	t.Cleanup(func() { d.db.Close() })
	rows, err := d.db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		d.tables = append(d.tables, name)
	}
	if len(d.tables) < 5 {
		t.Fatalf("found only tables %v", d.tables)
	}
	return d
}

// snapshot is every row of every table, as sorted text lines per table.
type snapshot map[string][]string

func (d *dumper) snap(t *testing.T) snapshot { return d.snapshot(t, false) }

// light is a cheaper snapshot for one request: every table in full but
// records and events, which are summarised. It still sees every change:
// a record write bumps the record count or the sum of versions (every
// update adds one) and appends an event in the same transaction
// (docs/architecture.md).
func (d *dumper) light(t *testing.T) snapshot { return d.snapshot(t, true) }

// kept are the rows a snapshot compares, by table: every row but the
// stored audit trail's (internal/server audit_trail.go), which records
// every action, refused ones included, by design, its events and the
// events' counter (the events table is compared instead).
var kept = map[string]string{
	"records":       " WHERE kind <> 'audit'",
	"events":        " WHERE kind <> 'audit'",
	"counters":      " WHERE name <> 'events'",
	"record_counts": " WHERE kind <> 'audit'",
}

func (d *dumper) snapshot(t *testing.T, light bool) snapshot {
	t.Helper()
	s := snapshot{}
	for _, table := range d.tables {
		if light && (table == "records" || table == "events") {
			var a, b int64
			q := "SELECT COUNT(*), COALESCE(SUM(version), 0) FROM records" + kept[table]
			if table == "events" {
				q = "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM events" + kept[table]
			}
			if err := d.db.QueryRow(q).Scan(&a, &b); err != nil {
				t.Fatalf("summarise %s: %v", table, err)
			}
			s[table] = []string{fmt.Sprintf("count=%d sum/max=%d", a, b)}
			continue
		}
		rows, err := d.db.QueryContext(context.Background(), "SELECT * FROM "+table+kept[table])
		if err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var lines []string
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				t.Fatal(err)
			}
			var b strings.Builder
			for i, c := range cols {
				if renewed[table+"."+c] {
					continue
				}
				v := vals[i]
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%s=%v\x1f", c, v)
			}
			lines = append(lines, b.String())
		}
		rows.Close()
		sort.Strings(lines)
		s[table] = lines
	}
	return s
}

// without is s less the named tables.
func (s snapshot) without(tables ...string) snapshot {
	out := snapshot{}
	for k, v := range s {
		out[k] = v
	}
	for _, t := range tables {
		delete(out, t)
	}
	return out
}

// diff describes how b differs from a, "" when equal.
func (a snapshot) diff(b snapshot) string {
	var out []string
	for table, la := range a {
		lb := b[table]
		ma := map[string]bool{}
		for _, l := range la {
			ma[l] = true
		}
		mb := map[string]bool{}
		for _, l := range lb {
			mb[l] = true
		}
		for _, l := range la {
			if !mb[l] {
				out = append(out, fmt.Sprintf("%s: - %.300s", table, strings.ReplaceAll(l, "\x1f", " ")))
			}
		}
		for _, l := range lb {
			if !ma[l] {
				out = append(out, fmt.Sprintf("%s: + %.300s", table, strings.ReplaceAll(l, "\x1f", " ")))
			}
		}
	}
	sort.Strings(out)
	if len(out) > 20 {
		out = append(out[:20], fmt.Sprintf("... and %d more", len(out)-20))
	}
	return strings.Join(out, "\n")
}
