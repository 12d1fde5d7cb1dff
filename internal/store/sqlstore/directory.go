package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

const dirCols = "account, domain_moid, alias, e164, ip, account_type, mt_type, behaviour, answer_ms"

func scanDir(s scanner) (store.DirectoryEntry, error) {
	var e store.DirectoryEntry
	var ms int64
	err := s.Scan(&e.Account, &e.DomainMoid, &e.Alias, &e.E164, &e.IP, &e.AccountType, &e.MtType, &e.Behaviour, &ms)
	e.AnswerAfter = time.Duration(ms) * time.Millisecond
	return e, err
}

// PutDirectoryEntry creates or replaces a directory entry.
func (db *DB) PutDirectoryEntry(ctx context.Context, e store.DirectoryEntry) error {
	_, err := db.wdb.ExecContext(ctx, db.d.q(`INSERT INTO directory (`+dirCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account) DO UPDATE SET domain_moid = excluded.domain_moid, alias = excluded.alias, e164 = excluded.e164,
		ip = excluded.ip, account_type = excluded.account_type, mt_type = excluded.mt_type, behaviour = excluded.behaviour,
		answer_ms = excluded.answer_ms`),
		e.Account, e.DomainMoid, e.Alias, e.E164, e.IP, e.AccountType, e.MtType, e.Behaviour, e.AnswerAfter.Milliseconds())
	return err
}

// DirectoryEntry finds an entry by the account a call names.
func (db *DB) DirectoryEntry(ctx context.Context, account string) (store.DirectoryEntry, error) {
	e, err := scanDir(db.readRow(ctx, "SELECT "+dirCols+" FROM directory WHERE account = ?", account))
	return e, notFound(err)
}

// ListDirectory lists every entry by account.
func (db *DB) ListDirectory(ctx context.Context) ([]store.DirectoryEntry, error) {
	rows, err := db.rdb.QueryContext(ctx, "SELECT "+dirCols+" FROM directory ORDER BY account")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.DirectoryEntry
	for rows.Next() {
		e, err := scanDir(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// DeleteDirectoryEntry removes an entry.
func (db *DB) DeleteDirectoryEntry(ctx context.Context, account string) error {
	return db.execOne(ctx, "DELETE FROM directory WHERE account = ?", account)
}

var _ store.DirectoryReader = (*DB)(nil)

// DirectoryEntries reads the entries of accounts: on PostgreSQL in one
// statement (a round trip, not one per callee of a batch; docs/benchmarks.md
// "Batch additions on PostgreSQL"), on SQLite one prepared read each.
func (db *DB) DirectoryEntries(ctx context.Context, accounts []string) (map[string]store.DirectoryEntry, error) {
	out := make(map[string]store.DirectoryEntry, len(accounts))
	if db.rs != nil || len(accounts) < 2 {
		for _, a := range accounts {
			e, err := db.DirectoryEntry(ctx, a)
			if err == store.ErrNotFound {
				continue
			}
			if err != nil {
				return nil, err
			}
			out[a] = e
		}
		return out, nil
	}
	for len(accounts) > 0 {
		part := accounts[:min(len(accounts), batchRows)]
		accounts = accounts[len(part):]
		args := make([]any, len(part))
		for i, a := range part {
			args[i] = a
		}
		q := "SELECT " + dirCols + " FROM directory WHERE account IN (?" + strings.Repeat(", ?", len(part)-1) + ")"
		if err := db.dirRows(ctx, q, args, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (db *DB) dirRows(ctx context.Context, q string, args []any, out map[string]store.DirectoryEntry) error {
	rows, err := db.rdb.QueryContext(ctx, db.d.q(q), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanDir(rows)
		if err != nil {
			return err
		}
		out[e.Account] = e
	}
	return rows.Err()
}
