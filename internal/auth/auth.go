// Package auth holds API licenses, account_tokens, login sessions and
// lockout (seed 000 "Authentication"; reference 03-system-login.md).
package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Config sets lifetimes and the lockout policy.
type Config struct {
	TokenTTL    time.Duration // idle lifetime of an account_token (reference 03: 30 minutes)
	SessionTTL  time.Duration // idle lifetime of a session (reference 03: 30 minutes)
	MaxFailures int           // failed logins before the account is locked
	LockFor     time.Duration // how long a locked account stays locked
	// VerifiedFor is how long a secret that passed bcrypt is answered
	// from memory for the same principal and stored hash, and VerifiedMax
	// how many such entries a node keeps (verified.go); zero: always
	// bcrypt.
	VerifiedFor time.Duration
	VerifiedMax int
	// The credential throttle (throttle.go): failures free per client
	// address and account, and per client address, before each further
	// one doubles the wait from one second up to ThrottleMax.
	ThrottleFree       int
	ThrottleClientFree int
	ThrottleMax        time.Duration
}

// DefaultConfig is the platform's behaviour: 30 idle minutes, lock after 5
// failures for 30 minutes; verified secrets kept 5 minutes, at most
// 10,000 of them; the throttle's backoff after 10 failures of one address
// for one account or 30 of one address, up to 15 minutes.
func DefaultConfig() Config {
	return Config{TokenTTL: 30 * time.Minute, SessionTTL: 30 * time.Minute, MaxFailures: 5, LockFor: 30 * time.Minute,
		VerifiedFor: 5 * time.Minute, VerifiedMax: 10000,
		ThrottleFree: 10, ThrottleClientFree: 30, ThrottleMax: 15 * time.Minute}
}

// Service checks licenses, tokens, passwords and sessions.
type Service struct {
	st  store.Store
	clk clock.Clock
	cfg Config

	recent   authCache      // Authenticate's recent outcomes (cache.go)
	verified *verifiedCache // secrets that passed bcrypt (verified.go)
	throttle throttle       // failed credentials per client (throttle.go)
}

// New returns a Service.
func New(st store.Store, clk clock.Clock, cfg Config) *Service {
	d := DefaultConfig()
	if cfg.ThrottleFree == 0 {
		cfg.ThrottleFree = d.ThrottleFree
	}
	if cfg.ThrottleClientFree == 0 {
		cfg.ThrottleClientFree = d.ThrottleClientFree
	}
	if cfg.ThrottleMax == 0 {
		cfg.ThrottleMax = d.ThrottleMax
	}
	dummyHash(hashCost()) // made now, so that the first unknown principal costs what the others do
	return &Service{st: st, clk: clk, cfg: cfg, verified: newVerifiedCache(cfg.VerifiedFor, cfg.VerifiedMax)}
}

// Config returns the service's settings.
func (s *Service) Config() Config { return s.cfg }

// Principal is who a request acts for.
type Principal struct {
	AccountMoid string
	Username    string
	DomainMoid  string
	DomainName  string
	Admin       bool
}

// IssueToken checks a license key and secret and returns a new
// account_token (reference 03 "token获取"). Failure: 10001.
func (s *Service) IssueToken(ctx context.Context, key, secret string) (string, error) {
	lic, err := s.st.LicenseByKey(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		burnCompare(secret)
		return "", wire.Errorf(wire.CodeSoftwareAuthFailed, "software authentication failed: unknown oauth_consumer_key or wrong oauth_consumer_secret")
	}
	if err != nil {
		return "", err
	}
	if !s.verified.check("l:"+key, lic.SecretHash, secret, s.clk.Now()) {
		return "", wire.Errorf(wire.CodeSoftwareAuthFailed, "software authentication failed: unknown oauth_consumer_key or wrong oauth_consumer_secret")
	}
	tok := NewToken()
	err = s.st.CreateToken(ctx, store.Token{Hash: lookupHash(tok), LicenseKey: key, ExpiresAt: s.clk.Now().Add(s.cfg.TokenTTL)})
	return tok, err
}

// CheckToken validates an account_token and renews it. Failure: 10002.
func (s *Service) CheckToken(ctx context.Context, token string) error {
	_, err := s.checkToken(ctx, token)
	return err
}

