package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

const recordCols = "kind, id, domain_moid, owner_moid, state, due_at, data, created_at, updated_at, version"

type scanner interface{ Scan(...any) error }

func scanRecord(s scanner) (store.Record, error) {
	var r store.Record
	var due, created, updated int64
	var data string
	err := s.Scan(&r.Kind, &r.ID, &r.DomainMoid, &r.OwnerMoid, &r.State, &due, &data, &created, &updated, &r.Version)
	r.Data = []byte(data)
	r.DueAt, r.CreatedAt, r.UpdatedAt = fromNanos(due), fromNanos(created), fromNanos(updated)
	return r, err
}

// inTx runs f in a write transaction and commits it.
func (db *DB) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// execOneTx runs a write in tx and reports ErrNotFound when it touched no row.
func (db *DB) execOneTx(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	res, err := tx.ExecContext(ctx, db.d.q(query), args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// CreateRecord stores a new record and its event.
func (db *DB) CreateRecord(ctx context.Context, r store.Record) error {
	return insertErr(db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.d.q("INSERT INTO records ("+recordCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
			r.Kind, r.ID, r.DomainMoid, r.OwnerMoid, r.State, nanos(r.DueAt), string(r.Data), nanos(r.CreatedAt), nanos(r.UpdatedAt), r.Version); err != nil {
			return err
		}
		return db.appendEvent(ctx, tx, r, store.OpCreate)
	}))
}

// UpdateRecord replaces a record's data, state and due time.
func (db *DB) UpdateRecord(ctx context.Context, r store.Record, ifState string) error {
	q := "UPDATE records SET data = ?, state = ?, due_at = ?, updated_at = ?, version = version + 1 WHERE kind = ? AND id = ? AND domain_moid = ?"
	args := []any{string(r.Data), r.State, nanos(r.DueAt), nanos(r.UpdatedAt), r.Kind, r.ID, r.DomainMoid}
	if ifState != "" {
		q += " AND state = ?"
		args = append(args, ifState)
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.execOneTx(ctx, tx, q, args...); err != nil {
			return err
		}
		return db.appendEvent(ctx, tx, db.withOwner(ctx, tx, r), store.OpUpdate)
	})
}

// withOwner fills in the stored owner of r, which updates do not carry.
func (db *DB) withOwner(ctx context.Context, tx *sql.Tx, r store.Record) store.Record {
	_ = tx.QueryRowContext(ctx, db.d.q("SELECT owner_moid FROM records WHERE kind = ? AND id = ? AND domain_moid = ?"),
		r.Kind, r.ID, r.DomainMoid).Scan(&r.OwnerMoid)
	return r
}

// SwapRecord writes r over the version it was read at.
func (db *DB) SwapRecord(ctx context.Context, r store.Record) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.execOneTx(ctx, tx, `UPDATE records SET data = ?, state = ?, due_at = ?, updated_at = ?, version = version + 1
			WHERE kind = ? AND id = ? AND domain_moid = ? AND version = ?`,
			string(r.Data), r.State, nanos(r.DueAt), nanos(r.UpdatedAt), r.Kind, r.ID, r.DomainMoid, r.Version); err != nil {
			return err
		}
		return db.appendEvent(ctx, tx, db.withOwner(ctx, tx, r), store.OpUpdate)
	})
	if err == store.ErrNotFound {
		if _, gerr := db.GetRecord(ctx, r.Kind, r.DomainMoid, r.ID); gerr == nil {
			return store.ErrConflict
		}
	}
	return err
}

// GetRecord reads a record of a domain.
func (db *DB) GetRecord(ctx context.Context, kind, domain, id string) (store.Record, error) {
	row := db.rdb.QueryRowContext(ctx, db.d.q("SELECT "+recordCols+" FROM records WHERE kind = ? AND id = ? AND domain_moid = ?"), kind, id, domain)
	r, err := scanRecord(row)
	return r, notFound(err)
}

// DeleteRecord removes a record of a domain and logs its deletion.
func (db *DB) DeleteRecord(ctx context.Context, kind, domain, id string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		rec := store.Record{Kind: kind, ID: id, DomainMoid: domain}
		var updated int64
		err := tx.QueryRowContext(ctx, db.d.q("SELECT owner_moid, state, updated_at FROM records WHERE kind = ? AND id = ? AND domain_moid = ?"),
			kind, id, domain).Scan(&rec.OwnerMoid, &rec.State, &updated)
		if err != nil {
			return notFound(err)
		}
		rec.UpdatedAt = fromNanos(updated) // the store has no clock: a deletion is dated by the record's last change
		if err := db.execOneTx(ctx, tx, "DELETE FROM records WHERE kind = ? AND id = ? AND domain_moid = ?", kind, id, domain); err != nil {
			return err
		}
		return db.appendEvent(ctx, tx, rec, store.OpDelete)
	})
}

// ListRecords pages through records, ordered by last update (then id).
func (db *DB) ListRecords(ctx context.Context, q store.RecordQuery) ([]store.Record, int, error) {
	where := []string{"kind = ?"}
	args := []any{q.Kind}
	if q.DomainMoid != "" {
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
	cond := " WHERE " + strings.Join(where, " AND ")
	var total int
	if err := db.rdb.QueryRowContext(ctx, db.d.q("SELECT COUNT(*) FROM records"+cond), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	order := " ORDER BY updated_at ASC, id ASC"
	if q.Desc {
		order = " ORDER BY updated_at DESC, id DESC"
	}
	page := ""
	if q.Count > 0 {
		page = " LIMIT ? OFFSET ?"
		args = append(args, q.Count, q.Start)
	} else if q.Start > 0 {
		page = " LIMIT -1 OFFSET ?"
		if db.d.dollar {
			page = " OFFSET ?"
		}
		args = append(args, q.Start)
	}
	rows, err := db.rdb.QueryContext(ctx, db.d.q("SELECT "+recordCols+" FROM records"+cond+order+page), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []store.Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// DueRecords returns records whose due time has come.
func (db *DB) DueRecords(ctx context.Context, kind, state string, now time.Time) ([]store.Record, error) {
	rows, err := db.rdb.QueryContext(ctx, db.d.q("SELECT "+recordCols+" FROM records WHERE kind = ? AND state = ? AND due_at <> 0 AND due_at <= ? ORDER BY due_at"),
		kind, state, nanos(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// NextNumber advances a counter within [min, max] in one transaction.
func (db *DB) NextNumber(ctx context.Context, counter string, min, max int64) (int64, error) {
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, db.d.q("INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"), counter, min-1); err != nil {
		return 0, err
	}
	var v int64
	if err := tx.QueryRowContext(ctx, db.d.q("SELECT value FROM counters WHERE name = ?"+db.d.forUpdate), counter).Scan(&v); err != nil {
		return 0, err
	}
	next := v + 1
	if next < min || next > max {
		next = min
	}
	if _, err := tx.ExecContext(ctx, db.d.q("UPDATE counters SET value = ? WHERE name = ?"), next, counter); err != nil {
		return 0, err
	}
	return next, tx.Commit()
}
