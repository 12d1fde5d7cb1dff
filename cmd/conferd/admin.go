package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
)

func openStore(ctx context.Context, dsn string, stderr io.Writer) (*sqlstore.DB, bool) {
	db, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		// One line (README.md): PostgreSQL's driver puts one line per
		// address it tried.
		fmt.Fprintf(stderr, "conferd: database: %s\n", strings.Join(strings.Fields(err.Error()), " "))
		return nil, false
	}
	return db, true
}

func licenseImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("license import", stderr)
	db := dbFlag(fs)
	key := fs.String("key", "", "license key (oauth_consumer_key)")
	secret := fs.String("secret", "", "license secret (oauth_consumer_secret)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *key == "" || *secret == "" {
		fmt.Fprintln(stderr, "conferd: license import needs --key and --secret")
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	if err := auth.ImportLicense(ctx, st, *key, *secret, time.Now()); err != nil {
		fmt.Fprintf(stderr, "conferd: license import: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "license %s imported\n", *key)
	return 0
}

func accountCreate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("account create", stderr)
	db := dbFlag(fs)
	user := fs.String("username", "", "login name")
	pass := fs.String("password", "", "password")
	domain := fs.String("domain", auth.DefaultDomain, "user domain name (created if new)")
	admin := fs.Bool("admin", false, "make the account an administrator of its user domain")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *user == "" || *pass == "" {
		fmt.Fprintln(stderr, "conferd: account create needs --username and --password")
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	a, err := auth.CreateAccount(ctx, st, *domain, *user, *pass, *admin, time.Now())
	if errors.Is(err, store.ErrDuplicate) {
		fmt.Fprintf(stderr, "conferd: account create: user name %q is taken\n", *user)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "conferd: account create: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "account %s created in user domain %s (usermoid %s)\n", a.Username, a.DomainName, a.Moid)
	return 0
}