// checkToken is CheckToken returning the token's expiry after renewal.
func (s *Service) checkToken(ctx context.Context, token string) (time.Time, error) {
	if token == "" {
		return time.Time{}, wire.Errorf(wire.CodeTokenInvalid, "account_token is missing")
	}
	now := s.clk.Now()
	t, err := s.st.TokenByHash(ctx, lookupHash(token))
	if errors.Is(err, store.ErrNotFound) || (err == nil && !t.ExpiresAt.After(now)) {
		return time.Time{}, wire.Errorf(wire.CodeTokenInvalid, "account_token is invalid or expired")
	}
	if err != nil {
		return time.Time{}, err
	}
	return s.renew(ctx, t.ExpiresAt, now, s.cfg.TokenTTL, func(exp time.Time) error {
		return s.st.RenewToken(ctx, t.Hash, now, exp)
	}, wire.CodeTokenInvalid)
}

// renew moves an expiry to now+ttl and returns the expiry that holds. To
// spare the store a write on every request, it writes only when at least
// a thirtieth of the lifetime (one minute at the default 30) has passed
// since the last renewal; the expiry is thus never more than that short of
// the full lifetime.
func (s *Service) renew(ctx context.Context, expires, now time.Time, ttl time.Duration, write func(time.Time) error, code int) (time.Time, error) {
	if expires.Sub(now) > ttl-ttl/30 {
		return expires, nil
	}
	err := write(now.Add(ttl))
	if errors.Is(err, store.ErrNotFound) {
		return time.Time{}, wire.E(code) // expired or removed in between
	}
	return now.Add(ttl), err
}

// Authenticate checks account_token and the SSO_COOKIE_KEY session, renews
// both, and returns who the request acts for (seed 000 "Authentication"
// 5 and 6). Failures: 10002 for the token, 10102 for the session.
func (s *Service) Authenticate(ctx context.Context, token, cookie string) (*Principal, error) {
	var key authKey
	if token != "" && cookie != "" {
		key = cacheKey(token, cookie)
		if p, ok := s.recent.get(key, s.clk.Now()); ok {
			return p, nil
		}
	}
	gen := s.recent.gen.Load()
	tokExp, err := s.checkToken(ctx, token)
	if err != nil {
		return nil, err
	}
	now := s.clk.Now()
	sess, acc, err := s.session(ctx, cookie, now)
	if err != nil {
		return nil, err
	}
	if err := sessionOfToken(sess, token); err != nil { // session.go
		return nil, err
	}
	sessExp, err := s.renew(ctx, sess.ExpiresAt, now, s.cfg.SessionTTL, func(exp time.Time) error {
		return s.st.RenewSession(ctx, sess.Hash, now, exp)
	}, wire.CodeNotLoggedIn)
	if err != nil {
		return nil, err
	}
	p := principalOf(acc)
	s.recent.put(key, authEntry{p: principalOf(acc), tokenExp: tokExp, sessEx: sessExp, at: now, gen: gen})
	return p, nil
}

func principalOf(a store.Account) *Principal {
	return &Principal{AccountMoid: a.Moid, Username: a.Username, DomainMoid: a.DomainMoid, DomainName: a.DomainName, Admin: a.Admin}
}

// Login checks the token and the account's password, counts failures and
// locks the account after Config.MaxFailures of them, and returns a new
// SSO_COOKIE_KEY value (reference 03 "登陆"). client is the caller's
// address, for the throttle (throttle.go).
func (s *Service) Login(ctx context.Context, token, username, password, client string) (string, *Principal, error) {
	gen := s.recent.gen.Load()
	tokExp, err := s.checkToken(ctx, token)
	if err != nil {
		return "", nil, err
	}
	acc, err := s.checkPassword(ctx, username, password, client, true)
	if err != nil {
		return "", nil, err
	}
	now := s.clk.Now()
	cookie := NewCookie()
	sessExp := now.Add(s.cfg.SessionTTL)
	if err := s.st.CreateSession(ctx, store.Session{Hash: lookupHash(cookie), AccountMoid: acc.Moid, ExpiresAt: sessExp,
		TokenHash: lookupHash(token)}); err != nil {
		return "", nil, err
	}
	// The first call of the new session is answered from what was just
	// checked and written (cache.go): the token (checked, its expiry),
	// the session (made for this token), the account (enabled), as
	// Authenticate would read them again within CacheFor.
	s.recent.put(cacheKey(token, cookie), authEntry{p: principalOf(acc), tokenExp: tokExp, sessEx: sessExp, at: now, gen: gen})
	return cookie, principalOf(acc), nil
}

