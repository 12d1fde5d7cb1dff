package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Copying a whole store to another (conferd migrate, docs/deployment.md
// "From SQLite to PostgreSQL"): every table but schema_migrations, row for
// row, in one transaction on the target. Both stores are opened by Open,
// so they have the same migrations and therefore the same tables and
// columns, whatever the engines.

// copyFirst are the tables that others reference, in the order their
// rows must be written (foreign keys are checked at once); the other
// tables follow by name.
var copyFirst = []string{"user_domains", "licenses", "accounts", "departments", "account_departments", "tokens", "sessions"}

// derived are the tables that triggers keep from others: not copied, and
// rebuilt by the triggers as the rows they derive from arrive (and
// shaped differently on the two engines: migration 0063).
var derived = map[string]bool{"record_counts": true}

// ErrTargetNotEmpty is CopyFrom's answer when the target holds data and
// force is not set.
var ErrTargetNotEmpty = errors.New("the target database is not empty")

// CopyStats counts the rows copied, by table.
type CopyStats map[string]int

// tables lists the data tables of db in copy order.
func (db *DB) tables(ctx context.Context) ([]string, error) {
	q := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	if db.d.dollar {
		q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
	}
	rows, err := db.rdb.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	present := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		if n != "schema_migrations" && !derived[n] {
			present[n] = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []string
	for _, n := range copyFirst {
		if present[n] {
			out = append(out, n)
			delete(present, n)
		}
	}
	rest := make([]string, 0, len(present))
	for n := range present {
		rest = append(rest, n)
	}
	sort.Strings(rest)
	return append(out, rest...), nil
}

// isEmpty tells whether db holds no data: no row in any table but the
// event counter at 0 that Open writes.
func (db *DB) isEmpty(ctx context.Context, tables []string) (bool, error) {
	for _, t := range tables {
		q := "SELECT COUNT(*) FROM " + t
		if t == "counters" {
			q += " WHERE NOT (name = '" + eventCounter + "' AND value = 0)"
		}
		var n int
		if err := db.rdb.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return false, err
		}
		if n > 0 {
			return false, nil
		}
	}
	return true, nil
}

// CopyFrom replaces the content of db with that of src, in one
// transaction on db; src is read in one transaction too, so the copy is
// a consistent snapshot. A db that holds data is refused
// (ErrTargetNotEmpty) unless force is set, in which case its rows are
// deleted first, in the same transaction. Run it with no conferd serving
// either database.
func (db *DB) CopyFrom(ctx context.Context, src *DB, force bool) (CopyStats, error) {
	if sameMigrations(ctx, db, src) != nil {
		return nil, errors.New("the two databases have different migrations applied: open both with the same conferd")
	}
	tables, err := src.tables(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	dstTables, err := db.tables(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	if strings.Join(tables, ",") != strings.Join(dstTables, ",") {
		return nil, fmt.Errorf("the databases have different tables: %v and %v", tables, dstTables)
	}
	if empty, err := db.isEmpty(ctx, tables); err != nil {
		return nil, err
	} else if !empty && !force {
		return nil, ErrTargetNotEmpty
	}
	rtx, err := src.rdb.BeginTx(ctx, src.snapshot())
	if err != nil {
		return nil, err
	}
	defer rtx.Rollback()
	stats := CopyStats{}
	err = db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for i := len(tables) - 1; i >= 0; i-- { // referencing tables first
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+tables[i]); err != nil {
				return fmt.Errorf("empty %s: %w", tables[i], err)
			}
		}
		for _, t := range tables {
			n, err := db.copyTable(ctx, tx, rtx, t)
			if err != nil {
				return fmt.Errorf("copy %s: %w", t, err)
			}
			stats[t] = n
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return stats, rtx.Commit()
}

// snapshot is a transaction that reads one state of every table: on
// SQLite any transaction (it sees one snapshot of the WAL).
func (db *DB) snapshot() *sql.TxOptions {
	if db.d.dollar {
		return &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}
	}
	return nil
}

// sameMigrations fails unless a and b have the same migrations applied.
func sameMigrations(ctx context.Context, a, b *DB) error {
	va, err := a.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	vb, err := b.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if va != vb {
		return fmt.Errorf("schema versions %d and %d", va, vb)
	}
	return nil
}

// copyTable copies every row of table from rtx (on the source) into tx
// (on db), in multi-row inserts.
func (db *DB) copyTable(ctx context.Context, tx, rtx *sql.Tx, table string) (int, error) {
	rows, err := rtx.QueryContext(ctx, "SELECT * FROM "+table)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	// At most ~30000 parameters a statement (SQLite's limit is 32766).
	per := max(1, min(500, 30000/len(cols)))
	tuple := "(?" + strings.Repeat(", ?", len(cols)-1) + ")"
	head := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES "
	var args []any
	n, pending := 0, 0
	flush := func() error {
		if pending == 0 {
			return nil
		}
		q := head + tuple + strings.Repeat(", "+tuple, pending-1)
		_, err := tx.ExecContext(ctx, db.d.q(q), args...)
		args, pending = args[:0], 0
		return err
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok { // TEXT read as bytes: written back as text
				vals[i] = string(b)
			}
		}
		args = append(args, vals...)
		pending++
		n++
		if pending == per {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	return n, flush()
}
