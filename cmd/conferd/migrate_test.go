package main

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// conferd migrate copies a SQLite database to PostgreSQL and back with
// equal content in every table (domains, licenses, accounts, departments,
// tokens, sessions, records, counters, directory, events, nms), refuses a
// target with data unless --force, and a copy serves the platform: a
// node on PostgreSQL carries on numbering events and conferences.
func TestMigrateRoundTrip(t *testing.T) {
	pg := testdb.Postgres(t) // skips without CONFER_TEST_POSTGRES
	lite := testdb.SQLite(t)
	confID := fillPlatform(t, lite)
	want := dumpDB(t, lite)
	for _, table := range []string{"user_domains", "licenses", "accounts", "departments", "account_departments", "tokens",
		"sessions", "records", "record_counts", "counters", "directory", "events", "nms_nodes"} {
		if len(want[table]) == 0 {
			t.Fatalf("the source has no %s rows: the fixture does not cover them", table)
		}
	}

	code, out, errs := runCmd(t, "migrate", "--from", lite, "--to", pg)
	if code != 0 || !strings.HasPrefix(out, "copied ") {
		t.Fatalf("migrate to PostgreSQL: exit %d, %q, %q", code, out, errs)
	}
	if got := redactDSN("postgres://confer:s3cret@db:5432/confer"); strings.Contains(got, "s3cret") {
		t.Errorf("redactDSN shows the password: %q", got)
	}
	sameDump(t, "PostgreSQL copy", dumpDB(t, pg), want)

	code, _, errs = runCmd(t, "migrate", "--from", lite, "--to", pg)
	if code != 1 || !strings.Contains(errs, "--force") {
		t.Fatalf("migrate into a database with data: exit %d, %q", code, errs)
	}
	code, out, errs = runCmd(t, "migrate", "--from", lite, "--to", pg, "--force")
	if code != 0 {
		t.Fatalf("migrate --force: exit %d, %q, %q", code, out, errs)
	}
	sameDump(t, "PostgreSQL copy after --force", dumpDB(t, pg), want)

	back := testdb.SQLite(t)
	if code, out, errs = runCmd(t, "migrate", "--from", pg, "--to", back); code != 0 {
		t.Fatalf("migrate back to SQLite: exit %d, %q, %q", code, out, errs)
	}
	sameDump(t, "SQLite copy of the copy", dumpDB(t, back), want)

	for _, args := range [][]string{
		{"migrate", "--from", lite},
		{"migrate", "--from", lite, "--to", lite},
		{"migrate", "--from", lite + ".missing", "--to", testdb.SQLite(t)},
	} {
		if code, _, errs := runCmd(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, %q; want %d", args, code, errs, exitUsage)
		}
	}

	// The copy serves: the conference is there and new events follow the
	// copied ones.
	ctx := context.Background()
	n := testserver.StartNode(t, pg, nil, testserver.Options{})
	admin := n.LoggedIn(t)
	testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/confs/"+confID, nil))
	last, err := n.Store.LastEventSeq(ctx)
	if err != nil {
		t.Fatal(err)
	}
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+confID+"/speaker", testserver.Params(t, map[string]any{"mt_id": "2"})))
	evs, err := n.Store.EventsSince(ctx, last, 10)
	if err != nil || len(evs) == 0 || evs[0].Seq != last+1 {
		t.Fatalf("events after the copy's last (%d): %v, %v", last, evs, err)
	}
}

// fillPlatform writes a platform with something in every table through a
// node on dsn, stops it and returns a running conference's id.
func fillPlatform(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	n := testserver.StartNode(t, dsn, nil, testserver.Options{})
	admin := n.LoggedIn(t)
	n.Account(t, "other", "bob", false)
	a, err := n.Store.AccountByUsername(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	dep := store.Department{Moid: "dep-1", DomainMoid: a.DomainMoid, ParentMoid: a.DomainMoid, Name: "Sales", CreatedAt: n.Clock.Now()}
	if err := n.Store.CreateDepartment(ctx, dep); err != nil {
		t.Fatal(err)
	}
	a.Departments = []store.Membership{{DepartmentMoid: dep.Moid, Position: "lead"}}
	a.Profile = []byte(`{"note":"multi\nline 'quoted' \u00e9"}`)
	if err := n.Store.UpdateAccount(ctx, a, false); err != nil {
		t.Fatal(err)
	}
	if err := n.Store.PutDirectoryEntry(ctx, store.DirectoryEntry{Account: "5550001", E164: "5550001", MtType: 1,
		Behaviour: "busy", AnswerAfter: time.Second}); err != nil {
		t.Fatal(err)
	}
	p := map[string]any{"create_type": 1, "name": "migrated", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
		"invite_members": []any{
			map[string]any{"name": "a", "account": "10.3.0.1", "account_type": 7, "bitrate": 1024, "protocol": 0},
			map[string]any{"name": "b", "account": "10.3.0.2", "account_type": 7, "bitrate": 1024, "protocol": 0},
		}}
	id := testserver.MustOK(t, admin.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	n.Advance(t, 3*time.Second) // answered; the node reports itself to nms
	n.Kill()
	return id
}

// dumpDB reads every row of every table but schema_migrations, each as
// one line of its values, sorted; of record_counts, the count of each
// kind in each domain.
func dumpDB(t *testing.T, dsn string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	driver, source := "sqlite", "file:"+dsn
	tables := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	if sqlstore.IsPostgres(dsn) {
		driver, source = "pgx", dsn
		tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var names []string
	rows, err := db.QueryContext(ctx, tables)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != "schema_migrations" {
			names = append(names, n)
		}
	}
	rows.Close()
	out := map[string][]string{}
	for _, table := range names {
		query := "SELECT * FROM " + table
		if table == "record_counts" { // derived, per backend on PostgreSQL (migration 0063): its sums
			query = "SELECT kind, domain_moid, CAST(SUM(n) AS BIGINT) AS n FROM record_counts GROUP BY kind, domain_moid HAVING SUM(n) <> 0"
		}
		rows, err := db.QueryContext(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%s=%#v;", cols[i], v)
			}
			out[table] = append(out[table], b.String())
		}
		rows.Close()
		sort.Strings(out[table])
	}
	return out
}

func sameDump(t *testing.T, what string, got, want map[string][]string) {
	t.Helper()
	for table, rows := range want {
		if strings.Join(got[table], "\n") != strings.Join(rows, "\n") {
			t.Errorf("%s: table %s differs:\n got %q\nwant %q", what, table, got[table], rows)
		}
	}
	for table := range got {
		if _, ok := want[table]; !ok {
			t.Errorf("%s: table %s is not in the source", what, table)
		}
	}
}
