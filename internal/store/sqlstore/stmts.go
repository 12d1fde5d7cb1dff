package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/confer-platform/confer/internal/store"
)

// Prepared statements of SQLite, kept for the life of the store: the
// driver otherwise parses every query again on every call, which was a
// sixth of a speaker change's CPU (docs/benchmarks.md). PostgreSQL's pgx
// already caches its prepared statements per connection.
//
// The write pool has one connection, which the group commit holds in a
// transaction, so its statements cannot be prepared on demand: they are
// prepared once at Open (writeStmts), and any other write statement runs
// unprepared. Reads prepare on demand.
type stmtCache struct {
	db   *sql.DB
	lazy bool // prepare on demand
	mu   sync.RWMutex
	m    map[string]*sql.Stmt
}

var errNotPrepared = errors.New("sqlstore: statement not prepared")

func newStmtCache(db *sql.DB, lazy bool) *stmtCache {
	return &stmtCache{db: db, lazy: lazy, m: map[string]*sql.Stmt{}}
}

// writeStmts are the write statements prepared at Open on SQLite.
var writeStmts = []string{
	"SAVEPOINT w", "ROLLBACK TO w", "RELEASE w",
	insertRecord, nextNumber, deleteRecord,
	"UPDATE counters SET value = value + 1 WHERE name = ? RETURNING value",
	"UPDATE counters SET value = value + ? WHERE name = ? RETURNING value",
	insertEvent,
	"SELECT 1 FROM records WHERE kind = ? AND id = ? AND domain_moid = ?",
	getByKey,
	insertToken, insertSession,
}

func init() {
	for _, where := range []string{"", " AND state = ?", " AND version = ?", (&DB{d: sqlite}).swapGuard()} {
		q, _ := updateRecord(store.Record{}, where)
		d, _ := updateDocument(store.Record{}, where)
		c, _ := updateDocument(store.Record{Kind: "conf"}, where)
		writeStmts = append(writeStmts, q+returningStored, d+returningStored, c+returningStored)
	}
}

// prepare prepares queries now.
func (c *stmtCache) prepare(ctx context.Context, queries []string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, q := range queries {
		st, err := c.db.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("prepare %q: %w", q, err)
		}
		c.m[q] = st
	}
	return nil
}

// get returns the statement of query, preparing it the first time when
// the cache is lazy.
func (c *stmtCache) get(query string) (*sql.Stmt, error) {
	c.mu.RLock()
	st := c.m[query]
	c.mu.RUnlock()
	if st != nil {
		return st, nil
	}
	if !c.lazy {
		return nil, errNotPrepared
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.m[query]; st != nil {
		return st, nil
	}
	st, err := c.db.PrepareContext(context.Background(), query)
	if err != nil {
		return nil, err
	}
	c.m[query] = st
	return st, nil
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}

// txExec runs a statement written with ? placeholders inside tx.
func (db *DB) txExec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if db.ws != nil {
		if st, err := db.ws.get(query); err == nil {
			return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
		}
	}
	return tx.ExecContext(ctx, db.d.q(query), args...)
}

// txQueryRow runs a query of one row inside tx.
func (db *DB) txQueryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	if db.ws != nil {
		if st, err := db.ws.get(query); err == nil {
			return tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
		}
	}
	return tx.QueryRowContext(ctx, db.d.q(query), args...)
}

// txQuery runs a query inside tx.
func (db *DB) txQuery(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	if db.ws != nil {
		if st, err := db.ws.get(query); err == nil {
			return tx.StmtContext(ctx, st).QueryContext(ctx, args...)
		}
	}
	return tx.QueryContext(ctx, db.d.q(query), args...)
}

// readRow runs a read of one row on the read pool.
func (db *DB) readRow(ctx context.Context, query string, args ...any) *sql.Row {
	if db.rs != nil {
		if st, err := db.rs.get(query); err == nil {
			return st.QueryRowContext(ctx, args...)
		}
	}
	return db.rdb.QueryRowContext(ctx, db.d.q(query), args...)
}
