package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// clockMargin is how far the times of events written by several nodes may
// disagree with their commit order.
const clockMargin = time.Minute

// RecentEvents returns the events of a kind in a domain since about from,
// oldest first. Events are numbered in commit order and dated by their
// writer's clock, so their dates rise with their numbers (within
// clockMargin): a binary search over the numbers (the primary key) finds
// where from begins, and only the events after it are read.
func (db *DB) RecentEvents(ctx context.Context, kind, domainMoid string, from time.Time) ([]store.Event, error) {
	var lo, hi int64
	if err := db.rdb.QueryRowContext(ctx, "SELECT COALESCE(MIN(seq), 0), COALESCE(MAX(seq), 0) FROM events").Scan(&lo, &hi); err != nil {
		return nil, err
	}
	if hi == 0 {
		return nil, nil
	}
	bound := nanos(from.Add(-clockMargin))
	hi++ // lo..hi: the first event at or after bound begins at lo when the search ends
	for lo < hi {
		mid := lo + (hi-lo)/2
		var seq, at int64
		err := db.rdb.QueryRowContext(ctx, db.d.q("SELECT seq, at FROM events WHERE seq >= ? ORDER BY seq LIMIT 1"), mid).Scan(&seq, &at)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			hi = mid
		case err != nil:
			return nil, err
		case at < bound:
			lo = seq + 1
		default:
			hi = mid
		}
	}
	rows, err := db.rdb.QueryContext(ctx, db.d.q(`SELECT seq, kind, id, domain_moid, owner_moid, op, state, at
		FROM events WHERE seq >= ? AND kind = ? AND domain_moid = ? ORDER BY seq`), lo, kind, domainMoid)
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
