package sqlstore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/confer-platform/confer/internal/store"
)

// Record writes. Each commits the record and its event (events.go)
// together. On SQLite they go through the group commit (writer.go) with
// prepared statements; on PostgreSQL a creation or update without notices
// goes through the group commit of pgbatch.go, the rest in a transaction
// of its own.

// recordEvent appends the event of a change of rec inside tx, then the
// notices ctx carries (notify.go), and returns the event's number. The
// counter's row exists (Open).
func (db *DB) recordEvent(ctx context.Context, tx *sql.Tx, rec store.Record, op string) (int64, error) {
	var seq int64
	if err := db.txQueryRow(ctx, tx, "UPDATE counters SET value = value + 1 WHERE name = ? RETURNING value", eventCounter).Scan(&seq); err != nil {
		return 0, err
	}
	if _, err := db.txExec(ctx, tx, insertEvent, seq, rec.Kind, rec.ID, rec.DomainMoid, rec.OwnerMoid, op, rec.State, nanos(rec.UpdatedAt)); err != nil {
		return 0, err
	}
	return seq, db.appendNotices(ctx, tx)
}

const insertEvent = "INSERT INTO events (seq, kind, id, domain_moid, owner_moid, op, state, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

// fastPath tells whether a write goes to PostgreSQL's group commit: not on
// SQLite, and not when ctx carries notices, which then go on in the
// returned context to the transactional path.
func (db *DB) fastPath(ctx context.Context) (context.Context, bool) {
	if db.w != nil || db.d.name != postgres.name {
		return ctx, false
	}
	ns := store.TakeNotices(ctx)
	if len(ns) == 0 {
		return ctx, true
	}
	ctx, n := store.WithNotices(ctx)
	n.Set(ns...)
	return ctx, false
}

// returningEvent ends a record statement of the PostgreSQL group commit
// (pgbatch.go): the fields of the change's event, then the rest of the
// stored record but its document, for this handle's own writes
// (ownwrites.go).
const returningEvent = " RETURNING kind, id, domain_moid, owner_moid, state, updated_at, due_at, created_at, version"

// returningStored ends an update outside the group commit: the stored
// owner, which updates do not carry, for the event, and the creation time
// and new version, for this handle's own writes (ownwrites.go).
const returningStored = " RETURNING owner_moid, created_at, version"

// insertRecord writes start_at too, which reads do not return
// (confstart.go).
const insertRecord = "INSERT INTO records (" + recordCols + ", start_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

func recordArgs(r store.Record) []any {
	return []any{r.Kind, r.ID, r.DomainMoid, r.OwnerMoid, r.State, nanos(r.DueAt), string(r.Data), nanos(r.CreatedAt), nanos(r.UpdatedAt), r.Version, confStart(r)}
}

// recordArgsData is the index of the document among recordArgs: the
// string stored, which this handle's own writes keep (ownwrites.go).
const recordArgsData = 6

// CreateRecord stores a new record and its event.
func (db *DB) CreateRecord(ctx context.Context, r store.Record) error {
	args := recordArgs(r)
	ctx, fast := db.fastPath(ctx)
	if fast {
		return db.pgb.write(ctx, &pgJob{kind: r.Kind, id: r.ID, query: db.d.q(insertRecord + " ON CONFLICT DO NOTHING" + returningEvent),
			args: args, data: args[recordArgsData].(string), op: store.OpCreate, miss: store.ErrDuplicate})
	}
	var own ownWrite
	err := db.writeOwn(ctx, &own, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := db.txExec(ctx, tx, insertRecord, args...); err != nil {
			return err
		}
		seq, err := db.recordEvent(ctx, tx, r, store.OpCreate)
		if err == nil {
			own.add(db, storedRecord(r), args[recordArgsData].(string), seq)
		}
		return err
	})
	return insertErr(err)
}

// byKeyInDomain selects a record by its primary key and checks its
// domain with IS NOT DISTINCT FROM (the column is NOT NULL: equality),
// which no index serves: with "domain_moid = ?" PostgreSQL without
// statistics (a new database, autovacuum off) found the row through the
// index of (kind, domain_moid), records_domain, reading every record of the
// domain for each write (docs/benchmarks.md "Batch additions on
// PostgreSQL"; getByKey).
const byKeyInDomain = " WHERE kind = ? AND id = ? AND domain_moid IS NOT DISTINCT FROM ?"

