package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
)

// conferd account unlock lifts a lock after failed logins; conferd
// account password sets a password from a file or a random one, printed,
// and ends the account's sessions.
func TestAccountUnlockAndPassword(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "c.db")
	if code, _, errs := runCmd(t, "account", "create", "--db", db, "--create", "--username", "dana", "--password", "pw"); code != 0 {
		t.Fatalf("account create: %q", errs)
	}
	account := func() store.Account {
		st, err := sqlstore.Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		a, err := st.AccountByUsername(ctx, "dana")
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	moid := account().Moid
	for range 5 {
		if _, err := st.FailLogin(ctx, moid, time.Now(), 5, 30*time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.CreateSession(ctx, store.Session{Hash: "s1", AccountMoid: moid, ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if a := account(); a.LockedUntil.IsZero() {
		t.Fatal("five failed logins did not lock the account")
	}

	if code, out, errs := runCmd(t, "account", "unlock", "--db", db, "--username", "dana"); code != 0 || !strings.Contains(out, "dana unlocked") {
		t.Fatalf("account unlock: %d %q %q", code, out, errs)
	}
	if a := account(); !a.LockedUntil.IsZero() || a.FailedLogins != 0 || !auth.CheckSecret(a.PasswordHash, "pw") {
		t.Fatalf("after unlock: locked until %v, %d failures, password kept %v", a.LockedUntil, a.FailedLogins, auth.CheckSecret(a.PasswordHash, "pw"))
	}

	code, out, errs := runCmd(t, "account", "password", "--db", db, "--username", "dana")
	pw, found := strings.CutPrefix(strings.TrimSpace(out), "new password of dana (shown only now): ")
	if code != 0 || !found || pw == "" {
		t.Fatalf("account password: %d %q %q", code, out, errs)
	}
	if a := account(); !auth.CheckSecret(a.PasswordHash, pw) {
		t.Fatal("the printed password is not the account's")
	}
	st, err = sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.SessionByHash(ctx, "s1"); err == nil {
		t.Error("the account's session survived its new password")
	}
	st.Close()

	file := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(file, []byte("chosen.pw1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCmd(t, "account", "password", "--db", db, "--username", "dana", "--password-file", file); code != 0 || strings.Contains(out, "chosen") {
		t.Fatalf("account password --password-file: %d %q %q", code, out, errs)
	}
	if a := account(); !auth.CheckSecret(a.PasswordHash, "chosen.pw1") {
		t.Fatal("the file's password is not the account's")
	}
	for _, sub := range []string{"unlock", "password"} {
		if code, _, errs := runCmd(t, "account", sub, "--db", db, "--username", "nobody"); code != 1 || !strings.Contains(errs, "nobody") {
			t.Errorf("account %s of an unknown account: %d %q", sub, code, errs)
		}
	}
}
