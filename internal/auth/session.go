package auth

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// SessionPrincipal checks an SSO_COOKIE_KEY session alone, without an
// account_token, and returns who it belongs to. The push server uses it
// for the CometD handshake, which carries only the login's cookie
// (reference 02 "握手"). It does not renew the session: keeping a login
// alive is the HTTP heartbeat's job (reference 02 "心跳保护"), so a
// push connection outlives its login only until the session's idle
// lifetime ends. Failure: 10102.
func (s *Service) SessionPrincipal(ctx context.Context, cookie string) (*Principal, error) {
	_, acc, err := s.session(ctx, cookie, s.clk.Now())
	if err != nil {
		return nil, err
	}
	return principalOf(acc), nil
}

// session reads the login session of an SSO_COOKIE_KEY and its account
// at now. Failure: 10102 for a missing, unknown or expired cookie and for
// an account that is gone or disabled.
func (s *Service) session(ctx context.Context, cookie string, now time.Time) (store.Session, store.Account, error) {
	if cookie == "" {
		return store.Session{}, store.Account{}, wire.Errorf(wire.CodeNotLoggedIn, "not logged in: the SSO_COOKIE_KEY cookie is missing")
	}
	sess, err := s.st.SessionByHash(ctx, lookupHash(cookie))
	if errors.Is(err, store.ErrNotFound) || (err == nil && !sess.ExpiresAt.After(now)) {
		return sess, store.Account{}, wire.Errorf(wire.CodeNotLoggedIn, "not logged in or the login timed out: SSO_COOKIE_KEY is unknown or expired")
	}
	if err != nil {
		return sess, store.Account{}, err
	}
	acc, err := s.st.AccountByMoid(ctx, sess.AccountMoid)
	if errors.Is(err, store.ErrNotFound) || (err == nil && acc.Disabled) {
		return sess, acc, wire.Errorf(wire.CodeNotLoggedIn, "not logged in: the session's account no longer exists or is disabled")
	}
	return sess, acc, err
}

// sessionOfToken refuses a session used with another account_token than
// the one it logged in with (issue 20 item 9; docs/api.md): a cookie
// taken from one client does not act for it under another license or
// another client's token. Failure: 10102.
func sessionOfToken(sess store.Session, token string) error {
	if sess.TokenHash != "" && sess.TokenHash != lookupHash(token) {
		return wire.Errorf(wire.CodeNotLoggedIn, "not logged in with this account_token: the SSO_COOKIE_KEY session belongs to the account_token it logged in with")
	}
	return nil
}
