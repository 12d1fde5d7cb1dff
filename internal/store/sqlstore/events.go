package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// eventCounter numbers events. Taking the next number locks the counter's
// row until commit (on SQLite the write lock does), so numbers are handed
// out in commit order and a reader never sees a later number before an
// earlier one.
const eventCounter = "events"

// appendEvent records a change of rec inside tx.
func (db *DB) appendEvent(ctx context.Context, tx *sql.Tx, rec store.Record, op string) error {
	if _, err := tx.ExecContext(ctx, db.d.q("INSERT INTO counters (name, value) VALUES (?, 0) ON CONFLICT (name) DO NOTHING"), eventCounter); err != nil {
		return err
	}
	var seq int64
	if err := tx.QueryRowContext(ctx, db.d.q("UPDATE counters SET value = value + 1 WHERE name = ? RETURNING value"), eventCounter).Scan(&seq); err != nil {
		return err
	}
	at := rec.UpdatedAt
	_, err := tx.ExecContext(ctx, db.d.q(`INSERT INTO events (seq, kind, id, domain_moid, owner_moid, op, state, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), seq, rec.Kind, rec.ID, rec.DomainMoid, rec.OwnerMoid, op, rec.State, nanos(at))
	return err
}

// EventsSince returns events after seq, oldest first.
func (db *DB) EventsSince(ctx context.Context, seq int64, limit int) ([]store.Event, error) {
	rows, err := db.rdb.QueryContext(ctx, db.d.q(`SELECT seq, kind, id, domain_moid, owner_moid, op, state, at
		FROM events WHERE seq > ? ORDER BY seq LIMIT ?`), seq, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Event
	for rows.Next() {
		var e store.Event
		var at int64
		if err := rows.Scan(&e.Seq, &e.Kind, &e.ID, &e.DomainMoid, &e.OwnerMoid, &e.Op, &e.State, &at); err != nil {
			return nil, err
		}
		e.At = fromNanos(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// LastEventSeq returns the newest event number.
func (db *DB) LastEventSeq(ctx context.Context) (int64, error) {
	var n int64
	err := db.rdb.QueryRowContext(ctx, "SELECT COALESCE(MAX(seq), 0) FROM events").Scan(&n)
	return n, err
}

// PruneEvents deletes events older than before.
func (db *DB) PruneEvents(ctx context.Context, before time.Time) (int, error) {
	res, err := db.wdb.ExecContext(ctx, db.d.q("DELETE FROM events WHERE at < ?"), nanos(before))
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

var _ store.EventLog = (*DB)(nil)
