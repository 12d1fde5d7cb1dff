package sqlstore

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// A count of a kind's records, in one domain or in all, reads
// record_counts (migration 0063), which triggers keep in the transaction
// that inserts or deletes the records: a few rows however many records
// there are. vc's POST .../mts and the engine's Joined count every
// terminal of the platform for --max-ports on each batch; reading the
// records made that O(terminals), and a sequential scan on a PostgreSQL
// database without statistics. A count with an owner or states reads
// the records (records_owner, records_due).

// countsQuery returns the query that counts q's records from
// record_counts, or "" when q needs the records themselves.
func countsQuery(q store.RecordQuery) (string, []any) {
	if q.OwnerMoid != "" || len(q.States) > 0 {
		return "", nil
	}
	// The row count tells PostgreSQL's handle when to fold (foldCounts).
	query := "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT), COUNT(*) FROM record_counts WHERE kind = ?"
	args := []any{q.Kind}
	if q.DomainMoid != "" {
		query, args = query+" AND domain_moid = ?", append(args, q.DomainMoid)
	}
	return query, args
}

// countRows scans a count of countsQuery and, on PostgreSQL, folds the
// rows of gone backends when the count read too many of them.
func (db *DB) countRows(row *sql.Row) (int, error) {
	var n, rows int64
	if err := row.Scan(&n, &rows); err != nil {
		return 0, err
	}
	if db.d.dollar && rows > foldAbove {
		db.folds.start(db)
	}
	return int(n), nil
}

// foldAbove is how many rows a count may read before the rows of gone
// backends are folded: pool connections come and go (idle for five
// minutes, open.go), each a backend with rows of its own. The rows of
// running backends stay (folding them could deadlock with their
// writes), so a platform of many domains may read more than foldAbove
// rows after a fold too: foldEvery bounds how often a count starts one.
const (
	foldAbove = 256
	foldEvery = time.Minute
)

// foldCountsKey is the advisory-lock key that makes one node fold at a
// time.
const foldCountsKey = 7243002

// foldCounts adds the rows of the backends that no longer run into
// backend 0's and deletes them (PostgreSQL). A backend that starts
// meanwhile with a pid just folded waits for the fold's row lock or
// inserts its row afresh; either way nothing is counted twice or lost.
const foldCounts = `WITH gone AS (
	DELETE FROM record_counts WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity)
	RETURNING kind, domain_moid, n)
INSERT INTO record_counts (kind, domain_moid, backend, n)
	SELECT kind, domain_moid, 0, CAST(SUM(n) AS BIGINT) FROM gone GROUP BY kind, domain_moid
	ON CONFLICT (kind, domain_moid, backend) DO UPDATE SET n = record_counts.n + EXCLUDED.n`

// fold runs foldCounts in a transaction of its own.
func (db *DB) fold(ctx context.Context) error {
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", foldCountsKey); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, foldCounts); err != nil {
		return err
	}
	return tx.Commit()
}

// folder runs one fold at a time in the background, at most one every
// foldEvery.
type folder struct {
	running atomic.Bool
	last    atomic.Int64 // when the last fold started, Unix nanoseconds
	wg      sync.WaitGroup
	runs    atomic.Int64 // folds done (tests)
}

func (f *folder) start(db *DB) {
	now := time.Now().UnixNano()
	if now-f.last.Load() < int64(foldEvery) || !f.running.CompareAndSwap(false, true) {
		return
	}
	f.last.Store(now)
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		defer f.running.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), countReadTimeout)
		defer cancel()
		if db.fold(ctx) == nil {
			f.runs.Add(1)
		}
	}()
}
