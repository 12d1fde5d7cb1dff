package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"sync"

	"github.com/confer-platform/confer/internal/store"
)

// RecordKeys lists the ids, domains and versions of the records of a kind
// in a state (store.KeyLister). The server's tick asks for the running
// conferences several times a second (conference.Scan of two sweeps and
// the capacity count); the listing is kept with the event counter read
// before it and answered again while no event of the kind has been
// committed since, on any node: every write of a record appends an event
// in its transaction (records_write.go, atomic.go, pgbatch.go), and the
// counter hands out numbers in commit order without gaps (events.go), so
// a later change of such a record has a number above the one kept.
func (db *DB) RecordKeys(ctx context.Context, kind, state string) ([]store.RecordKey, error) {
	seq, err := db.eventCount(ctx)
	if err != nil {
		return nil, err
	}
	at := [2]string{kind, state}
	if l, ok := db.keys.get(at); ok {
		if quiet, err := db.quietSince(ctx, kind, l.seq, seq); err != nil {
			return nil, err
		} else if quiet {
			db.keys.put(at, keyListing{seq, l.keys})
			return slices.Clone(l.keys), nil
		}
	}
	keys, err := db.listKeys(ctx, kind, state)
	if err != nil {
		return nil, err
	}
	db.keys.put(at, keyListing{seq, keys})
	return slices.Clone(keys), nil
}

// quietSince tells whether no event of kind has been committed after the
// event numbered from up to the counter's value seq (both read from
// eventCount): equal numbers, or at most maxKeyGap newer events, all still
// stored and none of kind. A listing read after from is then still true.
func (db *DB) quietSince(ctx context.Context, kind string, from, seq int64) (bool, error) {
	switch {
	case seq == from:
		return true, nil
	case seq < from || seq-from > maxKeyGap:
		return false, nil
	}
	return db.noEventOf(ctx, kind, from, seq)
}

// maxKeyGap bounds the events that RecordKeys reads to tell whether any is
// of its kind; after more, it lists again.
const maxKeyGap = 256

// listKeys reads the keys, from the rows: migration 0062 dropped the
// covering index of 0046 (records_conf_keys) so that a change of a
// running conference writes no index entry (a HOT update on PostgreSQL,
// the row alone on SQLite). RecordKeys lists only after an event of the
// kind, so an idle node does not run it.
func (db *DB) listKeys(ctx context.Context, kind, state string) ([]store.RecordKey, error) {
	var rows *sql.Rows
	var err error
	if kind == "conf" {
		rows, err = db.readQuery(ctx, "SELECT id, domain_moid, version FROM records WHERE kind = 'conf' AND state = ?", state)
	} else {
		rows, err = db.readQuery(ctx, "SELECT id, domain_moid, version FROM records WHERE kind = ? AND state = ?", kind, state)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.RecordKey
	for rows.Next() {
		var k store.RecordKey
		if err := rows.Scan(&k.ID, &k.DomainMoid, &k.Version); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// readEventCount reads the event counter by query (eventCount,
// walstamp.go, skips it while nothing has committed).
func (db *DB) readEventCount(ctx context.Context) (int64, error) {
	if db.counter != nil {
		return db.counter.int64(ctx, "SELECT value FROM counters WHERE name = $1", eventCounter)
	}
	var n int64
	err := db.readRow(ctx, "SELECT value FROM counters WHERE name = ?", eventCounter).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}

// noEventOf tells whether the events numbered after from up to to are all
// still stored (none pruned) and none is of kind.
func (db *DB) noEventOf(ctx context.Context, kind string, from, to int64) (bool, error) {
	var all, of int64
	err := db.readRow(ctx, "SELECT COUNT(*), COUNT(CASE WHEN kind = ? THEN 1 END) FROM events WHERE seq > ? AND seq <= ?", kind, from, to).Scan(&all, &of)
	return err == nil && all == to-from && of == 0, err
}

// keyCache holds RecordKeys' last listing of each kind and state with the
// event counter read before it.
type keyCache struct {
	mu sync.Mutex
	m  map[[2]string]keyListing
}

type keyListing struct {
	seq  int64
	keys []store.RecordKey
}

func (c *keyCache) get(at [2]string) (keyListing, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[at]
	return l, ok
}

// put keeps l unless a listing as new or newer is kept: concurrent
// callers may finish in any order.
func (c *keyCache) put(at [2]string, l keyListing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[at]; ok && old.seq > l.seq {
		return
	}
	if c.m == nil {
		c.m = map[[2]string]keyListing{}
	}
	c.m[at] = l
}
