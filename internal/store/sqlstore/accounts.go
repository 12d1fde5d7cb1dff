package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// Account management (amc): account fields beyond login, departments and
// the departments of each account. docs/amc.md describes the behaviour.

// profileText is the stored text of an account's profile: "{}" when none.
func profileText(p []byte) string {
	if len(strings.TrimSpace(string(p))) == 0 {
		return "{}"
	}
	return string(p)
}

// exists runs a query that selects one row and tells whether it found it.
func exists(ctx context.Context, tx *sql.Tx, query string, args ...any) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, query, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// checkAccountUnique names the first field of a whose value another
// account holds. The unique indexes back it up against racing writers
// (a generic ErrDuplicate then).
func (db *DB) checkAccountUnique(ctx context.Context, tx *sql.Tx, a store.Account) error {
	checks := []struct {
		field, where string
		value        string
	}{
		{"account", "username = ?", a.Username},
		{"e164", "e164 = ?", a.E164},
		{"e164_mobile", "mobile = ?", a.E164},
		{"email", "email = ?", a.Email},
		{"mobile", "mobile = ?", a.Mobile},
		{"mobile_e164", "e164 = ?", a.Mobile},
	}
	for _, c := range checks {
		if c.value == "" {
			continue
		}
		found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM accounts WHERE "+c.where+" AND moid <> ?"), c.value, a.Moid)
		if err != nil {
			return err
		}
		if found {
			return &store.DuplicateError{Field: c.field}
		}
	}
	return nil
}

// putMemberships writes the departments of a, which must be departments
// of its domain (ErrNoDepartment).
func (db *DB) putMemberships(ctx context.Context, tx *sql.Tx, a store.Account) error {
	for i, m := range a.Departments {
		found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM departments WHERE moid = ? AND domain_moid = ?"), m.DepartmentMoid, a.DomainMoid)
		if err != nil {
			return err
		}
		if !found {
			return store.ErrNoDepartment
		}
		if _, err := tx.ExecContext(ctx, db.d.q("INSERT INTO account_departments (account_moid, department_moid, position, ord) VALUES (?, ?, ?, ?)"),
			a.Moid, m.DepartmentMoid, m.Position, i); err != nil {
			return err
		}
	}
	return nil
}

// UpdateAccount writes an account's changeable fields (see store.Store).
func (db *DB) UpdateAccount(ctx context.Context, a store.Account, endSessions bool) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM accounts WHERE moid = ? AND domain_moid = ?"+db.d.forUpdate), a.Moid, a.DomainMoid)
		if err != nil {
			return err
		}
		if !found {
			return store.ErrNotFound
		}
		a.Username = "" // never changed here
		if err := db.checkAccountUnique(ctx, tx, a); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.d.q(`UPDATE accounts SET password_hash = ?, admin = ?, disabled = ?,
			real_name = ?, e164 = ?, email = ?, mobile = ?, profile = ? WHERE moid = ?`),
			a.PasswordHash, b2i(a.Admin), b2i(a.Disabled), a.Name, a.E164, a.Email, a.Mobile, profileText(a.Profile), a.Moid); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.d.q("DELETE FROM account_departments WHERE account_moid = ?"), a.Moid); err != nil {
			return err
		}
		if err := db.putMemberships(ctx, tx, a); err != nil {
			return err
		}
		if endSessions {
			_, err = tx.ExecContext(ctx, db.d.q("DELETE FROM sessions WHERE account_moid = ?"), a.Moid)
		}
		return err
	})
	return insertErr(err)
}

// DeleteAccount removes an account, its sessions and memberships.
func (db *DB) DeleteAccount(ctx context.Context, domainMoid, moid string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM accounts WHERE moid = ? AND domain_moid = ?"+db.d.forUpdate), moid, domainMoid)
		if err != nil {
			return err
		}
		if !found {
			return store.ErrNotFound
		}
		for _, q := range []string{
			"DELETE FROM sessions WHERE account_moid = ?",
			"DELETE FROM account_departments WHERE account_moid = ?",
			"DELETE FROM accounts WHERE moid = ?",
		} {
			if _, err := tx.ExecContext(ctx, db.d.q(q), moid); err != nil {
				return err
			}
		}
		return nil
	})
}

