package auth

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/store"
)

// NodeLicenseKey is the API license the node's own applications (the web
// console, docs/console.md) hold. Its secret is random and never kept, so
// no integrator can use the key: tokens for it come from ConsoleLogin only
// (console.go).
const NodeLicenseKey = "confer-node"

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
