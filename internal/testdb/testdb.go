// Package testdb gives tests real databases: a SQLite file in a temporary
// folder, and a fresh schema of the PostgreSQL named by CONFER_TEST_POSTGRES.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// EnvPostgres names the variable holding the test PostgreSQL DSN.
const EnvPostgres = "CONFER_TEST_POSTGRES"

// SQLite returns the path of a new SQLite database file.
func SQLite(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "confer.db")
}

// Postgres returns a DSN for a fresh, empty schema of the test PostgreSQL,
// dropped when the test ends. Without CONFER_TEST_POSTGRES the test skips.
func Postgres(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgres)
	if base == "" {
		t.Skipf("%s is not set: skipping the PostgreSQL run (.ci/run sets it)", EnvPostgres)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", EnvPostgres, err)
	}
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Engines runs f once per store engine: on SQLite always, and on PostgreSQL
// when CONFER_TEST_POSTGRES is set.
func Engines(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { f(t, Postgres(t)) })
}
