package server_test

import (
	"context"
	"testing"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Two servers in one process share no state but the store: the logins
// that a server keeps for a second (internal/auth/cache.go) are dropped by
// a password change made through that server at once, and on the other
// server after that second, as on two nodes (docs/benchmarks.md
// "Authentication"). With a process-wide generation both dropped them at
// once, and the multi-node tests did not see what another node sees.
func TestServersKeepTheirOwnLogins(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		a := testserver.StartNode(t, dsn, nil, testserver.Options{Auth: longAuth()})
		b := testserver.StartNode(t, dsn, a.Clock, testserver.Options{Auth: longAuth()})
		ctx := context.Background()
		acct, err := auth.CreateAccount(ctx, a.Store, auth.DefaultDomain, "bob", "pw_bob", false, a.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		onA := a.Client(t)
		testserver.MustOK(t, onA.Login("bob", "pw_bob"))
		onB := b.Client(t)
		onB.Token, onB.Cookie = onA.Token, onA.Cookie
		list := func(c *testserver.Client) testserver.Reply { return c.Do("GET", "/api/v1/vc/confs", nil) }
		testserver.MustOK(t, list(onA)) // each server keeps the login
		testserver.MustOK(t, list(onB))

		admin := a.LoggedIn(t)
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/amc/accounts/"+acct.Moid+"/password",
			testserver.Params(t, map[string]any{"value": "new_pw"})))
		testserver.MustFail(t, list(onA), wire.CodeNotLoggedIn) // the server that made the change: at once
		testserver.MustOK(t, list(onB))                         // the other: its kept login holds...
		a.Advance(t, auth.CacheFor)
		testserver.MustFail(t, list(onB), wire.CodeNotLoggedIn) // ...for a second of the clock
	})
}
