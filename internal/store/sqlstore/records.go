package sqlstore

import (
	"context"
	"database/sql"
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

// getByKey reads a record by its primary key; the caller compares its
// domain (inDomain). With the domain in the WHERE clause, PostgreSQL
// without statistics (a new database, autovacuum off) picked the index of
// (kind, domain_moid), records_domain, and read every record of the domain
// for each read: a batch's reads grew with the terminals stored
// (docs/benchmarks.md "Batch additions on PostgreSQL").
const getByKey = "SELECT " + recordCols + " FROM records WHERE kind = ? AND id = ?"

// inDomain is a read of getByKey with its domain checked: ErrNotFound
// when the record is another domain's, as when it is absent.
func inDomain(r store.Record, err error, domain string) (store.Record, error) {
	if err = notFound(err); err == nil && r.DomainMoid != domain {
		return store.Record{}, store.ErrNotFound
	}
	return r, err
}

// GetRecord reads a record of a domain.
func (db *DB) GetRecord(ctx context.Context, kind, domain, id string) (store.Record, error) {
	r, err := scanRecord(db.readRow(ctx, getByKey, kind, id))
	return inDomain(r, err, domain)
}

// ListRecords pages through records, ordered by last update (then id).
// No index holds that order on PostgreSQL (migration 0062): the engine
// sorts what the filter selects, a top-N sort for a page.
func (db *DB) ListRecords(ctx context.Context, q store.RecordQuery) ([]store.Record, int, error) {
	cond, args := recordFilter(q)
	var total int
	if err := db.rdb.QueryRowContext(ctx, db.d.q("SELECT COUNT(*) FROM records"+cond), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	order := " ORDER BY updated_at ASC, id ASC"
	if q.Desc {
		order = " ORDER BY updated_at DESC, id DESC"
	}
	page, pargs := db.pageClause(q.Count, q.Start)
	args = append(args, pargs...)
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
	// Every tick asks (prepared once on SQLite: parsing was most of an
	// idle tick's cost, docs/benchmarks.md).
	rows, err := db.readQuery(ctx, "SELECT "+recordCols+" FROM records WHERE kind = ? AND state = ? AND due_at <> 0 AND due_at <= ? ORDER BY due_at",
		kind, state, nanos(now))
	if err != nil {
		return nil, err
	}
	return scanRecords(rows)
}

// scanRecords reads every row of rows as a record and closes rows.
func scanRecords(rows *sql.Rows) ([]store.Record, error) {
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
