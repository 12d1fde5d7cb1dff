// Package sqlstore implements store.Store in portable SQL on two engines:
// SQLite through the pure-Go modernc.org/sqlite driver (WAL mode, the
// embedded default) and PostgreSQL through pgx. Queries are written once
// with `?` placeholders; the dialect rewrites them for PostgreSQL.
package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	_ "modernc.org/sqlite"             // SQLite driver "sqlite"
)

// DB is the SQL store. Reads go to rdb; writes go to wdb. On SQLite wdb is a
// pool of one connection, so writers queue in Go instead of sleeping in
// SQLite's busy handler; on PostgreSQL both are the same pool.
type DB struct {
	rdb, wdb *sql.DB
	d        dialect
}

// IsPostgres tells whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the store named by dsn (a SQLite file path or a postgres:// URL),
// checks that it is reachable and applies the embedded migrations.
func Open(ctx context.Context, dsn string) (*DB, error) {
	var db *DB
	var err error
	if IsPostgres(dsn) {
		db, err = openPostgres(ctx, dsn)
	} else {
		db, err = openSQLite(ctx, dsn)
	}
	if err != nil {
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return db, nil
}

func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	pool, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	pool.SetMaxOpenConns(32)
	pool.SetMaxIdleConns(32)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.PingContext(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres unreachable: %w", err)
	}
	return &DB{rdb: pool, wdb: pool, d: postgres}, nil
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create database folder: %w", err)
		}
	}
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	wdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	wdb.SetMaxOpenConns(1)
	rdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		wdb.Close()
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	rdb.SetMaxOpenConns(8)
	rdb.SetMaxIdleConns(8)
	if err := wdb.PingContext(ctx); err != nil {
		wdb.Close()
		rdb.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return &DB{rdb: rdb, wdb: wdb, d: sqlite}, nil
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.rdb.PingContext(ctx) }

// Close closes both pools.
func (db *DB) Close() error {
	err := db.wdb.Close()
	if db.rdb != db.wdb {
		if e := db.rdb.Close(); err == nil {
			err = e
		}
	}
	return err
}
