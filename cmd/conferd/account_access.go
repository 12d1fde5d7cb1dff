package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/store"
)

// accountPassword gives an account a new password (docs/operations.md
// "Accounts"): the one of --password-file, or a random one printed once.
// The account's sessions end and a lock after failed logins is lifted; a
// running node takes the new password at the next login.
func accountPassword(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("account password", stderr)
	db := dbFlag(fs)
	user := fs.String("username", "", "login name of the account")
	file := fs.String("password-file", "", "read the new password from this file's first line (default: a random one, printed)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *user == "" {
		fmt.Fprintln(stderr, "conferd: account password needs --username")
		return exitUsage
	}
	pw, random := auth.NewSecret(), true
	if *file != "" {
		b, err := os.ReadFile(*file)
		if err != nil {
			fmt.Fprintf(stderr, "conferd: account password: %v\n", err)
			return exitUsage
		}
		pw, _, _ = strings.Cut(string(b), "\n")
		pw, random = strings.TrimRight(pw, "\r"), false
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	a, err := auth.SetPassword(ctx, st, *user, pw, time.Now())
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "conferd: account password: no account %q\n", *user)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "conferd: account password: %v\n", err)
		return 1
	}
	if random {
		fmt.Fprintf(stdout, "new password of %s (shown only now): %s\n", a.Username, pw)
	} else {
		fmt.Fprintf(stdout, "password of %s changed\n", a.Username)
	}
	return 0
}

// accountUnlock lifts the lock that failed logins put on an account
// (--login-max-failures of them lock it for --login-lock), keeping its
// password.
func accountUnlock(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("account unlock", stderr)
	db := dbFlag(fs)
	user := fs.String("username", "", "login name of the account")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *user == "" {
		fmt.Fprintln(stderr, "conferd: account unlock needs --username")
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	a, err := auth.Unlock(ctx, st, *user)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "conferd: account unlock: no account %q\n", *user)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "conferd: account unlock: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s unlocked: failed logins cleared\n", a.Username)
	return 0
}
