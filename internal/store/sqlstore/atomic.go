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
//
// The records written are entered among this handle's own writes before
// the commit, numbered by their events (ownwrites.go).
func (db *DB) Atomic(ctx context.Context, f func(tx store.Tx) error) error {
	var own ownWrite
	err := db.writeOwn(ctx, &own, func(ctx context.Context, tx *sql.Tx) error {
		a := &atomicTx{db: db, ctx: ctx, tx: tx}
		if err := f(a); err != nil {
			return err
		}
		last, err := a.appendEvents()
		if err != nil {
			return err
		}
		for i, w := range a.written {
			own.add(db, w.rec, w.data, last-int64(len(a.written)-1-i))
		}
		return db.appendNotices(ctx, tx)
	})
	return insertErr(err)
}

type atomicTx struct {
	db      *DB
	ctx     context.Context
	tx      *sql.Tx
	events  []store.Event
	written []writtenRecord // the record of each event
}

// writtenRecord is a record as a transaction stored it (storedRecord)
// and its document.
type writtenRecord struct {
	rec  store.Record
	data string
}

func (a *atomicTx) CreateRecord(r store.Record) error {
	args := recordArgs(r)
	if _, err := a.db.txExec(a.ctx, a.tx, insertRecord, args...); err != nil {
		return insertErr(err)
	}
	a.event(storedRecord(r), args[recordArgsData].(string), store.OpCreate)
	return nil
}

func (a *atomicTx) SwapRecord(r store.Record) error {
	q, args := updateRecord(r, " AND version = ?", r.Version)
	r, err := scanUpdated(r, a.db.txQueryRow(a.ctx, a.tx, q+returningStored, args...))
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
	a.event(r, args[0].(string), store.OpUpdate)
	return nil
}

func (a *atomicTx) GetRecord(kind, domain, id string) (store.Record, error) {
	r, err := scanRecord(a.db.txQueryRow(a.ctx, a.tx, getByKey, kind, id))
	return inDomain(r, err, domain)
}

func (a *atomicTx) CountRecords(q store.RecordQuery) (int, error) {
	if query, args := countsQuery(q); query != "" { // recordcounts.go
		return a.db.countRows(a.db.txQueryRow(a.ctx, a.tx, query, args...))
	}
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

// event notes the write of r, as stored (storedRecord), with its
// document.
func (a *atomicTx) event(r store.Record, data string, op string) {
	a.events = append(a.events, store.Event{Kind: r.Kind, ID: r.ID, DomainMoid: r.DomainMoid, OwnerMoid: r.OwnerMoid, Op: op, State: r.State, At: r.UpdatedAt})
	a.written = append(a.written, writtenRecord{rec: r, data: data})
}

// appendEvents numbers the transaction's events in the order of its
// writes and stores them: one row per statement on SQLite (prepared), one
// statement for all on PostgreSQL, the counter's increment included
// (appendEventsPG). last is the last event's number.
func (a *atomicTx) appendEvents() (last int64, err error) {
	n := len(a.events)
	if n == 0 {
		return 0, nil
	}
	if a.db.ws == nil {
		return a.appendEventsPG()
	}
	if err := a.db.txQueryRow(a.ctx, a.tx, "UPDATE counters SET value = value + ? WHERE name = ? RETURNING value", n, eventCounter).Scan(&last); err != nil {
		return 0, err
	}
	args := make([]any, 0, 8*n)
	for i, e := range a.events {
		args = append(args, last-int64(n-1-i), e.Kind, e.ID, e.DomainMoid, e.OwnerMoid, e.Op, e.State, nanos(e.At))
	}
	for i := 0; i < n; i++ {
		if _, err := a.db.txExec(a.ctx, a.tx, insertEvent, args[8*i:8*i+8]...); err != nil {
			return 0, err
		}
	}
	return last, nil
}

// appendEventsPG increments the event counter and inserts the events
// numbered below its new value in one statement, the one of the group
// commit (appendBatchEvents, pgpipe.go): one round trip where there were
// two. The counter's row is still locked last, at the end of the
// transaction, and held only until the commit.
func (a *atomicTx) appendEventsPG() (last int64, err error) {
	n := len(a.events)
	var got int64
	if err := a.tx.QueryRowContext(a.ctx, appendBatchEvents, appendEventsArgs(a.events)...).Scan(&last, &got); err != nil {
		return 0, err
	}
	if got != int64(n) { // cannot happen: a guard (appendBatchEvents)
		return 0, fmt.Errorf("sqlstore: %d of %d events appended", got, n)
	}
	return last, nil
}
