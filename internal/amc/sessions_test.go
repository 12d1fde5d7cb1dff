package amc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// heartbeat is an authenticated request of the logged-in account.
func heartbeat(c *testserver.Client) testserver.Reply {
	return c.Do("POST", "/api/v1/system/heartbeat", nil)
}

// Disabling an account ends its sessions at once (a request with the old
// cookie answers 10102) and blocks its login (90403) until it is enabled
// again; on both stores.
func TestDisableEndsSessions(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		moid := createAcct(t, admin, "carl", map[string]any{"binded": 1, "e164": "4440001"})
		user := loginAs(t, env, "carl", "pw_carl")
		second := loginAs(t, env, "carl", "pw_carl")
		testserver.MustOK(t, heartbeat(user))

		fail(t, admin, wire.CodeInvalidParam, "PUT", acctPath+"/"+moid+"/disable", map[string]any{"e164": "999"})
		testserver.MustOK(t, heartbeat(user))
		ok(t, admin, "PUT", acctPath+"/"+moid+"/disable", map[string]any{"e164": "4440001"})
		testserver.MustFail(t, heartbeat(user), wire.CodeNotLoggedIn)
		testserver.MustFail(t, heartbeat(second), wire.CodeNotLoggedIn)
		testserver.MustFail(t, env.Client(t).Login("carl", "pw_carl"), wire.CodeAccountDisabled)
		// A wrong password is answered as for an enabled account: the
		// disabled state is told only to who knows the password.
		if r := env.Client(t).Login("carl", "not_carls"); r.OK() || r.Code() == wire.CodeAccountDisabled {
			t.Fatalf("a disabled account with a wrong password = %v, want the wrong-password answer", r.Body)
		}
		if d := ok(t, admin, "GET", acctPath+"/"+moid, nil); num(d["enable"]) != 0 || d["e164"] != "4440001" {
			t.Fatalf("disabled account = %v", d)
		}
		ok(t, admin, "PUT", acctPath+"/"+moid+"/disable", nil) // again: no change, no error

		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"enable": 1})
		again := loginAs(t, env, "carl", "pw_carl")
		testserver.MustOK(t, heartbeat(again))

		// enable 0 in an edit disables the same way.
		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"enable": 0})
		testserver.MustFail(t, heartbeat(again), wire.CodeNotLoggedIn)
		testserver.MustFail(t, env.Client(t).Login("carl", "pw_carl"), wire.CodeAccountDisabled)
	})
}

// A new password works at once: the old one fails, the account's sessions
// end, and a lock after failed logins is lifted; through the password
// endpoint and through an edit.
func TestPasswordChangeEndsSessions(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		moid := createAcct(t, admin, "dora", nil)
		user := loginAs(t, env, "dora", "pw_dora")
		// Lock the account with wrong passwords.
		for i := 0; i < 5; i++ {
			env.Client(t).Login("dora", "wrong")
		}
		testserver.MustFail(t, env.Client(t).Login("dora", "pw_dora"), wire.CodeAccountLocked)

		ok(t, admin, "PUT", acctPath+"/"+moid+"/password", map[string]any{"value": "new_pw.1"})
		testserver.MustFail(t, heartbeat(user), wire.CodeNotLoggedIn)
		testserver.MustFail(t, env.Client(t).Login("dora", "pw_dora"), wire.CodeWrongPassword)
		user = loginAs(t, env, "dora", "new_pw.1") // unlocked, new password
		testserver.MustOK(t, heartbeat(user))

		// POST with _method=PUT, and the password field of an edit.
		ok(t, admin, "POST", acctPath+"/"+moid+"/password?_method=PUT", map[string]any{"value": "third"})
		testserver.MustFail(t, heartbeat(user), wire.CodeNotLoggedIn)
		user = loginAs(t, env, "dora", "third")
		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"password": "fourth"})
		testserver.MustFail(t, heartbeat(user), wire.CodeNotLoggedIn)
		testserver.MustFail(t, env.Client(t).Login("dora", "third"), wire.CodeWrongPassword)
		loginAs(t, env, "dora", "fourth")

		// An edit without a password or enable keeps the sessions.
		user = loginAs(t, env, "dora", "fourth")
		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"name": "Dora"})
		testserver.MustOK(t, heartbeat(user))
	})
}

// A deleted account's sessions end and it cannot log in.
func TestDeleteEndsSessions(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		moid := createAcct(t, admin, "eve", nil)
		user := loginAs(t, env, "eve", "pw_eve")
		ok(t, admin, "DELETE", acctPath+"/"+moid, nil)
		testserver.MustFail(t, heartbeat(user), wire.CodeNotLoggedIn)
		testserver.MustFail(t, env.Client(t).Login("eve", "pw_eve"), wire.CodeWrongCredentials)
	})
}
