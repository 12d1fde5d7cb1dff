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
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	_ "modernc.org/sqlite"             // SQLite driver "sqlite"
)

// DB is the SQL store. Reads go to rdb; writes go to wdb. On SQLite wdb is a
// pool of one connection, so writers queue in Go instead of sleeping in
// SQLite's busy handler; on PostgreSQL both are the same pool.
type DB struct {
	rdb, wdb  *sql.DB
	d         dialect
	w         *writer      // SQLite's group commit (writer.go); nil on PostgreSQL
	pgb       *pgBatcher   // PostgreSQL's group commit of record writes (pgbatch.go)
	wk        *waker       // PostgreSQL's wake-ups of the event log (wake.go); nil on SQLite
	counter   *soleConn    // PostgreSQL: the event counter's reads on a connection of their own (soleconn.go)
	ws, rs    *stmtCache   // SQLite's prepared statements on wdb and rdb (stmts.go)
	keys      keyCache     // RecordKeys' last listings (keys.go)
	pages     pageCache    // ConfsByStart's pages (confpage.go)
	shm       *walIndex    // SQLite's wal-index header, mapped (walstamp.go); nil: read the counter
	pin       *sql.Conn    // a read connection held open while shm is mapped
	shmFile   *walIndex    // holds the "-shm" file open until the pools close (walstamp_unix.go)
	counted   stampedCount // the event counter with the header read before it
	countGate countGate    // coalesced reads of the counter by query (countgate.go)
	claims    atomic.Int64 // Claim's count: one in pruneEvery prunes (claims.go)
	own       ownWrites    // this handle's recent record writes, for GetRecords (ownwrites.go)
	folds     folder       // PostgreSQL: folds of record_counts' rows (recordcounts.go)
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
	// The event counter's row exists from now on, so that appending an
	// event is one statement (records_write.go).
	if _, err := db.wdb.ExecContext(ctx, db.d.q("INSERT INTO counters (name, value) VALUES (?, 0) ON CONFLICT (name) DO NOTHING"), eventCounter); err != nil {
		db.Close()
		return nil, fmt.Errorf("event counter: %w", err)
	}
	if db.d.name == sqlite.name {
		db.ws, db.rs = newStmtCache(db.wdb, false), newStmtCache(db.rdb, true)
		if err := db.ws.prepare(ctx, writeStmts); err != nil {
			db.Close()
			return nil, err
		}
		db.w = startWriter(db)
		db.mapWAL(ctx, dsn)
	} else {
		if err := db.fold(ctx); err != nil { // recordcounts.go
			db.Close()
			return nil, fmt.Errorf("fold record counts: %w", err)
		}
		db.counter = &soleConn{dsn: dsn} // soleconn.go
		if db.wk, err = startWaker(ctx, dsn, db.wdb); err != nil {
			db.Close()
			return nil, err
		}
		db.pgb = startPGBatcher(db)
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
	rdb.SetMaxOpenConns(9) // 8 and the one held for the wal-index mapping (walstamp.go)
	rdb.SetMaxIdleConns(9)
	if err := pingSQLite(ctx, wdb); err != nil {
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
	db.folds.wg.Wait()
	if db.w != nil {
		db.w.stop()
	}
	if db.pgb != nil {
		db.pgb.stop()
	}
	if db.wk != nil {
		db.wk.stop() // after the writers: it announces their last commits
	}
	if db.counter != nil {
		db.counter.close()
	}
	if db.shm != nil {
		db.shm.close()
		db.pin.Close()
	}
	for _, c := range []*stmtCache{db.ws, db.rs} {
		if c != nil {
			c.close()
		}
	}
	err := db.wdb.Close()
	if db.rdb != db.wdb {
		if e := db.rdb.Close(); err == nil {
			err = e
		}
	}
	if db.shmFile != nil {
		db.shmFile.release() // after SQLite's connections: it drops their locks
	}
	return err
}

// pingSQLite opens the first connection. Switching a new file to WAL needs
// an exclusive lock and does not wait in the busy handler, so a process that
// opens the file at the same moment as another retries for a while.
func pingSQLite(ctx context.Context, db *sql.DB) error {
	var err error
	for i := 0; i < 50; i++ {
		if err = db.PingContext(ctx); err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(10+i*10) * time.Millisecond):
		}
	}
	return err
}
