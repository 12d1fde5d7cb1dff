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

// appendEvent records a change of rec inside tx, followed by the notices
// that ctx carries for it (notify.go).
func (db *DB) appendEvent(ctx context.Context, tx *sql.Tx, rec store.Record, op string) error {
	ev := store.Event{Kind: rec.Kind, ID: rec.ID, DomainMoid: rec.DomainMoid, OwnerMoid: rec.OwnerMoid, Op: op, State: rec.State, At: rec.UpdatedAt}
	if err := db.insertEvent(ctx, tx, ev); err != nil {
		return err
	}
	return db.appendNotices(ctx, tx)
}

// insertEvent numbers an event and stores it inside tx.
func (db *DB) insertEvent(ctx context.Context, tx *sql.Tx, ev store.Event) error {
	if _, err := tx.ExecContext(ctx, db.d.q("INSERT INTO counters (name, value) VALUES (?, 0) ON CONFLICT (name) DO NOTHING"), eventCounter); err != nil {
		return err
	}
	var seq int64
	if err := tx.QueryRowContext(ctx, db.d.q("UPDATE counters SET value = value + 1 WHERE name = ? RETURNING value"), eventCounter).Scan(&seq); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, db.d.q(`INSERT INTO events (seq, kind, id, domain_moid, owner_moid, op, state, at, data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), seq, ev.Kind, ev.ID, ev.DomainMoid, ev.OwnerMoid, ev.Op, ev.State, nanos(ev.At), string(ev.Data))
	return err
}

// EventsSince returns events after seq, oldest first. Push polls it
// several times a second on every node (prepared once on SQLite).
func (db *DB) EventsSince(ctx context.Context, seq int64, limit int) ([]store.Event, error) {
	rows, err := db.readQuery(ctx, `SELECT seq, kind, id, domain_moid, owner_moid, op, state, at, data
		FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, seq, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Event
	for rows.Next() {
		var e store.Event
		var at int64
		var data string
		if err := rows.Scan(&e.Seq, &e.Kind, &e.ID, &e.DomainMoid, &e.OwnerMoid, &e.Op, &e.State, &at, &data); err != nil {
			return nil, err
		}
		e.At = fromNanos(at)
		if data != "" {
			e.Data = []byte(data)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	db.own.saw(out) // before the caller reads the records of these events (ownwrites.go)
	return out, nil
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
