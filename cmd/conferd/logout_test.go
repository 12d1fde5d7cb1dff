package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
)

// conferd account logout ends every session of the account, and only its.
func TestAccountLogout(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	for _, u := range []string{"bob", "carl"} {
		if code, _, errs := runCmd(t, "account", "create", "--db", db, "--create", "--username", u, "--password", "pw"); code != 0 {
			t.Fatalf("account create: %q", errs)
		}
	}
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	moid := map[string]string{}
	for _, u := range []string{"bob", "carl"} {
		a, err := st.AccountByUsername(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		moid[u] = a.Moid
		for _, h := range []string{u + "1", u + "2"} {
			if err := st.CreateSession(ctx, store.Session{Hash: h, AccountMoid: a.Moid, ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.Close()
	if code, out, errs := runCmd(t, "account", "logout", "--db", db, "--username", "bob"); code != 0 || !strings.Contains(out, "bob") {
		t.Fatalf("account logout: %d %q %q", code, out, errs)
	}
	if code, _, errs := runCmd(t, "account", "logout", "--db", db, "--username", "nobody"); code != 1 || !strings.Contains(errs, "nobody") {
		t.Fatalf("logout of an unknown account: %d %q", code, errs)
	}
	st, err = sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for h, want := range map[string]bool{"bob1": false, "bob2": false, "carl1": true, "carl2": true} {
		_, err := st.SessionByHash(ctx, h)
		if (err == nil) != want {
			t.Errorf("session %s: %v, want alive %v", h, err, want)
		}
	}
}
