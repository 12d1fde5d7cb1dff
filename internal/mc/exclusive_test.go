package mc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// A conference is made from an exclusive room by its exclusive users
// (named by account moid or user name) and administrators only; anyone
// else of the domain gets 20005.
func TestConfFromExclusiveRoom(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		bob := env.Account(t, auth.DefaultDomain, "bob", false)
		carol := env.Account(t, auth.DefaultDomain, "carol", false)
		room := vmrCreate(t, admin, vmrBody("exclusive", map[string]any{"exclusive": 1,
			"exclusive_users": []any{map[string]any{"account": "bob", "account_type": 1, "name": "Bob"}}}))
		from := map[string]any{"create_type": 4, "template_id": room}
		testserver.MustFail(t, carol.Do("POST", cfPath, testserver.Params(t, from)), wire.CodeNoPermission)
		id := cfCreate(t, bob, from)
		testserver.MustOK(t, bob.Do("DELETE", cfPath+"/"+id, nil))
		cfCreate(t, admin, from)
	})
}
