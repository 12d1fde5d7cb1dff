package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// A change of a running conference that keeps its state, due time and
// start (a speaker change) is a HOT update on PostgreSQL (migration
// 0062): SwapRecord and the guarded statement of SwapRecordWhile, run in
// one transaction, which reads its own counters (pg_stat_user_tables
// would show them only after the backend reports them).
func TestSpeakerChangeIsHOT(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testdb.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	created := time.Now().Truncate(time.Microsecond)
	conf := store.Record{Kind: "conf", ID: "1110001", DomainMoid: "d1", State: "running", CreatedAt: created, UpdatedAt: created,
		Data: []byte(`{"name":"a","speaker_mt_id":"","start_time":"2026-11-26T06:00:00+08:00"}`)}
	mt := store.Record{Kind: "mt", ID: "1", DomainMoid: "d1", OwnerMoid: conf.ID, State: "online", Data: []byte(`{}`), CreatedAt: created, UpdatedAt: created}
	for _, r := range []store.Record{conf, mt} {
		if err := db.CreateRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	err = db.Atomic(ctx, func(tx store.Tx) error {
		a := tx.(*atomicTx)
		r := conf
		r.Data = []byte(`{"name":"a","speaker_mt_id":"1","start_time":"2026-11-26T06:00:00+08:00"}`)
		r.UpdatedAt = created.Add(time.Second)
		if err := a.SwapRecord(r); err != nil {
			return err
		}
		r.Version++
		r.Data = []byte(`{"name":"a","speaker_mt_id":"","start_time":"2026-11-26T06:00:00+08:00"}`)
		r.UpdatedAt = created.Add(2 * time.Second)
		q, args := updateRecord(r, db.swapGuard(), r.Version, nanos(r.CreatedAt), mt.Kind, mt.ID, mt.DomainMoid, "online")
		if res, err := a.db.txExec(ctx, a.tx, q, args...); err != nil {
			return err
		} else if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("the guarded update changed %d rows", n)
		}
		var upd, hot int64
		if err := a.tx.QueryRowContext(ctx, "SELECT pg_stat_get_xact_tuples_updated('records'::regclass), pg_stat_get_xact_tuples_hot_updated('records'::regclass)").Scan(&upd, &hot); err != nil {
			return err
		}
		if upd != 2 || hot != 2 {
			t.Errorf("%d updates of records, %d of them HOT; want 2 and 2", upd, hot)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.GetRecord(ctx, "conf", "d1", conf.ID)
	if err != nil || got.Version != 2 || !got.UpdatedAt.Equal(created.Add(2*time.Second)) {
		t.Fatalf("after the updates: %+v, %v", got, err)
	}
}

// Migration 0062 runs on a database with records: no index of records
// holds updated_at or version afterwards, and on PostgreSQL the table's
// pages are filled to 80 %; lists keep their order and the tick's listing its
// keys.
func TestRecordsHOTMigration(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		// Back to the schema before 0062.
		back := []string{"DELETE FROM schema_migrations WHERE version = 62", "DROP INDEX records_domain",
			"CREATE INDEX records_domain ON records(kind, domain_moid, updated_at)",
			"CREATE INDEX records_conf_keys ON records(kind, state, id, domain_moid, version) WHERE kind = 'conf'"}
		if db.d.dollar {
			back = append(back, "ALTER TABLE records RESET (fillfactor)")
		}
		for _, q := range back {
			if _, err := db.wdb.ExecContext(ctx, q); err != nil {
				t.Fatalf("%.40s: %v", q, err)
			}
		}
		at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
		for i, id := range []string{"c", "a", "d", "b"} { // updated in this order
			tpl := store.Record{Kind: "tpl", ID: id, DomainMoid: "d1", Data: []byte(`{}`), CreatedAt: at, UpdatedAt: at.Add(time.Duration(i) * time.Second)}
			conf := store.Record{Kind: "conf", ID: "111000" + id, DomainMoid: "d1", State: "running", Data: []byte(`{}`), CreatedAt: at, UpdatedAt: at}
			for _, r := range []store.Record{tpl, conf} {
				if err := db.CreateRecord(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
		}
		db.Close()

		db, err = Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if v, err := db.SchemaVersion(ctx); err != nil || v < 62 {
			t.Fatalf("SchemaVersion = %d, %v", v, err)
		}
		indexes := "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records' AND sql IS NOT NULL"
		want := 4 // the primary key's is sqlite_autoindex_records_1, without sql
		if db.d.dollar {
			indexes = "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'records'"
			want = 5
		}
		{
			rows, err := db.rdb.QueryContext(ctx, indexes)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var def string
				if err := rows.Scan(&def); err != nil {
					t.Fatal(err)
				}
				n++
				if strings.Contains(def, "updated_at") || strings.Contains(def, "version") {
					t.Errorf("an index still holds a column a speaker change writes: %s", def)
				}
			}
			if err := rows.Err(); err != nil || n != want {
				t.Fatalf("%d indexes of records, %v", n, err)
			}
			rows.Close()
		}
		if db.d.dollar {
			var opts string
			if err := db.rdb.QueryRowContext(ctx, "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = 'records'::regclass").Scan(&opts); err != nil || opts != "fillfactor=80" {
				t.Errorf("options of records %q, %v; want fillfactor=80", opts, err)
			}
		}
		ids := func(q store.RecordQuery) string {
			recs, total, err := db.ListRecords(ctx, q)
			if err != nil || total != 4 {
				t.Fatalf("ListRecords(%+v): %d, %v", q, total, err)
			}
			var s string
			for _, r := range recs {
				s += r.ID
			}
			return s
		}
		for _, c := range []struct {
			q    store.RecordQuery
			want string
		}{
			{store.RecordQuery{Kind: "tpl", DomainMoid: "d1"}, "cadb"},
			{store.RecordQuery{Kind: "tpl", DomainMoid: "d1", Desc: true}, "bdac"},
			{store.RecordQuery{Kind: "tpl", DomainMoid: "d1", Start: 1, Count: 2}, "ad"},
			{store.RecordQuery{Kind: "tpl", DomainMoid: "d1", Desc: true, Start: 1, Count: 2}, "da"},
			{store.RecordQuery{Kind: "conf", DomainMoid: "d1"}, "111000a111000b111000c111000d"}, // one update time: by id
		} {
			if got := ids(c.q); got != c.want {
				t.Errorf("ListRecords(%+v) = %s, want %s", c.q, got, c.want)
			}
		}
		keys, err := db.RecordKeys(ctx, "conf", "running")
		if err != nil || len(keys) != 4 {
			t.Fatalf("RecordKeys: %v, %v", keys, err)
		}
		for _, k := range keys {
			if k.DomainMoid != "d1" || k.Version != 0 {
				t.Errorf("RecordKeys: %+v", k)
			}
		}
	})
}
