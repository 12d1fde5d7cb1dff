package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// confStart must give what the index over the document gave (migrations
// 0031 and 0060): SQLite's unixepoch(json_extract(...)) and PostgreSQL's
// timestamptz cast, the creation second when the start is absent or
// unreadable. (SQLite read a number or true as a Julian day; the engine
// writes start_time as a string, and confStart reads no other.)
func TestConfStartMatchesTheEngines(t *testing.T) {
	docs := []string{
		`{"start_time":"2026-11-26T06:00:00+08:00","name":"a"}`,
		`{"name":"b","start_time":"2026-11-26T06:00:00Z"}`,
		`{"start_time":"2026-11-26 06:00:00+00:00"}`,
		`{"start_time":"2026-11-26T06:00:00.750-05:30"}`,
		`{"start_time":"2026-11-26T06:00:00"}`,
		`{"start_time":"1969-12-31T23:59:59.5Z"}`,
		`{"start_time":"2026-11-26T06:00"}`,
		`{"start_time":"2026-11-26"}`,
		`{"start_time":"garbage"}`,
		`{"start_time":""}`,
		`{"start_time":null}`,
		`{"poll":{"start_time":"2020-01-01T00:00:00Z"},"name":"nested only"}`,
		`{"poll":{"start_time":"2020-01-01T00:00:00Z"},"start_time":"2026-11-26T06:00:00+01:00"}`,
		`{"x":"start_time","y":["start_time",{"start_time":"2020-01-01T00:00:00Z"}],"start_time":"2026-01-02T03:04:05+00:00"}`,
		`{"note":"a \"quoted\" \\ start_time","start_time":"2026-11-26T06:00:00+02:00"}`,
		`{"start_time" : "2026-11-26T06:00:00+02:00"}`,
		`{}`,
	}
	created := time.Date(2026, 11, 25, 12, 0, 0, 123, time.UTC)
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		q := "SELECT unixepoch(json_extract(?, '$.start_time'))"
		if db.d.dollar {
			q = "SELECT floor(extract(epoch FROM (?::json->>'start_time')::timestamptz))::bigint"
			if _, err := db.rdb.ExecContext(ctx, "SET TIME ZONE 'UTC'"); err != nil {
				t.Fatal(err)
			}
		}
		for _, doc := range docs {
			want := nanos(created) / int64(time.Second)
			var v *int64
			if err := db.rdb.QueryRowContext(ctx, db.d.q(q), doc).Scan(&v); err == nil && v != nil {
				want = *v
			}
			if got := confStart(store.Record{Kind: "conf", Data: []byte(doc), CreatedAt: created}); got != want {
				t.Errorf("confStart(%s) = %d, the engine's expression %d", doc, got, want)
			}
		}
	})
	if got := confStart(store.Record{Kind: "mt", Data: []byte(docs[0])}); got != 0 {
		t.Errorf("confStart of a terminal = %d, want 0", got)
	}
}

// Migration 0060 fills start_at of the conferences already stored with
// what the index over their documents held.
func TestConfStartMigration(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		// Back to the schema before 0060: its column gone, 0031's index.
		old, err := migrationFS.ReadFile("migrations/0031_conf_start." + db.d.name + ".sql")
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"DROP INDEX records_conf_start", "ALTER TABLE records DROP COLUMN start_at", string(old),
			"DELETE FROM schema_migrations WHERE version = 60"} {
			if _, err := db.wdb.ExecContext(ctx, q); err != nil {
				t.Fatalf("%.40s: %v", q, err)
			}
		}
		created := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
		docs := map[string]string{"1": `{"start_time":"2026-11-26T06:00:00+08:00"}`, "2": `{"start_time":"garbage"}`, "3": `{}`,
			"4": `{"start_time":"2026-11-20T06:00:00Z"}`}
		for id, doc := range docs {
			if _, err := db.wdb.ExecContext(ctx, db.d.q("INSERT INTO records (kind, id, domain_moid, state, data, created_at, updated_at, version) VALUES ('conf', ?, 'd1', 'running', ?, ?, ?, 1)"),
				id, doc, nanos(created), nanos(created)); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()

		db, err = Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for id, doc := range docs {
			var got int64
			if err := db.rdb.QueryRowContext(ctx, db.d.q("SELECT start_at FROM records WHERE kind = 'conf' AND id = ?"), id).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if want := confStart(store.Record{Kind: "conf", Data: []byte(doc), CreatedAt: created}); got != want {
				t.Errorf("conference %s (%s): start_at %d after the migration, want %d", id, doc, got, want)
			}
		}
		keys, total, err := db.ConfsByStart(ctx, store.RecordQuery{Kind: "conf", DomainMoid: "d1", States: []string{"running"}, Count: 10})
		if err != nil || total != 4 {
			t.Fatalf("ConfsByStart: %v, %d, %v", keys, total, err)
		}
		var order string
		for _, k := range keys {
			order += k.ID
		}
		if order != "4231" { // 20 Nov; created 25 Nov 12:00 (2 and 3, by id); 25 Nov 22:00 UTC
			t.Errorf("order after the migration %s, want 4231", order)
		}
	})
}
