package auth

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/store"
)

// NodeLicenseKey is the API license the node's own applications (the web
// console, docs/console.md) hold. Its secret is random and never kept, so
// no integrator can use the key: tokens for it come from NodeToken only.
const NodeLicenseKey = "confer-node"

// NodeToken issues an account_token for the node's own license, imported
// on first use (seed 000 "Authentication" 2: a token belongs to a
// license). A token alone grants nothing but the login request; the
// session of POST /api/v1/system/login is what authorises.
func (s *Service) NodeToken(ctx context.Context) (string, error) {
	if _, err := s.st.LicenseByKey(ctx, NodeLicenseKey); errors.Is(err, store.ErrNotFound) {
		if err := ImportLicense(ctx, s.st, NodeLicenseKey, NewSecret(), s.clk.Now()); err != nil {
			return "", err
		}
	} else if err != nil {
		return "", err
	}
	tok := NewToken()
	err := s.st.CreateToken(ctx, store.Token{Hash: lookupHash(tok), LicenseKey: NodeLicenseKey, ExpiresAt: s.clk.Now().Add(s.cfg.TokenTTL)})
	return tok, err
}

// EndSession ends the login session of an SSO_COOKIE_KEY cookie at once
// (the console's log out, docs/console.md): its expiry becomes now. An
// unknown or ended session is no error.
func (s *Service) EndSession(ctx context.Context, cookie string) error {
	if cookie == "" {
		return nil
	}
	now := s.clk.Now()
	err := s.st.RenewSession(ctx, lookupHash(cookie), now, now)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
