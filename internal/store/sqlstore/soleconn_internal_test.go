package sqlstore

import (
	"context"
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
)

// The counter's connection of its own survives its backend being killed
// (a restart of PostgreSQL, a proxy dropping it): the next read opens a
// new connection and answers, as the pool's reads do.
func TestSoleConnReconnects(t *testing.T) {
	dsn := testdb.Postgres(t) // skips without CONFER_TEST_POSTGRES
	ctx := context.Background()
	db, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.NextNumber(ctx, "x", 1, 100); err != nil {
		t.Fatal(err)
	}
	first, err := db.readEventCount(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pid := db.counter.c.PgConn().PID()
	if _, err := db.wdb.ExecContext(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	again, err := db.readEventCount(ctx)
	if err != nil {
		t.Fatalf("the read after the connection was killed: %v", err)
	}
	if again != first || db.counter.c.PgConn().PID() == pid {
		t.Fatalf("count %d then %d, backend %d then %d: want the same count from a new backend", first, again, pid, db.counter.c.PgConn().PID())
	}
	db.Close()
	if _, err := db.readEventCount(ctx); err == nil {
		t.Fatal("a read after Close answered")
	}
}