// checkPassword checks an account's password for a login from client:
// refused at once during the account's lock or the client's backoff
// (throttle.go), before any bcrypt; a failure counts toward the throttle, and toward the
// account's lock only when licensed (a login that showed an
// account_token of an integrator's license).
func (s *Service) checkPassword(ctx context.Context, username, password, client string, licensed bool) (store.Account, error) {
	now := s.clk.Now()
	acc, err := s.st.AccountByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		var throttled error
		if err := s.throttle.burn(ctx, client, func() {
			// Checked in the slot: the waits may have brought the backoff.
			if throttled = s.throttle.check(s.cfg, client, username, s.clk.Now()); throttled == nil {
				burnCompare(password)
			}
		}); err != nil {
			return acc, err
		}
		if throttled != nil {
			return acc, throttled
		}
		s.throttle.fail(client, username, now)
		return acc, wire.Errorf(wire.CodeWrongCredentials, "wrong user name or password")
	}
	if err != nil {
		return acc, err
	}
	if acc.LockedUntil.After(now) {
		return acc, s.lockError(acc.FailedLogins, acc.LockedUntil)
	}
	if err := s.throttle.check(s.cfg, client, username, now); err != nil {
		return acc, err
	}
	if !s.verified.check("a:"+acc.Moid, acc.PasswordHash, password, now) {
		s.throttle.fail(client, username, now)
		if !licensed {
			return acc, wire.Errorf(wire.CodeWrongPassword, "wrong password for %s", acc.Username)
		}
		att, err := s.st.FailLogin(ctx, acc.Moid, now, s.cfg.MaxFailures, s.cfg.LockFor)
		if err != nil {
			return acc, err
		}
		if !att.LockedUntil.IsZero() {
			return acc, s.lockError(att.Failed, att.LockedUntil)
		}
		e := wire.Errorf(wire.CodeWrongPassword, "wrong password for %s: attempt %d of %d", acc.Username, att.Failed, s.cfg.MaxFailures)
		e.Lockout = s.lockFields(att.Failed, time.Time{})
		return acc, e
	}
	// Disabled is told only to a caller who knows the password: before
	// the check it would tell an account's existence to anyone.
	if acc.Disabled {
		return acc, wire.Errorf(wire.CodeAccountDisabled, "account %s is disabled", acc.Username)
	}
	s.throttle.succeed(client, username)
	if acc.FailedLogins != 0 || !acc.LockedUntil.IsZero() {
		if err := s.st.ResetLogin(ctx, acc.Moid); err != nil {
			return acc, err
		}
	}
	return acc, nil
}

// lockFields are the lockout counters of a failed login, named as the
// recording system's local login names them (seed 000 "Errors" 4).
func (s *Service) lockFields(failed int, until time.Time) *wire.Lockout {
	unlock := ""
	if !until.IsZero() {
		unlock = until.Format(time.RFC3339)
	}
	return wire.Counted(s.cfg.MaxFailures, failed, unlock)
}

func (s *Service) lockError(failed int, until time.Time) error {
	e := wire.Errorf(wire.CodeAccountLocked, "account locked after %d failed logins until %s", failed, until.Format(time.RFC3339))
	e.Lockout = s.lockFields(failed, until)
	return e
}

// Heartbeat renews a session and its token (reference 03 "保持用户心跳").
func (s *Service) Heartbeat(ctx context.Context, token, cookie string) error {
	_, err := s.Authenticate(ctx, token, cookie)
	return err
}

// RenewToken renews an account_token, and the session too when a valid
// cookie comes with it (reference 03 "保持token心跳").
func (s *Service) RenewToken(ctx context.Context, token, cookie string) error {
	if err := s.CheckToken(ctx, token); err != nil {
		return err
	}
	if cookie != "" {
		_, _ = s.Authenticate(ctx, token, cookie) // a stale cookie does not fail the token heartbeat
	}
	return nil
}

// ValidUsername tells whether a user name is acceptable for a new account.
func ValidUsername(u string) bool {
	return u != "" && len(u) <= 64 && strings.TrimSpace(u) == u && !strings.ContainsAny(u, "\x00\r\n\t")
}