// updateRecord is the UPDATE of UpdateRecord and SwapRecord: r's data,
// state, due and update times, with the conditions of where. The first
// argument is the document stored.
func updateRecord(r store.Record, where string, args ...any) (string, []any) {
	q := "UPDATE records SET data = ?, state = ?, due_at = ?, updated_at = ?, start_at = COALESCE(?, created_at / 1000000000), version = version + 1" + byKeyInDomain + where
	return q, append([]any{string(r.Data), r.State, nanos(r.DueAt), nanos(r.UpdatedAt), docStart(r), r.Kind, r.ID, r.DomainMoid}, args...)
}

// updateDocument is updateRecord for a record whose state, due time and
// (a conference's) start second already have r's values: it sets only
// the document, the update time and the version, and matches no row
// otherwise. SQLite rewrites the entries of every index holding a column
// the statement sets, whatever the values, so a change of the document
// alone (a speaker, a chairman, a mute) would rewrite the entries of
// records_due and records_conf_start for nothing (and, with migration
// 0062, writes the row alone); writeUpdate tries this first on SQLite
// (docs/benchmarks.md "Fourth pass").
func updateDocument(r store.Record, where string, args ...any) (string, []any) {
	same := " AND state = ? AND due_at = ?"
	if r.Kind == "conf" {
		same += " AND start_at IS COALESCE(?, created_at / 1000000000)"
	}
	q := "UPDATE records SET data = ?, updated_at = ?, version = version + 1" + byKeyInDomain + same + where
	all := []any{string(r.Data), nanos(r.UpdatedAt), r.Kind, r.ID, r.DomainMoid, r.State, nanos(r.DueAt)}
	if r.Kind == "conf" {
		all = append(all, docStart(r))
	}
	return q, append(all, args...)
}

// writeUpdate writes r with updateRecord's statement and the conditions
// of where, and appends its event; the stored owner, which updates do
// not carry, goes into the event. ErrNotFound when no row matched. On
// SQLite updateDocument goes first, the full statement when it matched
// nothing.
func (db *DB) writeUpdate(ctx context.Context, r store.Record, where string, whereArgs []any) error {
	ctx, fast := db.fastPath(ctx)
	q, args := updateRecord(r, where, whereArgs...)
	if fast {
		return db.pgb.write(ctx, &pgJob{kind: r.Kind, id: r.ID, query: db.d.q(q + returningEvent), args: args,
			data: args[0].(string), op: store.OpUpdate, miss: store.ErrNotFound})
	}
	var own ownWrite
	err := db.writeOwn(ctx, &own, func(ctx context.Context, tx *sql.Tx) error {
		err := sql.ErrNoRows
		var rec store.Record
		if db.w != nil {
			dq, dargs := updateDocument(r, where, whereArgs...)
			rec, err = scanUpdated(r, db.txQueryRow(ctx, tx, dq+returningStored, dargs...))
		}
		if err == sql.ErrNoRows {
			rec, err = scanUpdated(r, db.txQueryRow(ctx, tx, q+returningStored, args...))
		}
		if err != nil {
			return notFound(err)
		}
		seq, err := db.recordEvent(ctx, tx, rec, store.OpUpdate)
		if err == nil {
			own.add(db, rec, args[0].(string), seq)
		}
		return err
	})
	return err
}

// scanUpdated is r as an update stored it: with the owner, creation time
// and version of returningStored (storedRecord).
func scanUpdated(r store.Record, row scanner) (store.Record, error) {
	var created int64
	if err := row.Scan(&r.OwnerMoid, &created, &r.Version); err != nil {
		return r, err
	}
	r.CreatedAt = fromNanos(created)
	return storedRecord(r), nil
}

// UpdateRecord replaces a record's data, state and due time.
func (db *DB) UpdateRecord(ctx context.Context, r store.Record, ifState string) error {
	where, args := "", []any(nil)
	if ifState != "" {
		where, args = " AND state = ?", []any{ifState}
	}
	return db.writeUpdate(ctx, r, where, args)
}

