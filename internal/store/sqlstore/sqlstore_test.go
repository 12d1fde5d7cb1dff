package sqlstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/store/storetest"
	"github.com/confer-platform/confer/internal/testdb"
)

func open(t *testing.T, dsn string) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestSuiteSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, testdb.SQLite(t)) })
}

func TestSuitePostgres(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, testdb.Postgres(t)) })
}

// Two nodes starting at once on one database both come up with the schema
// applied once.
func TestConcurrentMigrate(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := sqlstore.Open(context.Background(), dsn)
				if err == nil {
					db.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("node %d: Open: %v", i, err)
			}
		}
		db := open(t, dsn)
		v, err := db.SchemaVersion(context.Background())
		if err != nil || v < 1 {
			t.Fatalf("SchemaVersion = %d, %v", v, err)
		}
	})
}

// What was acknowledged survives closing and reopening the store.
func TestReopenKeepsData(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.PutLicense(ctx, store.License{Key: "k", SecretHash: "h", CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		db = open(t, dsn)
		if _, err := db.LicenseByKey(ctx, "k"); err != nil {
			t.Fatalf("license lost after reopen: %v", err)
		}
	})
}

func TestOpenUnreachablePostgres(t *testing.T) {
	_, err := sqlstore.Open(context.Background(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
	if err == nil {
		t.Fatal("Open of an unreachable PostgreSQL succeeded")
	}
}
