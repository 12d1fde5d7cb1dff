package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

var countsAt = time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)

func countRec(kind, id, domain string) store.Record {
	return store.Record{Kind: kind, ID: id, DomainMoid: domain, OwnerMoid: "c1", State: "online", Data: []byte(`{}`),
		CreatedAt: countsAt, UpdatedAt: countsAt}
}

// checkCounts compares CountRecords by kind and by kind and domain with
// counts of the records themselves.
func checkCounts(t *testing.T, db *DB, when string) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []store.RecordQuery{{Kind: "mt"}, {Kind: "conf"}, {Kind: "mt", DomainMoid: "d1"}, {Kind: "mt", DomainMoid: "d2"}} {
		got, err := db.CountRecords(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var want int
		query, args := "SELECT COUNT(*) FROM records WHERE kind = ?", []any{q.Kind}
		if q.DomainMoid != "" {
			query, args = query+" AND domain_moid = ?", append(args, q.DomainMoid)
		}
		if err := db.rdb.QueryRowContext(ctx, db.d.q(query), args...).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: CountRecords(%s %s) = %d, the records say %d", when, q.Kind, q.DomainMoid, got, want)
		}
	}
}

// record_counts (migration 0063) follows every way records are inserted
// and deleted: one at a time, in a batch, in a transaction that fails,
// and counts in a transaction see its own inserts.
func TestRecordCountsFollowWrites(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for i := range 5 {
			if err := db.CreateRecord(ctx, countRec("mt", fmt.Sprint("a", i), "d1")); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.CreateRecord(ctx, countRec("mt", "b0", "d2")); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateRecord(ctx, countRec("conf", "1110001", "d1")); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, db, "created one at a time")
		err = db.Atomic(ctx, func(tx store.Tx) error {
			var rs []store.Record
			for i := range 12 {
				rs = append(rs, countRec("mt", fmt.Sprint("c", i), []string{"d1", "d2"}[i%2]))
			}
			if err := tx.(*atomicTx).CreateRecords(rs); err != nil {
				return err
			}
			if n, err := tx.CountRecords(store.RecordQuery{Kind: "mt"}); err != nil || n != 18 {
				return fmt.Errorf("count in the transaction = %d, %v; want 18", n, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		checkCounts(t, db, "a batch")
		failed := errors.New("refused")
		err = db.Atomic(ctx, func(tx store.Tx) error {
			if err := tx.(*atomicTx).CreateRecords([]store.Record{countRec("mt", "x1", "d1"), countRec("mt", "x2", "d1")}); err != nil {
				return err
			}
			return failed
		})
		if !errors.Is(err, failed) {
			t.Fatalf("Atomic = %v", err)
		}
		checkCounts(t, db, "a transaction rolled back")
		if err := db.CreateRecord(ctx, countRec("mt", "a0", "d1")); !errors.Is(err, store.ErrDuplicate) {
			t.Fatalf("a duplicate: %v", err)
		}
		checkCounts(t, db, "a duplicate refused")
		for _, id := range []string{"a0", "a1", "c0"} {
			if err := db.DeleteRecord(ctx, "mt", "d1", id); err != nil {
				t.Fatal(err)
			}
		}
		checkCounts(t, db, "deleted")
		// The count is read from record_counts, not from the records.
		if _, err := db.wdb.ExecContext(ctx, "UPDATE record_counts SET n = n + 1000 WHERE kind = 'conf'"); err != nil {
			t.Fatal(err)
		}
		if n, _ := db.CountRecords(ctx, store.RecordQuery{Kind: "conf"}); n != 1001 {
			t.Errorf("CountRecords(conf) = %d after record_counts gained 1000, want 1001", n)
		}
	})
}

// A database that had records before 0063 counts them from the start.
func TestRecordCountsMigration(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		back := []string{"DELETE FROM schema_migrations WHERE version = 63", "DROP TRIGGER records_count_insert",
			"DROP TRIGGER records_count_delete", "DROP TABLE record_counts"}
		if db.d.dollar {
			back = []string{"DELETE FROM schema_migrations WHERE version = 63", "DROP TABLE record_counts",
				"DROP FUNCTION records_count_insert CASCADE", "DROP FUNCTION records_count_delete CASCADE"}
		}
		for _, q := range back {
			if _, err := db.wdb.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		for i := range 7 {
			if err := db.CreateRecord(ctx, countRec("mt", fmt.Sprint("m", i), []string{"d1", "d2"}[i%2])); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		db, err = Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		checkCounts(t, db, "after migrating")
		if n, _ := db.CountRecords(ctx, store.RecordQuery{Kind: "mt", DomainMoid: "d1"}); n != 4 {
			t.Errorf("d1 holds %d terminals, want 4", n)
		}
	})
}

// On PostgreSQL each backend counts in rows of its own: transactions on
// many connections insert and delete at once without waiting for each
// other or deadlocking, and the rows of backends that have gone are
// folded into backend 0 without changing a count.
func TestRecordCountsBackends(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testdb.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				err := db.Atomic(ctx, func(tx store.Tx) error {
					a := tx.(*atomicTx)
					if err := a.CreateRecords([]store.Record{countRec("mt", fmt.Sprintf("g%d-%d", g, i), "d1"),
						countRec("mt", fmt.Sprintf("h%d-%d", g, i), "d2")}); err != nil {
						return err
					}
					_, err := a.CountRecords(store.RecordQuery{Kind: "mt"})
					return err
				})
				if err == nil && i%2 == 1 {
					err = db.DeleteRecord(ctx, "mt", "d2", fmt.Sprintf("h%d-%d", g, i))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkCounts(t, db, "16 connections at once")
	var backends int
	if err := db.rdb.QueryRowContext(ctx, "SELECT COUNT(DISTINCT backend) FROM record_counts").Scan(&backends); err != nil {
		t.Fatal(err)
	}
	if backends < 2 {
		t.Errorf("record_counts has rows of %d backends, want several", backends)
	}
	// Rows of backends that never ran (pids above Linux's limit), more
	// than foldAbove of them: the next count folds them.
	if _, err := db.wdb.ExecContext(ctx, `INSERT INTO record_counts (kind, domain_moid, backend, n)
		SELECT 'mt', 'd1', 90000000 + i, CASE WHEN i % 2 = 0 THEN 3 ELSE -3 END FROM generate_series(1, 300) AS i`); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, db, "before folding")
	db.folds.wg.Wait()
	if db.folds.runs.Load() == 0 {
		t.Fatal("a count over 300 rows did not fold them")
	}
	// At most one fold a minute, however many rows the counts read.
	if _, err := db.wdb.ExecContext(ctx, `INSERT INTO record_counts (kind, domain_moid, backend, n)
		SELECT 'mt', 'd1', 90000000 + i, 0 FROM generate_series(1, 300) AS i`); err != nil {
		t.Fatal(err)
	}
	runs := db.folds.runs.Load()
	checkCounts(t, db, "again")
	db.folds.wg.Wait()
	if got := db.folds.runs.Load(); got != runs {
		t.Errorf("a second fold within a minute (%d folds, then %d)", runs, got)
	}
	db.folds.last.Store(0) // a minute later
	checkCounts(t, db, "a minute later")
	db.folds.wg.Wait()
	if db.folds.runs.Load() != runs+1 {
		t.Errorf("no fold a minute after the last")
	}
	var gone int
	if err := db.rdb.QueryRowContext(ctx, "SELECT COUNT(*) FROM record_counts WHERE backend > 90000000").Scan(&gone); err != nil {
		t.Fatal(err)
	}
	if gone != 0 {
		t.Errorf("%d rows of gone backends remain after folding", gone)
	}
	checkCounts(t, db, "after folding")
}