// SwapRecord writes r over the version it was read at.
func (db *DB) SwapRecord(ctx context.Context, r store.Record) error {
	err := db.writeUpdate(ctx, r, " AND version = ?", []any{r.Version})
	if err == store.ErrNotFound {
		if _, gerr := db.GetRecord(ctx, r.Kind, r.DomainMoid, r.ID); gerr == nil {
			return store.ErrConflict
		}
	}
	return err
}

const deleteRecord = "DELETE FROM records" + byKeyInDomain + " RETURNING owner_moid, state, updated_at"

// DeleteRecord removes a record of a domain and logs its deletion.
func (db *DB) DeleteRecord(ctx context.Context, kind, domain, id string) error {
	err := db.writeEvents(ctx, func(ctx context.Context, tx *sql.Tx) error {
		rec := store.Record{Kind: kind, ID: id, DomainMoid: domain}
		var updated int64
		err := db.txQueryRow(ctx, tx, deleteRecord, kind, id, domain).Scan(&rec.OwnerMoid, &rec.State, &updated)
		if err != nil {
			return notFound(err)
		}
		rec.UpdatedAt = fromNanos(updated) // the store has no clock: a deletion is dated by the record's last change
		_, err = db.recordEvent(ctx, tx, rec, store.OpDelete)
		return err
	})
	// Its event would drop the entry when read; forgetting it now spares
	// a stale answer meanwhile (ownwrites.go).
	db.own.forget(kind, id)
	return err
}

// nextNumber is one statement on both engines: the first value is min,
// then each call adds one, wrapping to min outside [min, max].
const nextNumber = `INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE
	SET value = CASE WHEN counters.value + 1 < ? OR counters.value + 1 > ? THEN ? ELSE counters.value + 1 END RETURNING value`

// NextNumber advances a counter within [min, max].
func (db *DB) NextNumber(ctx context.Context, counter string, min, max int64) (int64, error) {
	var v int64
	if db.w == nil {
		err := db.wdb.QueryRowContext(ctx, db.d.q(nextNumber), counter, min, min, max, min).Scan(&v)
		return v, err
	}
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return db.txQueryRow(ctx, tx, nextNumber, counter, min, min, max, min).Scan(&v)
	})
	return v, err
}

// recordFilter is the WHERE clause of a record query (paging and order
// aside).
func recordFilter(q store.RecordQuery) (string, []any) {
	where := []string{"kind = ?"}
	args := []any{q.Kind}
	switch {
	case q.DomainMoid != "" && q.OwnerMoid != "":
		// With an owner (a conference's terminals), records_owner
		// (kind, owner_moid, domain_moid) selects the few rows; without
		// statistics PostgreSQL preferred the smaller records_domain
		// (kind, domain_moid, since migration 0062) and read every
		// terminal of the domain. IS NOT DISTINCT FROM (equality: the
		// column is NOT NULL) keeps records_domain out (byKeyInDomain).
		where, args = append(where, "domain_moid IS NOT DISTINCT FROM ?"), append(args, q.DomainMoid)
	case q.DomainMoid != "":
		where, args = append(where, "domain_moid = ?"), append(args, q.DomainMoid)
	}
	if q.OwnerMoid != "" {
		where, args = append(where, "owner_moid = ?"), append(args, q.OwnerMoid)
	}
	if len(q.States) > 0 {
		where = append(where, "state IN (?"+strings.Repeat(", ?", len(q.States)-1)+")")
		for _, s := range q.States {
			args = append(args, s)
		}
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// pageClause is the LIMIT/OFFSET of a page of count rows from start (every
// row from start when count is 0); SQLite needs a LIMIT before an OFFSET.
func (db *DB) pageClause(count, start int) (string, []any) {
	switch {
	case count > 0:
		return " LIMIT ? OFFSET ?", []any{count, max(start, 0)}
	case start > 0 && db.d.dollar:
		return " OFFSET ?", []any{start}
	case start > 0:
		return " LIMIT -1 OFFSET ?", []any{start}
	}
	return "", nil
}

// CountRecords counts the records that q selects.
func (db *DB) CountRecords(ctx context.Context, q store.RecordQuery) (int, error) {
	if query, args := countsQuery(q); query != "" { // recordcounts.go
		return db.countRows(db.readRow(ctx, query, args...))
	}
	cond, args := recordFilter(q)
	var n int
	err := db.readRow(ctx, "SELECT COUNT(*) FROM records"+cond, args...).Scan(&n)
	return n, err
}
