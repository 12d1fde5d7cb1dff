package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/confer-platform/confer/internal/store"
)

// Atomic runs f in one transaction (store.Store.Atomic). The events of
// its writes are appended at the end, under one increment of the event
// counter, so that on PostgreSQL the counter's row is locked last and
// briefly: a transaction never holds it while waiting for a record.
func (db *DB) Atomic(ctx context.Context, f func(tx store.Tx) error) error {
	return insertErr(db.writeEvents(ctx, func(ctx context.Context, tx *sql.Tx) error {
		a := &atomicTx{db: db, ctx: ctx, tx: tx}
		if err := f(a); err != nil {
			return err
		}
		if err := a.appendEvents(); err != nil {
			return err
		}
		return db.appendNotices(ctx, tx)
	}))
}

type atomicTx struct {
	db     *DB
	ctx    context.Context
	tx     *sql.Tx
	events []store.Event
}

func (a *atomicTx) CreateRecord(r store.Record) error {
	if _, err := a.db.txExec(a.ctx, a.tx, insertRecord, recordArgs(r)...); err != nil {
		return insertErr(err)
	}
	a.event(r, store.OpCreate)
	return nil
}

func (a *atomicTx) SwapRecord(r store.Record) error {
	q, args := updateRecord(r, " AND version = ?", r.Version)
	err := a.db.txQueryRow(a.ctx, a.tx, q+" RETURNING owner_moid", args...).Scan(&r.OwnerMoid)
	if err == sql.ErrNoRows {
		var one int
		if a.db.txQueryRow(a.ctx, a.tx, "SELECT 1 FROM records WHERE kind = ? AND id = ? AND domain_moid = ?", r.Kind, r.ID, r.DomainMoid).Scan(&one) == nil {
			return store.ErrConflict
		}
		return store.ErrNotFound
	}
	if err != nil {
		return err
	}
	a.event(r, store.OpUpdate)
	return nil
}

func (a *atomicTx) GetRecord(kind, domain, id string) (store.Record, error) {
	r, err := scanRecord(a.db.txQueryRow(a.ctx, a.tx, getByKey, kind, id))
	return inDomain(r, err, domain)
}

func (a *atomicTx) CountRecords(q store.RecordQuery) (int, error) {
	cond, args := recordFilter(q)
	var n int
	err := a.db.txQueryRow(a.ctx, a.tx, "SELECT COUNT(*) FROM records"+cond, args...).Scan(&n)
	return n, err
}

func (a *atomicTx) ListRecords(q store.RecordQuery) ([]store.Record, error) {
	cond, args := recordFilter(q)
	rows, err := a.tx.QueryContext(a.ctx, a.db.d.q("SELECT "+recordCols+" FROM records"+cond+" ORDER BY updated_at ASC, id ASC"), args...)
	if err != nil {
		return nil, err
	}
	return scanRecords(rows)
}

func (a *atomicTx) NextNumber(counter string, min, max int64) (int64, error) {
	var v int64
	err := a.db.txQueryRow(a.ctx, a.tx, nextNumber, counter, min, min, max, min).Scan(&v)
	return v, err
}

func (a *atomicTx) event(r store.Record, op string) {
	a.events = append(a.events, store.Event{Kind: r.Kind, ID: r.ID, DomainMoid: r.DomainMoid, OwnerMoid: r.OwnerMoid, Op: op, State: r.State, At: r.UpdatedAt})
}

// appendEvents numbers the transaction's events in the order of its
// writes and stores them: one row per statement on SQLite (prepared), one
// statement for all on PostgreSQL, the counter's increment included
// (appendEventsPG).
func (a *atomicTx) appendEvents() error {
	n := len(a.events)
	if n == 0 {
		return nil
	}
	if a.db.ws == nil {
		return a.appendEventsPG()
	}
	var last int64
	if err := a.db.txQueryRow(a.ctx, a.tx, "UPDATE counters SET value = value + ? WHERE name = ? RETURNING value", n, eventCounter).Scan(&last); err != nil {
		return err
	}
	args := make([]any, 0, 8*n)
	for i, e := range a.events {
		args = append(args, last-int64(n-1-i), e.Kind, e.ID, e.DomainMoid, e.OwnerMoid, e.Op, e.State, nanos(e.At))
	}
	for i := 0; i < n; i++ {
		if _, err := a.db.txExec(a.ctx, a.tx, insertEvent, args[8*i:8*i+8]...); err != nil {
			return err
		}
	}
	return nil
}

// appendEventsPG increments the event counter and inserts the events
// numbered below its new value in one statement, the one of the group
// commit (appendBatchEvents, pgpipe.go): one round trip where there were
// two. The counter's row is still locked last, at the end of the
// transaction, and held only until the commit.
func (a *atomicTx) appendEventsPG() error {
	n := len(a.events)
	res, err := a.tx.ExecContext(a.ctx, appendBatchEvents, appendEventsArgs(a.events)...)
	if err != nil {
		return err
	}
	if got, err := res.RowsAffected(); err != nil {
		return err
	} else if got != int64(n) { // cannot happen: a guard (appendBatchEvents)
		return fmt.Errorf("sqlstore: %d of %d events appended", got, n)
	}
	return nil
}
