package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// notFound maps sql.ErrNoRows to store.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

// insertErr maps a unique violation to store.ErrDuplicate.
func insertErr(err error) error {
	if isDuplicate(err) {
		return store.ErrDuplicate
	}
	return err
}

// Every new session writes a token at /system/token and a session at
// /system/login (docs/benchmarks.md "Login and batches").
const (
	insertToken   = "INSERT INTO tokens (hash, license_key, expires_at) VALUES (?, ?, ?)"
	insertSession = "INSERT INTO sessions (hash, account_moid, expires_at, login_expires_at, token_hash) VALUES (?, ?, ?, ?, ?)"
)

// writeOne runs one write statement: on SQLite through the group commit
// (one fsync shared with the writes queued beside it, acknowledged after
// its commit), on PostgreSQL as a statement of its own (one round trip;
// the server groups concurrent commits itself).
func (db *DB) writeOne(ctx context.Context, query string, args ...any) error {
	if db.w == nil {
		_, err := db.wdb.ExecContext(ctx, db.d.q(query), args...)
		return err
	}
	return db.w.do(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := db.txExec(ctx, tx, query, args...)
		return err
	}, nil)
}

// exec runs a write and reports ErrNotFound when it touched no row.
func (db *DB) execOne(ctx context.Context, query string, args ...any) error {
	res, err := db.wdb.ExecContext(ctx, db.d.q(query), args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// CreateDomain adds a user domain.
func (db *DB) CreateDomain(ctx context.Context, d store.Domain) error {
	_, err := db.wdb.ExecContext(ctx, db.d.q("INSERT INTO user_domains (moid, name, created_at) VALUES (?, ?, ?)"),
		d.Moid, d.Name, nanos(d.CreatedAt))
	return insertErr(err)
}

func (db *DB) domainWhere(ctx context.Context, where string, arg any) (store.Domain, error) {
	var d store.Domain
	var created int64
	err := db.rdb.QueryRowContext(ctx, db.d.q("SELECT moid, name, created_at FROM user_domains WHERE "+where), arg).
		Scan(&d.Moid, &d.Name, &created)
	d.CreatedAt = fromNanos(created)
	return d, notFound(err)
}

// DomainByName finds a user domain by name.
func (db *DB) DomainByName(ctx context.Context, name string) (store.Domain, error) {
	return db.domainWhere(ctx, "name = ?", name)
}

// DomainByMoid finds a user domain by moid.
func (db *DB) DomainByMoid(ctx context.Context, moid string) (store.Domain, error) {
	return db.domainWhere(ctx, "moid = ?", moid)
}

// PutLicense imports a license, replacing one with the same key.
func (db *DB) PutLicense(ctx context.Context, l store.License) error {
	_, err := db.wdb.ExecContext(ctx, db.d.q(`INSERT INTO licenses (license_key, secret_hash, created_at) VALUES (?, ?, ?)
		ON CONFLICT (license_key) DO UPDATE SET secret_hash = excluded.secret_hash`),
		l.Key, l.SecretHash, nanos(l.CreatedAt))
	return err
}

// LicenseByKey finds a license.
func (db *DB) LicenseByKey(ctx context.Context, key string) (store.License, error) {
	var l store.License
	var created int64
	err := db.readRow(ctx, "SELECT license_key, secret_hash, created_at FROM licenses WHERE license_key = ?", key).
		Scan(&l.Key, &l.SecretHash, &created)
	l.CreatedAt = fromNanos(created)
	return l, notFound(err)
}

// CountLicenses counts imported licenses.
func (db *DB) CountLicenses(ctx context.Context) (int, error) {
	var n int
	err := db.rdb.QueryRowContext(ctx, "SELECT COUNT(*) FROM licenses").Scan(&n)
	return n, err
}

// CreateAccount adds an account with its amc fields and departments, in
// one transaction; *store.DuplicateError (an ErrDuplicate) names the field
// another account holds, ErrNoDepartment a department the domain lacks.
func (db *DB) CreateAccount(ctx context.Context, a store.Account) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.checkAccountUnique(ctx, tx, a); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.d.q(`INSERT INTO accounts
			(moid, domain_moid, username, password_hash, admin, disabled, failed_logins, locked_until, created_at,
			 real_name, e164, email, mobile, profile)
			VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?)`),
			a.Moid, a.DomainMoid, a.Username, a.PasswordHash, b2i(a.Admin), b2i(a.Disabled), nanos(a.CreatedAt),
			a.Name, a.E164, a.Email, a.Mobile, profileText(a.Profile)); err != nil {
			return err
		}
		return db.putMemberships(ctx, tx, a)
	})
	return insertErr(err)
}

