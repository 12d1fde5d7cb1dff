package sqlstore

import (
	"context"
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
