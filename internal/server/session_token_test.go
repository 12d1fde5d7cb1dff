package server_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Issue 20 item 9: a session belongs to the account_token it logged in
// with. Another client's token (A's token with B's cookie used to act as
// B) and another license's token are refused with 10102; the login's own
// token works.
func TestSessionBoundToToken(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		if err := auth.ImportLicense(context.Background(), env.Store, "other-key", "other-secret", env.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		a := env.LoggedIn(t)
		b := env.Account(t, "default", "bob", false)
		heartbeat := func(token, cookie string) testserver.Reply {
			c := env.Client(t)
			c.Token, c.Cookie = token, cookie
			return c.Do("POST", "/api/v1/system/heartbeat", nil)
		}
		testserver.MustOK(t, heartbeat(a.Token, a.Cookie))
		testserver.MustOK(t, heartbeat(b.Token, b.Cookie))
		wantCode(t, heartbeat(a.Token, b.Cookie), wire.CodeNotLoggedIn)
		wantCode(t, heartbeat(b.Token, a.Cookie), wire.CodeNotLoggedIn)
		other := env.Client(t)
		r := other.Do("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {"other-key"}, "oauth_consumer_secret": {"other-secret"}})
		tok := testserver.MustOK(t, r)["account_token"].(string)
		wantCode(t, heartbeat(tok, a.Cookie), wire.CodeNotLoggedIn)
		// A new login with the other token binds a new session to it.
		other.Token = tok
		testserver.MustOK(t, other.Login(testserver.AdminUser, testserver.AdminPassword))
		testserver.MustOK(t, heartbeat(tok, other.Cookie))
		testserver.MustOK(t, heartbeat(a.Token, a.Cookie))
	})
}
