package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The console's logins (issue 38 item 1; docs/console.md "How it talks to
// conferd"). The console holds no license: each of its logins gets an
// account_token of the node's own license made for that login alone,
// never one shared between browsers. The token is derived from the
// session's cookie with a key only the store holds (the node license's
// secret hash), so that a page of the same login (the join page's
// chairman controls) can ask for it again with the cookie, and no other
// client can.

// ConsoleLogin checks an account's password as Login does and returns a
// new session cookie and the account_token made for it. No token is
// written for a failed login.
func (s *Service) ConsoleLogin(ctx context.Context, username, password, client string) (token, cookie string, p *Principal, err error) {
	key, err := s.nodeKey(ctx)
	if err != nil {
		return "", "", nil, err
	}
	acc, err := s.checkPassword(ctx, username, password, client, false)
	if err != nil {
		return "", "", nil, err
	}
	now := s.clk.Now()
	cookie = NewCookie()
	token = consoleToken(key, cookie)
	if err := s.st.CreateToken(ctx, store.Token{Hash: lookupHash(token), LicenseKey: NodeLicenseKey, ExpiresAt: now.Add(s.cfg.TokenTTL)}); err != nil {
		return "", "", nil, err
	}
	if err := s.st.CreateSession(ctx, store.Session{Hash: lookupHash(cookie), AccountMoid: acc.Moid,
		ExpiresAt: now.Add(s.cfg.SessionTTL), TokenHash: lookupHash(token)}); err != nil {
		return "", "", nil, err
	}
	return token, cookie, principalOf(acc), nil
}

// ConsoleToken returns the account_token of a console login's cookie,
// renewed. Failure: 10102 when the cookie is no live console login, 10002
// when its token has expired.
func (s *Service) ConsoleToken(ctx context.Context, cookie string) (string, error) {
	key, err := s.nodeKey(ctx)
	if err != nil {
		return "", err
	}
	sess, _, err := s.session(ctx, cookie, s.clk.Now())
	if err != nil {
		return "", err
	}
	token := consoleToken(key, cookie)
	if sess.TokenHash != lookupHash(token) {
		return "", wire.Errorf(wire.CodeNotLoggedIn, "not logged in through the console: the SSO_COOKIE_KEY session has no console token")
	}
	if err := s.CheckToken(ctx, token); err != nil {
		return "", err
	}
	return token, nil
}

// nodeKey is the key console tokens are derived with: the stored hash of
// the node license's random secret, the same on every node of a store.
func (s *Service) nodeKey(ctx context.Context) ([]byte, error) {
	lic, err := s.st.LicenseByKey(ctx, NodeLicenseKey)
	if errors.Is(err, store.ErrNotFound) {
		if err := ImportLicense(ctx, s.st, NodeLicenseKey, NewSecret(), s.clk.Now()); err != nil && !errors.Is(err, store.ErrDuplicate) {
			return nil, err
		}
		lic, err = s.st.LicenseByKey(ctx, NodeLicenseKey)
	}
	if err != nil {
		return nil, err
	}
	return []byte(lic.SecretHash), nil
}

// consoleToken derives a console login's account_token from its cookie:
// 128 bits of an HMAC-SHA256, in the shape of NewToken.
func consoleToken(key []byte, cookie string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("console-token\x00" + cookie))
	return hex.EncodeToString(m.Sum(nil)[:16])
}
