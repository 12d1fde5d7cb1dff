package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/confer-platform/confer/internal/store"
)

// accountLogout ends every login session of an account (docs/api.md
// "Licenses, tokens and sessions"): its SSO_COOKIE_KEY cookies stop
// working at once (within a second on a running node, whose
// authentication cache keeps an outcome that long). The platform API has
// no logout endpoint (reference 03); this is the administrator's way.
func accountLogout(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("account logout", stderr)
	db := dbFlag(fs)
	user := fs.String("username", "", "login name of the account whose sessions end")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *user == "" {
		fmt.Fprintln(stderr, "conferd: account logout needs --username")
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	a, err := st.AccountByUsername(ctx, *user)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "conferd: account logout: no account %q\n", *user)
		return 1
	}
	if err == nil {
		err = st.DeleteSessionsOf(ctx, a.Moid)
	}
	if err != nil {
		fmt.Fprintf(stderr, "conferd: account logout: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "every session of %s ended\n", a.Username)
	return 0
}
