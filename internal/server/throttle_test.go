package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// consoleLogin posts the console's login form from the local address ip
// and returns the reply's error_code (0 for success).
func consoleLogin(t *testing.T, env *testserver.Env, ip, user, password string) int {
	t.Helper()
	tr := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}).DialContext}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).PostForm(env.URL+"/console/login", url.Values{"username": {user}, "password": {password}})
	if err != nil {
		t.Skipf("login from %s: %v", ip, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r struct {
		Success   int `json:"success"`
		ErrorCode int `json:"error_code"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("console login: %q", b)
	}
	return r.ErrorCode
}

// Issue 38 item 5: five logins with the console's public token locked any
// account, administrators included, for 30 minutes. There is no public
// token now, and failures without a license throttle the guessing address
// only: the account logs in from another address, and with its license.
func TestGuessesWithoutLicenseNeverLockTheAccount(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	// The old way in: a token for anyone.
	resp, err := http.Post(env.URL+"/console/token", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(b), "account_token") {
		t.Fatalf("/console/token without a login: %s", b)
	}
	free := auth.DefaultConfig().ThrottleFree
	for i := range free + 3 {
		code := consoleLogin(t, env, "127.0.0.5", testserver.AdminUser, "guess")
		want := 10101
		if i >= free {
			want = auth.CodeThrottled
		}
		if code != want {
			t.Fatalf("guess %d: error_code %d, want %d", i+1, code, want)
		}
	}
	if code := consoleLogin(t, env, "127.0.0.2", testserver.AdminUser, testserver.AdminPassword); code != 0 {
		t.Fatalf("the administrator from another address: %d", code)
	}
	testserver.MustOK(t, env.LoggedIn(t).Do("GET", "/api/v1/vc/confs", nil)) // with the license, from 127.0.0.1
	// The guessing address waits, then may try again; its right password
	// clears its failures.
	env.Advance(t, 20*time.Minute)
	if code := consoleLogin(t, env, "127.0.0.5", testserver.AdminUser, testserver.AdminPassword); code != 0 {
		t.Fatalf("after the backoff: %d", code)
	}
}

// Issue 38 item 6: every unknown-user login cost a full bcrypt without a
// limit per client. Beyond 30 failures an address's further logins are
// answered at once (no bcrypt) until its backoff ends; other addresses
// are served.
func TestUnknownUsersBoundedPerAddress(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	for i := range auth.DefaultConfig().ThrottleClientFree {
		if code := consoleLogin(t, env, "127.0.0.1", fmt.Sprintf("nobody%d", i), "x"); code != 19002 {
			t.Fatalf("unknown user %d: %d, want 19002", i+1, code)
		}
	}
	if code := consoleLogin(t, env, "127.0.0.1", "nobody-else", "x"); code != auth.CodeThrottled {
		t.Fatalf("one more unknown user: %d, want %d", code, auth.CodeThrottled)
	}
	if code := consoleLogin(t, env, "127.0.0.1", testserver.AdminUser, testserver.AdminPassword); code != auth.CodeThrottled {
		t.Fatalf("a right password from the throttled address: %d, want %d", code, auth.CodeThrottled)
	}
	if code := consoleLogin(t, env, "127.0.0.4", testserver.AdminUser, testserver.AdminPassword); code != 0 {
		t.Fatalf("another address: %d", code)
	}
	// The API's login (with a license) from the throttled address too
	// (the test client's address is 127.0.0.1).
	c := env.Client(t)
	c.GetToken()
	if r := c.Login(testserver.AdminUser, testserver.AdminPassword); r.Code() != auth.CodeThrottled {
		t.Fatalf("licensed login from the throttled address: %s", r.Raw)
	}
}
