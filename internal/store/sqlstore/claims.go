package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// claimKeep is how long an ended lease is kept before a claim prunes it;
// a node that still works on it after that long has lost it anyway.
const claimKeep = time.Hour

// pruneEvery: one claim in this many also prunes ended leases.
const pruneEvery = 64

// Claim takes a lease on a piece of time-driven work (store.Claimer): an
// upsert that writes only when no lease of the name runs past now, so of
// several nodes claiming at once exactly one sees a row written.
func (db *DB) Claim(ctx context.Context, name string, now, until time.Time) (bool, error) {
	var n int64
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.d.q(`INSERT INTO claims (name, until) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET until = excluded.until WHERE claims.until <= ?`), name, nanos(until), nanos(now))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		if err != nil || n == 0 || db.claims.Add(1)%pruneEvery != 0 {
			return err
		}
		_, err = tx.ExecContext(ctx, db.d.q("DELETE FROM claims WHERE until < ?"), nanos(now.Add(-claimKeep)))
		return err
	})
	return n > 0, err
}
