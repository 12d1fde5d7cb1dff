package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/sipcred"
	"github.com/confer-platform/confer/internal/store"
)

// DefaultDomain is the name of the user domain made at first start and
// used when `conferd account create` names none.
const DefaultDomain = "default"

// ImportLicense stores an API license (seed 000: "An API license must be
// imported into the platform first"); the secret is kept hashed. Importing
// a key again replaces its secret.
func ImportLicense(ctx context.Context, st store.Store, key, secret string, now time.Time) error {
	if key == "" || secret == "" {
		return fmt.Errorf("license key and secret must not be empty")
	}
	h, err := HashSecret(secret)
	if err != nil {
		return err
	}
	return st.PutLicense(ctx, store.License{Key: key, SecretHash: h, CreatedAt: now})
}

// EnsureDomain returns the user domain with this name, creating it if new.
func EnsureDomain(ctx context.Context, st store.Store, name string, now time.Time) (store.Domain, error) {
	d, err := st.DomainByName(ctx, name)
	if err == nil || !errors.Is(err, store.ErrNotFound) {
		return d, err
	}
	d = store.Domain{Moid: NewMoid(), Name: name, CreatedAt: now}
	err = st.CreateDomain(ctx, d)
	if errors.Is(err, store.ErrDuplicate) { // created meanwhile by another node
		return st.DomainByName(ctx, name)
	}
	return d, err
}

// CreateAccount creates an account in the named user domain (created if
// new). It fails with store.ErrDuplicate when the user name is taken.
func CreateAccount(ctx context.Context, st store.Store, domain, username, password string, admin bool, now time.Time) (store.Account, error) {
	if !ValidUsername(username) {
		return store.Account{}, fmt.Errorf("invalid user name %q", username)
	}
	if password == "" {
		return store.Account{}, fmt.Errorf("password must not be empty")
	}
	if domain == "" {
		domain = DefaultDomain
	}
	d, err := EnsureDomain(ctx, st, domain, now)
	if err != nil {
		return store.Account{}, err
	}
	h, err := HashSecret(password)
	if err != nil {
		return store.Account{}, err
	}
	a := store.Account{Moid: NewMoid(), DomainMoid: d.Moid, DomainName: d.Name, Username: username, PasswordHash: h, Admin: admin, CreatedAt: now}
	return a, st.CreateAccount(ctx, a)
}

// SetPassword gives the account named username a new password from the
// command line (conferd account password): its sessions end, its failed
// logins and lock are cleared, and its SIP credential follows, as an
// administrator's reset through amc does (manage.go).
func SetPassword(ctx context.Context, st store.Store, username, password string, now time.Time) (store.Account, error) {
	if password == "" {
		return store.Account{}, fmt.Errorf("password must not be empty")
	}
	a, err := st.AccountByUsername(ctx, username)
	if err != nil {
		return a, err
	}
	if a.PasswordHash, err = HashSecret(password); err != nil {
		return a, err
	}
	if err := st.UpdateAccount(ctx, a, true); err != nil {
		return a, err
	}
	if err := sipcred.Save(ctx, st, a, password, now); err != nil {
		return a, err
	}
	return a, st.ResetLogin(ctx, a.Moid)
}

// Unlock clears the failed-login count and lock of the account named
// username (conferd account unlock); its password stays.
func Unlock(ctx context.Context, st store.Store, username string) (store.Account, error) {
	a, err := st.AccountByUsername(ctx, username)
	if err != nil {
		return a, err
	}
	return a, st.ResetLogin(ctx, a.Moid)
}
