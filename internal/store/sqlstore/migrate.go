package sqlstore

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrationLockKey is the PostgreSQL advisory-lock key that serializes
// migrations when several nodes start at once.
const migrationLockKey = 7243001

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the migrations of a dialect in order. Most files are
// portable SQL; a file named NNNN_name.sqlite.sql or NNNN_name.postgres.sql
// applies to that engine only (an index over an expression that the two
// engines write differently), and the two share the version number.
func migrations(dialect string) ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		base := strings.TrimSuffix(e.Name(), ".sql")
		if i := strings.LastIndexByte(base, '.'); i >= 0 && base[i+1:] != dialect {
			continue
		}
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number and _", e.Name())
		}
		b, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{v, e.Name(), string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// migrate applies the embedded migrations that the database lacks, in one
// transaction. On PostgreSQL a transaction-scoped advisory lock makes a
// second node wait and then find everything applied; on SQLite the
// transaction begins IMMEDIATE, which takes the write lock at once.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations(db.d.name)
	if err != nil {
		return err
	}
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if db.d.dollar {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLockKey); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return err
	}
	applied := map[int]bool{}
	rows, err := tx.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return err
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return err
		}
		applied[v] = true
	}
	rows.Close()
	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, db.d.q("INSERT INTO schema_migrations (version, name) VALUES (?, ?)"), m.version, m.name); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// SchemaVersion returns the newest applied migration, for readiness checks.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := db.rdb.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v)
	return v, err
}
