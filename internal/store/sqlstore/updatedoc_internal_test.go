package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// A document-only update (updateDocument, SQLite) and the full statement
// it falls back to must leave the same row: every column as written,
// the version one up per write, the start second following the
// document, whichever statement matched.
func TestUpdateDocumentAndFallBack(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		created := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
		r := store.Record{Kind: "conf", ID: "7001", DomainMoid: "d1", OwnerMoid: "o1", State: "running",
			Data: []byte(`{"start_time":"2026-11-26T10:00:00Z","speaker":""}`), CreatedAt: created, UpdatedAt: created, Version: 1}
		if err := db.CreateRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
		mt := store.Record{Kind: "mt", ID: "7001/1", DomainMoid: "d1", State: "online", Data: []byte(`{}`), CreatedAt: created, UpdatedAt: created, Version: 1}
		if err := db.CreateRecord(ctx, mt); err != nil {
			t.Fatal(err)
		}
		steps := []struct {
			name  string
			data  string
			state string
			due   time.Time
			start int64
			write func(store.Record) error
		}{
			{"document only, swap", `{"start_time":"2026-11-26T10:00:00Z","speaker":"1"}`, "running", time.Time{}, time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC).Unix(),
				func(r store.Record) error { return db.SwapRecord(ctx, r) }},
			{"document only, guarded", `{"start_time":"2026-11-26T10:00:00Z","speaker":""}`, "running", time.Time{}, time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC).Unix(),
				func(r store.Record) error { return db.SwapRecordWhile(ctx, r, "mt", "7001/1", "online") }},
			{"start moved", `{"start_time":"2026-11-26T11:00:00Z","speaker":""}`, "running", time.Time{}, time.Date(2026, 11, 26, 11, 0, 0, 0, time.UTC).Unix(),
				func(r store.Record) error { return db.SwapRecord(ctx, r) }},
			{"no start: the creation second", `{"speaker":"2"}`, "running", time.Time{}, created.Unix(),
				func(r store.Record) error { return db.UpdateRecord(ctx, r, "running") }},
			{"due time", `{"speaker":"2"}`, "running", created.Add(time.Hour), created.Unix(),
				func(r store.Record) error { return db.SwapRecord(ctx, r) }},
			{"state", `{"speaker":"2"}`, "ended", created.Add(time.Hour), created.Unix(),
				func(r store.Record) error { return db.UpdateRecord(ctx, r, "") }},
			{"document only again", `{"speaker":"3"}`, "ended", created.Add(time.Hour), created.Unix(),
				func(r store.Record) error { return db.SwapRecord(ctx, r) }},
		}
		for i, s := range steps {
			cur, err := db.GetRecord(ctx, "conf", "d1", "7001")
			if err != nil {
				t.Fatal(err)
			}
			next := cur
			next.Data, next.State, next.DueAt = []byte(s.data), s.state, s.due
			next.UpdatedAt = created.Add(time.Duration(i+1) * time.Minute)
			if err := s.write(next); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			got, err := db.GetRecord(ctx, "conf", "d1", "7001")
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Data) != s.data || got.State != s.state || !got.DueAt.Equal(s.due) || !got.UpdatedAt.Equal(next.UpdatedAt) ||
				got.Version != cur.Version+1 || got.OwnerMoid != "o1" {
				t.Errorf("%s: stored %+v (data %s), want data %s state %q due %v version %d", s.name, got, got.Data, s.data, s.state, s.due, cur.Version+1)
			}
			var start int64
			if err := db.rdb.QueryRowContext(ctx, db.d.q("SELECT start_at FROM records WHERE kind = 'conf' AND id = ?"), "7001").Scan(&start); err != nil {
				t.Fatal(err)
			}
			if start != s.start {
				t.Errorf("%s: start_at %d, want %d", s.name, start, s.start)
			}
		}
		// A stale version matches neither statement.
		stale, _ := db.GetRecord(ctx, "conf", "d1", "7001")
		stale.Version--
		if err := db.SwapRecord(ctx, stale); err != store.ErrConflict {
			t.Errorf("stale swap: %v, want a conflict", err)
		}
	})
}
