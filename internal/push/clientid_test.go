package push_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 13: a connect without the cookie, on another client's
// clientId, received that client's messages. A clientId opens nothing
// without the login cookie it handshook with: "unknown client".
func TestClientIDNeedsItsLogin(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	owner := newBx(t, env, admin.Cookie)
	owner.mustHandshake()
	other := env.Account(t, "default", "mallory", false)
	for _, cookie := range []string{"", other.Cookie} {
		thief := newBx(t, env, cookie)
		thief.clientID = owner.clientID
		replies := append(thief.connect(0), thief.subscribe("/userdomains/"+owner.domain+"/confs"))
		for _, r := range replies {
			if r["successful"] == true || r["error"] != "402::unknown client" {
				t.Errorf("with cookie %q on another login's clientId: %v, want 402::unknown client", cookie, r)
			}
		}
	}
	// The owner goes on.
	owner.mustSubscribe("/userdomains/" + owner.domain + "/confs")
}
