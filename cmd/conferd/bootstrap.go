package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/store"
)

// bootstrapAdmin is the user name of the administrator made at first start.
const bootstrapAdmin = "admin"

// bootstrap makes an empty store usable at once: it creates the default
// user domain, one API license and one administrator with random secrets,
// and prints them once (they are stored hashed and cannot be shown again).
// A store that holds a license or an account is left alone.
func bootstrap(ctx context.Context, st store.Store, out io.Writer) error {
	licenses, err := st.CountLicenses(ctx)
	if err != nil {
		return err
	}
	accounts, err := st.CountAccounts(ctx)
	if err != nil || licenses > 0 || accounts > 0 {
		return err
	}
	now := time.Now()
	key, secret, password := "confer-"+auth.NewSecret()[:12], auth.NewSecret(), auth.NewSecret()
	if _, err := auth.CreateAccount(ctx, st, auth.DefaultDomain, bootstrapAdmin, password, true, now); err != nil {
		return err
	}
	if err := auth.ImportLicense(ctx, st, key, secret, now); err != nil {
		return err
	}
	fmt.Fprintf(out, `First start: created user domain %q, an API license and an administrator.
They are shown only now; keep them.
  license key (oauth_consumer_key):       %s
  license secret (oauth_consumer_secret): %s
  username: %s
  password: %s
`, auth.DefaultDomain, key, secret, bootstrapAdmin, password)
	return nil
}
