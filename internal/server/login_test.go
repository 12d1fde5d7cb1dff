package server_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

func wantCode(t *testing.T, r testserver.Reply, code int) {
	t.Helper()
	if r.OK() || r.Code() != code {
		t.Fatalf("reply = %s, want error_code %d", r.Raw, code)
	}
	d, _ := r.Body["description"].(string)
	if !strings.HasSuffix(d, "("+strconv.Itoa(code)+")") {
		t.Fatalf("description %q does not end with (%d)", d, code)
	}
	if ct := r.HTTP.Header.Get("Content-Type"); ct != wire.ContentType {
		t.Fatalf("Content-Type = %q", ct)
	}
}

func sessionCookie(t *testing.T, r testserver.Reply) *http.Cookie {
	t.Helper()
	for _, c := range r.HTTP.Cookies() {
		if c.Name == "SSO_COOKIE_KEY" {
			return c
		}
	}
	t.Fatalf("no SSO_COOKIE_KEY cookie in %v", r.HTTP.Header["Set-Cookie"])
	return nil
}

func TestTokenAndLogin(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.Client(t)

		r := c.Do("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {testserver.LicenseKey}, "oauth_consumer_secret": {"wrong"}})
		wantCode(t, r, wire.CodeSoftwareAuthFailed)
		r = c.Do("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {"unknown"}, "oauth_consumer_secret": {"x"}})
		wantCode(t, r, wire.CodeSoftwareAuthFailed)
		r = c.Do("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {testserver.LicenseKey}})
		wantCode(t, r, wire.CodeInvalidParam)
		if !strings.Contains(r.Body["description"].(string), "oauth_consumer_secret") {
			t.Fatalf("description does not name the missing field: %s", r.Raw)
		}

		c.GetToken()
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(c.Token) {
			t.Fatalf("account_token %q is not 128 bits of hex", c.Token)
		}

		r = c.Login(testserver.AdminUser, testserver.AdminPassword)
		if !r.OK() || r.Body["username"] != testserver.AdminUser {
			t.Fatalf("login = %s", r.Raw)
		}
		// No API-Level header means level 1 (6.0.0.3.0 shapes): no user
		// domain fields, and the cookie carries Expires 14 days ahead.
		for _, f := range []string{"userdomainname", "usermoid", "userdomainmoid"} {
			if _, ok := r.Body[f]; ok {
				t.Fatalf("level-1 login reply has %s: %s", f, r.Raw)
			}
		}
		ck := sessionCookie(t, r)
		if ck.Path != "/" || !ck.HttpOnly {
			t.Fatalf("cookie attributes: %+v", ck)
		}
		if want := env.Clock.Now().Add(14 * 24 * time.Hour); !ck.Expires.Equal(want.Truncate(time.Second)) {
			t.Fatalf("cookie Expires = %v, want %v", ck.Expires, want)
		}
		if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(ck.Value) {
			t.Fatalf("cookie value %q", ck.Value)
		}

		// Level 3 (6.1.0.4.0): user domain fields, no Expires, and a new
		// cookie at every login.
		c3 := env.Client(t)
		c3.Level = "3"
		r = c3.Login(testserver.AdminUser, testserver.AdminPassword)
		if !r.OK() || r.Body["userdomainname"] != "default" || r.Body["usermoid"] == "" || r.Body["userdomainmoid"] == "" {
			t.Fatalf("level-3 login = %s", r.Raw)
		}
		if ck3 := sessionCookie(t, r); !ck3.Expires.IsZero() || ck3.Value == ck.Value {
			t.Fatalf("level-3 cookie %+v (first cookie %q)", ck3, ck.Value)
		}

		r = c.Do("POST", "/api/v1/system/login", url.Values{"username": {"nobody"}, "password": {"x"}})
		wantCode(t, r, wire.CodeWrongCredentials)
		r = c.Do("POST", "/api/v1/system/login", url.Values{"username": {testserver.AdminUser}, "password": {"x"}, "account_token": {"0123"}})
		wantCode(t, r, wire.CodeTokenInvalid)
	})
}

func TestAuthRequired(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		hb := func(token, cookie string) testserver.Reply {
			cl := env.Client(t)
			cl.Token, cl.Cookie = token, cookie
			return cl.Do("POST", "/api/v1/system/heartbeat", nil)
		}
		wantCode(t, hb("", c.Cookie), wire.CodeTokenInvalid)
		wantCode(t, hb("ffffffffffffffffffffffffffffffff", c.Cookie), wire.CodeTokenInvalid)
		wantCode(t, hb(c.Token, ""), wire.CodeNotLoggedIn)
		wantCode(t, hb(c.Token, "00000000-0000-0000-0000-000000000000"), wire.CodeNotLoggedIn)
		if r := hb(c.Token, c.Cookie); !r.OK() {
			t.Fatalf("heartbeat = %s", r.Raw)
		}
	})
}

func TestExpiryAndHeartbeats(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		for i := 0; i < 3; i++ { // 87 minutes in all, kept alive by heartbeats
			env.Clock.Advance(29 * time.Minute)
			if r := c.Do("POST", "/api/v1/system/heartbeat", nil); !r.OK() {
				t.Fatalf("heartbeat %d: %s", i, r.Raw)
			}
		}
		// The token heartbeat renews the token only.
		env.Clock.Advance(20 * time.Minute)
		tc := env.Client(t)
		if r := tc.Do("POST", "/api/v1/system/token/"+c.Token+"/heartbeat", nil); !r.OK() {
			t.Fatalf("token heartbeat: %s", r.Raw)
		}
		env.Clock.Advance(20 * time.Minute) // session idle 40 minutes, token 20
		wantCode(t, c.Do("POST", "/api/v1/system/heartbeat", nil), wire.CodeNotLoggedIn)
		env.Clock.Advance(31 * time.Minute)
		wantCode(t, c.Do("POST", "/api/v1/system/heartbeat", nil), wire.CodeTokenInvalid)
		wantCode(t, tc.Do("POST", "/api/v1/system/token/"+c.Token+"/heartbeat", nil), wire.CodeTokenInvalid)
	})
}

func TestLockout(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.Client(t)
		c.GetToken()
		for i := 1; i <= 4; i++ {
			r := c.Login(testserver.AdminUser, "wrong")
			wantCode(t, r, wire.CodeWrongPassword)
			if r.Body["maxlocknum"] != float64(5) || r.Body["currentnum"] != float64(i) || r.Body["unlocktime"] != "" {
				t.Fatalf("failure %d: %s", i, r.Raw)
			}
		}
		r := c.Login(testserver.AdminUser, "wrong")
		wantCode(t, r, wire.CodeAccountLocked)
		unlock := env.Clock.Now().Add(30 * time.Minute).Format(time.RFC3339)
		if r.Body["currentnum"] != float64(5) || r.Body["unlocktime"] != unlock {
			t.Fatalf("locking failure: %s, want unlocktime %s", r.Raw, unlock)
		}
		// Locked: even the right password is refused, and nothing counts.
		wantCode(t, c.Login(testserver.AdminUser, testserver.AdminPassword), wire.CodeAccountLocked)
		env.Clock.Advance(30*time.Minute + time.Second)
		c.GetToken()
		if r := c.Login(testserver.AdminUser, testserver.AdminPassword); !r.OK() {
			t.Fatalf("login after unlock: %s", r.Raw)
		}
		// A success clears the count.
		if r := c.Login(testserver.AdminUser, "wrong"); r.Body["currentnum"] != float64(1) {
			t.Fatalf("count after success: %s", r.Raw)
		}
	})
}