// likeEscape escapes the LIKE wildcards of a search text.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// ListAccounts pages through a domain's accounts (see store.Store).
func (db *DB) ListAccounts(ctx context.Context, q store.AccountQuery) ([]store.Account, int, error) {
	where := []string{"a.domain_moid = ?"}
	args := []any{q.DomainMoid}
	if q.Moid != "" {
		where, args = append(where, "a.moid = ?"), append(args, q.Moid)
	}
	if q.DepartmentMoid != "" {
		where = append(where, "EXISTS (SELECT 1 FROM account_departments m WHERE m.account_moid = a.moid AND m.department_moid = ?)")
		args = append(args, q.DepartmentMoid)
	}
	if q.NoDepartment {
		where = append(where, "NOT EXISTS (SELECT 1 FROM account_departments m WHERE m.account_moid = a.moid)")
	}
	if q.Search != "" {
		where = append(where, `LOWER(a.username) LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscape(strings.ToLower(q.Search))+"%")
	}
	cond := " WHERE " + strings.Join(where, " AND ")
	var total int
	if err := db.rdb.QueryRowContext(ctx, db.d.q("SELECT COUNT(*) FROM accounts a"+cond), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	page, pargs := db.pageClause(q.Count, q.Start)
	args = append(args, pargs...)
	rows, err := db.rdb.QueryContext(ctx, db.d.q("SELECT "+accountCols+cond+" ORDER BY a.created_at, a.username"+page), args...)
	if err != nil {
		return nil, 0, err
	}
	var out []store.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		out = append(out, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	return out, total, db.fillMemberships(ctx, out)
}

// fillMemberships reads the departments of accounts, in their order.
func (db *DB) fillMemberships(ctx context.Context, accts []store.Account) error {
	if len(accts) == 0 {
		return nil
	}
	idx := map[string]int{}
	args := make([]any, len(accts))
	for i, a := range accts {
		idx[a.Moid] = i
		args[i] = a.Moid
	}
	rows, err := db.rdb.QueryContext(ctx, db.d.q(`SELECT m.account_moid, m.department_moid, d.name, m.position
		FROM account_departments m JOIN departments d ON d.moid = m.department_moid
		WHERE m.account_moid IN (?`+strings.Repeat(", ?", len(args)-1)+`) ORDER BY m.account_moid, m.ord`), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var acct string
		var m store.Membership
		if err := rows.Scan(&acct, &m.DepartmentMoid, &m.DepartmentName, &m.Position); err != nil {
			return err
		}
		a := &accts[idx[acct]]
		a.Departments = append(a.Departments, m)
	}
	return rows.Err()
}

// ListSessions returns the live sessions of a domain's accounts.
func (db *DB) ListSessions(ctx context.Context, domainMoid string, now time.Time) ([]store.Session, error) {
	rows, err := db.rdb.QueryContext(ctx, db.d.q(`SELECT s.hash, s.account_moid, s.expires_at, s.login_expires_at, s.token_hash
		FROM sessions s JOIN accounts a ON a.moid = s.account_moid
		WHERE a.domain_moid = ? AND s.expires_at > ? ORDER BY s.account_moid, s.login_expires_at`), domainMoid, nanos(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// CreateDepartment adds a department under its parent.
func (db *DB) CreateDepartment(ctx context.Context, d store.Department) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if d.ParentMoid != d.DomainMoid {
			found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM departments WHERE moid = ? AND domain_moid = ?"+db.d.forUpdate), d.ParentMoid, d.DomainMoid)
			if err != nil {
				return err
			}
			if !found {
				return store.ErrNoDepartment
			}
		}
		found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM departments WHERE domain_moid = ? AND parent_moid = ? AND name = ?"), d.DomainMoid, d.ParentMoid, d.Name)
		if err != nil {
			return err
		}
		if found {
			return store.ErrDuplicate
		}
		_, err = tx.ExecContext(ctx, db.d.q("INSERT INTO departments (moid, domain_moid, parent_moid, name, created_at) VALUES (?, ?, ?, ?, ?)"),
			d.Moid, d.DomainMoid, d.ParentMoid, d.Name, nanos(d.CreatedAt))
		return err
	})
	return insertErr(err)
}

// RenameDepartment renames a department of a domain.
func (db *DB) RenameDepartment(ctx context.Context, domainMoid, moid, name string) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var parent string
		err := tx.QueryRowContext(ctx, db.d.q("SELECT parent_moid FROM departments WHERE moid = ? AND domain_moid = ?"+db.d.forUpdate), moid, domainMoid).Scan(&parent)
		if err != nil {
			return notFound(err)
		}
		found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM departments WHERE domain_moid = ? AND parent_moid = ? AND name = ? AND moid <> ?"), domainMoid, parent, name, moid)
		if err != nil {
			return err
		}
		if found {
			return store.ErrDuplicate
		}
		_, err = tx.ExecContext(ctx, db.d.q("UPDATE departments SET name = ? WHERE moid = ?"), name, moid)
		return err
	})
	return insertErr(err)
}

// DeleteDepartment removes an empty department of a domain.
func (db *DB) DeleteDepartment(ctx context.Context, domainMoid, moid string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		found, err := exists(ctx, tx, db.d.q("SELECT 1 FROM departments WHERE moid = ? AND domain_moid = ?"+db.d.forUpdate), moid, domainMoid)
		if err != nil {
			return err
		}
		if !found {
			return store.ErrNotFound
		}
		for _, q := range []string{
			"SELECT 1 FROM departments WHERE parent_moid = ?",
			"SELECT 1 FROM account_departments WHERE department_moid = ?",
		} {
			used, err := exists(ctx, tx, db.d.q(q+" LIMIT 1"), moid)
			if err != nil {
				return err
			}
			if used {
				return store.ErrConflict
			}
		}
		_, err = tx.ExecContext(ctx, db.d.q("DELETE FROM departments WHERE moid = ?"), moid)
		return err
	})
}

// ListDepartments returns a domain's departments, oldest first.
func (db *DB) ListDepartments(ctx context.Context, domainMoid string) ([]store.Department, error) {
	rows, err := db.rdb.QueryContext(ctx, db.d.q(`SELECT moid, domain_moid, parent_moid, name, created_at FROM departments
		WHERE domain_moid = ? ORDER BY created_at, name, moid`), domainMoid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Department
	for rows.Next() {
		var d store.Department
		var created int64
		if err := rows.Scan(&d.Moid, &d.DomainMoid, &d.ParentMoid, &d.Name, &created); err != nil {
			return nil, err
		}
		d.CreatedAt = fromNanos(created)
		out = append(out, d)
	}
	return out, rows.Err()
}