const accountCols = `a.moid, a.domain_moid, d.name, a.username, a.password_hash, a.admin, a.disabled,
	a.failed_logins, a.locked_until, a.created_at, a.real_name, a.e164, a.email, a.mobile, a.profile
	FROM accounts a JOIN user_domains d ON d.moid = a.domain_moid`

func scanAccount(s scanner) (store.Account, error) {
	var a store.Account
	var admin, disabled int
	var locked, created int64
	var profile string
	err := s.Scan(&a.Moid, &a.DomainMoid, &a.DomainName, &a.Username, &a.PasswordHash, &admin, &disabled,
		&a.FailedLogins, &locked, &created, &a.Name, &a.E164, &a.Email, &a.Mobile, &profile)
	a.Admin, a.Disabled = admin != 0, disabled != 0
	a.LockedUntil, a.CreatedAt = fromNanos(locked), fromNanos(created)
	a.Profile = []byte(profile)
	return a, err
}

func (db *DB) accountWhere(ctx context.Context, where string, arg any) (store.Account, error) {
	a, err := scanAccount(db.readRow(ctx, "SELECT "+accountCols+" WHERE "+where, arg))
	return a, notFound(err)
}

// AccountByUsername finds an account by its login name.
func (db *DB) AccountByUsername(ctx context.Context, username string) (store.Account, error) {
	return db.accountWhere(ctx, "a.username = ?", username)
}

// AccountByMoid finds an account by moid.
func (db *DB) AccountByMoid(ctx context.Context, moid string) (store.Account, error) {
	return db.accountWhere(ctx, "a.moid = ?", moid)
}

// CountDomains counts the user domains (store.DomainCounter).
func (db *DB) CountDomains(ctx context.Context) (int, error) {
	var n int
	err := db.rdb.QueryRowContext(ctx, "SELECT COUNT(*) FROM user_domains").Scan(&n)
	return n, err
}

// CountAccounts counts accounts of every domain.
func (db *DB) CountAccounts(ctx context.Context) (int, error) {
	var n int
	err := db.rdb.QueryRowContext(ctx, "SELECT COUNT(*) FROM accounts").Scan(&n)
	return n, err
}

// FailLogin counts a failed login in one transaction (see store.Store).
func (db *DB) FailLogin(ctx context.Context, moid string, now time.Time, max int, lockFor time.Duration) (store.LoginAttempt, error) {
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		return store.LoginAttempt{}, err
	}
	defer tx.Rollback()
	var failed int
	var locked int64
	err = tx.QueryRowContext(ctx, db.d.q("SELECT failed_logins, locked_until FROM accounts WHERE moid = ?"+db.d.forUpdate), moid).
		Scan(&failed, &locked)
	if err != nil {
		return store.LoginAttempt{}, notFound(err)
	}
	if locked != 0 && locked <= now.UnixNano() {
		failed, locked = 0, 0 // the earlier lock has ended: count afresh
	}
	failed++
	if failed >= max && locked == 0 {
		locked = now.Add(lockFor).UnixNano()
	}
	if _, err := tx.ExecContext(ctx, db.d.q("UPDATE accounts SET failed_logins = ?, locked_until = ? WHERE moid = ?"),
		failed, locked, moid); err != nil {
		return store.LoginAttempt{}, err
	}
	if err := tx.Commit(); err != nil {
		return store.LoginAttempt{}, err
	}
	return store.LoginAttempt{Failed: failed, LockedUntil: fromNanos(locked)}, nil
}

