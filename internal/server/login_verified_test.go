package server_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// With the verified-secret cache on (auth.DefaultConfig; docs/api.md
// "Verified secrets"), a repeated login answers as before and the cache
// replaces only the hash comparison: a wrong secret after a kept one is
// refused and counted, a locked account is refused with its kept
// password, and a replaced license secret refuses the old one at once.
func TestVerifiedSecretsKeepChecks(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		for i := 0; i < 3; i++ { // the first pays bcrypt, the others are kept
			testserver.MustOK(t, env.Client(t).Login(testserver.AdminUser, testserver.AdminPassword))
		}
		token := func(secret string) testserver.Reply {
			return env.Client(t).Do("POST", "/api/v1/system/token",
				url.Values{"oauth_consumer_key": {testserver.LicenseKey}, "oauth_consumer_secret": {secret}})
		}
		wantCode(t, token("wrong"), wire.CodeSoftwareAuthFailed)

		// Wrong passwords after a kept one: refused, counted, then locked;
		// the kept password does not pass the lock.
		for i := 1; i < 5; i++ {
			r := env.Client(t).Login(testserver.AdminUser, "wrong")
			wantCode(t, r, wire.CodeWrongPassword)
			if n, _ := r.Body["currentnum"].(float64); int(n) != i {
				t.Fatalf("failed login %d counted as %v: %s", i, r.Body["currentnum"], r.Raw)
			}
		}
		testserver.MustOK(t, env.Client(t).Login(testserver.AdminUser, testserver.AdminPassword)) // resets the count
		for i := 0; i < 5; i++ {
			env.Client(t).Login(testserver.AdminUser, "wrong")
		}
		wantCode(t, env.Client(t).Login(testserver.AdminUser, testserver.AdminPassword), wire.CodeAccountLocked)

		// A new license secret: the kept old one is refused at once.
		if err := auth.ImportLicense(context.Background(), env.Store, testserver.LicenseKey, "a-new-secret", time.Now()); err != nil {
			t.Fatal(err)
		}
		wantCode(t, token(testserver.LicenseSecret), wire.CodeSoftwareAuthFailed)
		if r := token("a-new-secret"); !r.OK() {
			t.Fatalf("new secret refused: %s", r.Raw)
		}
	})
}
