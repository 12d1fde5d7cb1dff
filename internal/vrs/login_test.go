package vrs_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The local login answers the account's rights and a new session; its
// failures carry maxlocknum, currentnum and unlocktime, and the failures
// lock the account (the platform's own lockout, shared with the platform
// login) until unlocktime.
func TestLoginLockout(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		v := newVR(t, env, admin)
		env.Account(t, "default", "carol", false)

		// Success, by POST (reference) and GET (seeds), under v1 and v2.
		body := testserver.MustOK(t, admin.Do("POST", "/api/v2/vrs/login", testserver.Params(t, map[string]any{"username": "carol", "psd": "pw"})))
		eq(t, "user and rights", []any{body["username"], body["rightmask"], body["userrole"]}, []any{"carol", 7, 2})
		if len(body["token"].(string)) != 36 || body["usermoid"] == "" || body["userdomainmoid"] == "" {
			t.Errorf("login reply %v lacks the session token or moids", body)
		}
		body = testserver.MustOK(t, admin.Do("GET", "/api/v1/vrs/login", url.Values{"username": {"admin"}, "psd": {testserver.AdminPassword}}))
		eq(t, "administrator's role", body["userrole"], 1)
		// The token is a session of the account: used as the cookie, it acts as carol.
		carol := env.Client(t)
		carol.Token, carol.Cookie = admin.Token, testserver.MustOK(t, admin.Do("POST", "/api/v1/vrs/login",
			testserver.Params(t, map[string]any{"username": "carol", "psd": "pw"})))["token"].(string)
		testserver.MustFail(t, carol.Do("POST", "/api/v1/vrs/program_folder", testserver.Params(t, map[string]any{"foldername": "x"})), 9)

		// Failures count up to the lock.
		start := env.Clock.Now()
		for i := 1; i <= 4; i++ {
			r := admin.Do("GET", "/api/v1/vrs/login", url.Values{"username": {"carol"}, "psd": {"wrong"}})
			testserver.MustFail(t, r, 5)
			eq(t, "counters", []any{r.Body["maxlocknum"], r.Body["currentnum"], r.Body["unlocktime"]}, []any{5, i, 0})
		}
		r := v.do("POST", "/login", map[string]any{"username": "carol", "psd": "wrong"})
		testserver.MustFail(t, r, 90423)
		unlock := start.Add(30 * time.Minute).Unix()
		eq(t, "locked counters", []any{r.Body["maxlocknum"], r.Body["currentnum"], r.Body["unlocktime"]}, []any{5, 5, unlock})
		// Locked: the right password is refused, here and at the platform login.
		r = v.do("POST", "/login", map[string]any{"username": "carol", "psd": "pw"})
		testserver.MustFail(t, r, 90423)
		eq(t, "unlocktime while locked", r.Body["unlocktime"], unlock)
		testserver.MustFail(t, env.Client(t).Login("carol", "pw"), 90423)

		// Unknown user: 6, nothing counted.
		r = v.do("POST", "/login", map[string]any{"username": "nobody", "psd": "x"})
		testserver.MustFail(t, r, 6)
		eq(t, "unknown user's counters", []any{r.Body["maxlocknum"], r.Body["currentnum"], r.Body["unlocktime"]}, []any{5, 0, 0})
		// A missing parameter is the schema's.
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vrs/login", url.Values{"username": {"carol"}}), 90400)

		// The lock ends at unlocktime; the count starts again.
		env.Advance(t, 30*time.Minute)
		v = newVR(t, env, env.LoggedIn(t)) // the idle token and session expired too
		testserver.MustOK(t, v.do("POST", "/login", map[string]any{"username": "carol", "psd": "pw"}))
		r = v.do("POST", "/login", map[string]any{"username": "carol", "psd": "wrong"})
		testserver.MustFail(t, r, 5)
		eq(t, "count after the lock", r.Body["currentnum"], 1)
	})
}