// ResetLogin clears the failed-login count and lock.
func (db *DB) ResetLogin(ctx context.Context, moid string) error {
	return db.execOne(ctx, "UPDATE accounts SET failed_logins = 0, locked_until = 0 WHERE moid = ?", moid)
}

// CreateToken stores a new token.
func (db *DB) CreateToken(ctx context.Context, t store.Token) error {
	return insertErr(db.writeOne(ctx, insertToken, t.Hash, t.LicenseKey, nanos(t.ExpiresAt)))
}

// TokenByHash finds a token by the hash of its value.
func (db *DB) TokenByHash(ctx context.Context, hash string) (store.Token, error) {
	var t store.Token
	var exp int64
	err := db.readRow(ctx, "SELECT hash, license_key, expires_at FROM tokens WHERE hash = ?", hash).
		Scan(&t.Hash, &t.LicenseKey, &exp)
	t.ExpiresAt = fromNanos(exp)
	return t, notFound(err)
}

// RenewToken extends a live token.
func (db *DB) RenewToken(ctx context.Context, hash string, now, expires time.Time) error {
	return db.execOne(ctx, "UPDATE tokens SET expires_at = ? WHERE hash = ? AND expires_at > ?",
		nanos(expires), hash, nanos(now))
}

// CreateSession stores a new session; its expiry is also kept as the
// expiry it was created with (store.Session.LoginExpiresAt).
func (db *DB) CreateSession(ctx context.Context, s store.Session) error {
	return insertErr(db.writeOne(ctx, insertSession, s.Hash, s.AccountMoid, nanos(s.ExpiresAt), nanos(s.ExpiresAt), s.TokenHash))
}

const sessionCols = "hash, account_moid, expires_at, login_expires_at, token_hash"

func scanSession(sc scanner) (store.Session, error) {
	var s store.Session
	var exp, login int64
	err := sc.Scan(&s.Hash, &s.AccountMoid, &exp, &login, &s.TokenHash)
	s.ExpiresAt, s.LoginExpiresAt = fromNanos(exp), fromNanos(login)
	return s, err
}

// SessionByHash finds a session by the hash of its cookie.
func (db *DB) SessionByHash(ctx context.Context, hash string) (store.Session, error) {
	s, err := scanSession(db.readRow(ctx, "SELECT "+sessionCols+" FROM sessions WHERE hash = ?", hash))
	return s, notFound(err)
}

// RenewSession extends a live session.
func (db *DB) RenewSession(ctx context.Context, hash string, now, expires time.Time) error {
	return db.execOne(ctx, "UPDATE sessions SET expires_at = ? WHERE hash = ? AND expires_at > ?",
		nanos(expires), hash, nanos(now))
}

// DeleteSessionsOf ends every session of an account.
func (db *DB) DeleteSessionsOf(ctx context.Context, accountMoid string) error {
	_, err := db.wdb.ExecContext(ctx, db.d.q("DELETE FROM sessions WHERE account_moid = ?"), accountMoid)
	return err
}

// DeleteExpired removes expired tokens and sessions.
func (db *DB) DeleteExpired(ctx context.Context, now time.Time) (int, error) {
	total := 0
	for _, table := range []string{"sessions", "tokens"} {
		res, err := db.wdb.ExecContext(ctx, db.d.q("DELETE FROM "+table+" WHERE expires_at <= ?"), nanos(now))
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += int(n)
	}
	return total, nil
}

var _ store.Store = (*DB)(nil)
