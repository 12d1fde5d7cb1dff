package sqlstore

import (
	"context"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// The registry of network management (internal/nms/node.Registry):
// nodes, alarms and terminal statistics, in the tables of migration
// 0020_nms.sql. They are not records, so their frequent writes (a node
// reports every few seconds) add nothing to the event log.

// PutNode creates or replaces a node's document.
func (db *DB) PutNode(ctx context.Context, moid, name string, reportedAt time.Time, doc []byte) error {
	_, err := db.wdb.ExecContext(ctx, db.d.q(`INSERT INTO nms_nodes (moid, name, reported_at, data) VALUES (?, ?, ?, ?)
		ON CONFLICT (moid) DO UPDATE SET name = excluded.name, reported_at = excluded.reported_at, data = excluded.data`),
		moid, name, nanos(reportedAt), string(doc))
	return err
}

// ListNodes returns every node's document, by name.
func (db *DB) ListNodes(ctx context.Context) ([][]byte, error) {
	return db.docs(ctx, "SELECT data FROM nms_nodes ORDER BY name, moid")
}

// DeleteNodesBefore removes the nodes that last reported before t.
func (db *DB) DeleteNodesBefore(ctx context.Context, t time.Time) (int, error) {
	return db.execCount(ctx, "DELETE FROM nms_nodes WHERE reported_at < ?", nanos(t))
}

// RaiseAlarm stores an alarm unless the device already has one with the
// code, and reports whether it stored it.
func (db *DB) RaiseAlarm(ctx context.Context, deviceMoid, code, domainMoid string, raisedAt time.Time, doc []byte) (bool, error) {
	n, err := db.execCount(ctx, `INSERT INTO nms_alarms (device_moid, code, domain_moid, raised_at, data) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (device_moid, code) DO NOTHING`, deviceMoid, code, domainMoid, nanos(raisedAt), string(doc))
	return n > 0, err
}

// ClearAlarm removes an alarm; clearing one that is not raised is no error.
func (db *DB) ClearAlarm(ctx context.Context, deviceMoid, code string) error {
	_, err := db.execCount(ctx, "DELETE FROM nms_alarms WHERE device_moid = ? AND code = ?", deviceMoid, code)
	return err
}

// ListAlarms returns every raised alarm's document, oldest first.
func (db *DB) ListAlarms(ctx context.Context) ([][]byte, error) {
	return db.docs(ctx, "SELECT data FROM nms_alarms ORDER BY raised_at, device_moid, code")
}

// AddTerminalStat stores a domain's statistics sample, unless the domain
// has one at that time already (several nodes sample the same quarter).
func (db *DB) AddTerminalStat(ctx context.Context, domainMoid string, at time.Time, doc []byte) error {
	_, err := db.execCount(ctx, `INSERT INTO nms_terminal_stats (domain_moid, at, data) VALUES (?, ?, ?)
		ON CONFLICT (domain_moid, at) DO NOTHING`, domainMoid, nanos(at), string(doc))
	return err
}

// TerminalStats returns a domain's samples taken in [from, to], newest first.
func (db *DB) TerminalStats(ctx context.Context, domainMoid string, from, to time.Time) ([][]byte, error) {
	return db.docs(ctx, "SELECT data FROM nms_terminal_stats WHERE domain_moid = ? AND at >= ? AND at <= ? ORDER BY at DESC",
		domainMoid, nanos(from), nanos(to))
}

// PruneTerminalStats removes samples taken before t.
func (db *DB) PruneTerminalStats(ctx context.Context, before time.Time) (int, error) {
	return db.execCount(ctx, "DELETE FROM nms_terminal_stats WHERE at < ?", nanos(before))
}

// ListUserDomains returns every user domain, by name.
func (db *DB) ListUserDomains(ctx context.Context) ([]store.Domain, error) {
	rows, err := db.rdb.QueryContext(ctx, "SELECT moid, name, created_at FROM user_domains ORDER BY name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Domain
	for rows.Next() {
		var d store.Domain
		var created int64
		if err := rows.Scan(&d.Moid, &d.Name, &created); err != nil {
			return nil, err
		}
		d.CreatedAt = fromNanos(created)
		out = append(out, d)
	}
	return out, rows.Err()
}

func (db *DB) docs(ctx context.Context, query string, args ...any) ([][]byte, error) {
	rows, err := db.rdb.QueryContext(ctx, db.d.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, []byte(s))
	}
	return out, rows.Err()
}

func (db *DB) execCount(ctx context.Context, query string, args ...any) (int, error) {
	res, err := db.wdb.ExecContext(ctx, db.d.q(query), args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
