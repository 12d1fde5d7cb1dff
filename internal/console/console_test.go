package console_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestFiles: the embedded files are served under /console/ with their
// types; /console redirects; other paths still reach the API.
func TestFiles(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		method, path string
		status       int
		ctype, body  string
	}{
		{"GET", "/console/", 200, "text/html", `<script type="module" src="js/main.js">`},
		{"GET", "/console/js/main.js", 200, "text/javascript", "import * as api"},
		{"GET", "/console/js/layouts.js", 200, "text/javascript", "export const LAYOUTS"},
		{"GET", "/console/app.css", 200, "text/css", ":root"},
		{"HEAD", "/console/app.css", 200, "text/css", ""},
		{"GET", "/console", 301, "", ""},
		{"GET", "/", 302, "", ""}, // the node's address leads to the console
		{"HEAD", "/", 302, "", ""},
		{"GET", "/favicon.ico", 200, "image/", ""}, // a real icon, not a JSON error
		{"GET", "/console/favicon.ico", 200, "image/", ""},
		{"GET", "/console/nothing.js", 404, "", ""},
		{"GET", "/console/../go.mod", 404, "", ""}, // no way out of the embedded tree
		{"POST", "/console/app.css", 405, "", ""},
		{"GET", "/api/vc/version", 200, "application/json", `"api_level":3`},
	} {
		req, _ := http.NewRequest(c.method, env.URL+c.path, nil)
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: HTTP %d, want %d", c.method, c.path, resp.StatusCode, c.status)
			continue
		}
		if ct := resp.Header.Get("Content-Type"); c.ctype != "" && !strings.HasPrefix(ct, c.ctype) {
			t.Errorf("%s %s: Content-Type %q, want %s", c.method, c.path, ct, c.ctype)
		}
		if c.status == 302 && resp.Header.Get("Location") != "/console/" {
			t.Errorf("%s %s: Location %q, want /console/", c.method, c.path, resp.Header.Get("Location"))
		}
		if strings.HasSuffix(c.path, ".ico") && (len(b) < 6 || string(b[:4]) != "\x00\x00\x01\x00") {
			t.Errorf("%s %s: not an ICO file (%d bytes)", c.method, c.path, len(b))
		}
		if !strings.Contains(string(b), c.body) {
			t.Errorf("%s %s: body lacks %q", c.method, c.path, c.body)
		}
		if c.status == 200 && strings.HasPrefix(c.path, "/console/") && c.ctype != "application/json" {
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
				t.Errorf("%s: Content-Security-Policy %q", c.path, csp)
			}
		}
	}
}

// TestLoginTokenAndLogout: /console/login logs in and answers a token of
// the node's own license made for that login (another login gets another
// one); /console/token answers it again to the login's cookie and to
// nobody else (issue 38 item 1: it handed one token to anyone); they refuse
// GET and other origins; /console/logout ends the session.
func TestLoginTokenAndLogout(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	post := func(path string, h map[string]string, cookie string, form url.Values) (*http.Response, string) {
		req, _ := http.NewRequest("POST", env.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	field := func(body, name string) string {
		i := strings.Index(body, `"`+name+`":"`)
		if i < 0 {
			return ""
		}
		v := body[i+len(name)+4:]
		return v[:strings.IndexByte(v, '"')]
	}
	creds := url.Values{"username": {testserver.AdminUser}, "password": {testserver.AdminPassword}}

	for _, p := range []string{"/console/token", "/console/login"} {
		if resp, err := http.Get(env.URL + p); err != nil || resp.StatusCode != 405 {
			t.Fatalf("GET %s: %v %v, want 405", p, resp.StatusCode, err)
		}
		for _, h := range []map[string]string{{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}} {
			if resp, _ := post(p, h, "", creds); resp.StatusCode != 403 {
				t.Errorf("%s from another origin %v: HTTP %d, want 403", p, h, resp.StatusCode)
			}
		}
	}
	// No token without a login.
	if _, body := post("/console/token", map[string]string{"Origin": env.URL}, "", nil); !strings.Contains(body, `"error_code":10102`) {
		t.Fatalf("token without a login: %s, want 10102", body)
	}
	if _, body := post("/console/login", nil, "", url.Values{"username": {testserver.AdminUser}, "password": {"wrong"}}); !strings.Contains(body, `"error_code":10101`) {
		t.Fatalf("login with a wrong password: %s, want 10101", body)
	}
	if _, body := post("/console/login", nil, "", url.Values{"username": {testserver.AdminUser}}); !strings.Contains(body, `"error_code":90400`) || !strings.Contains(body, "password") {
		t.Fatalf("login without a password: %s, want 90400 naming password", body)
	}

	resp, body := post("/console/login", map[string]string{"Origin": env.URL}, "", creds)
	tok, cookie := field(body, "account_token"), ""
	for _, ck := range resp.Cookies() {
		if ck.Name == "SSO_COOKIE_KEY" {
			cookie = ck.Value
			if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure {
				t.Errorf("cookie %+v: want HttpOnly, SameSite=Lax, not Secure over plain HTTP", ck)
			}
		}
	}
	if tok == "" || cookie == "" || field(body, "username") != testserver.AdminUser {
		t.Fatalf("console login: HTTP %d %s (cookie %q)", resp.StatusCode, body, cookie)
	}
	_, other := post("/console/login", nil, "", creds)
	if t2 := field(other, "account_token"); t2 == "" || t2 == tok {
		t.Errorf("a second login's token %q, want another than %q", t2, tok)
	}
	if _, again := post("/console/token", nil, cookie, nil); field(again, "account_token") != tok {
		t.Errorf("the login's token again: %s, want %s", again, tok)
	}

	c := env.Client(t)
	c.Token, c.Cookie = tok, cookie
	testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs", nil))
	// The token with another login (of a license) opens nothing.
	lic := env.LoggedIn(t)
	lic.Token = tok
	if r := lic.Do("GET", "/api/v1/vc/confs", nil); r.Code() != 10102 {
		t.Fatalf("the console token with another session: %s, want 10102", r.Raw)
	}

	// Log out: the cookie is cleared and the session ended.
	resp, body = post("/console/logout", nil, c.Cookie, nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `"success":1`) {
		t.Fatalf("logout: HTTP %d %s", resp.StatusCode, body)
	}
	cleared := false
	for _, ck := range resp.Cookies() {
		cleared = cleared || (ck.Name == "SSO_COOKIE_KEY" && ck.MaxAge < 0)
	}
	if !cleared {
		t.Errorf("logout did not clear the cookie: %v", resp.Header.Values("Set-Cookie"))
	}
	env.Advance(t, 2*time.Second) // a node keeps an authentication outcome for a second of its clock
	if r := c.Do("GET", "/api/v1/vc/confs", nil); r.Code() != 10102 {
		t.Fatalf("vc list after logout: %s, want 10102", r.Raw)
	}
	if _, body := post("/console/token", nil, c.Cookie, nil); !strings.Contains(body, `"error_code":10102`) {
		t.Errorf("token after logout: %s, want 10102", body)
	}
	// With a cookie, the server's origin check answers first (90401).
	if resp, body := post("/console/logout", map[string]string{"Origin": "http://evil.example"}, c.Cookie, nil); resp.StatusCode != 403 && !strings.Contains(body, `"error_code":90401`) {
		t.Errorf("logout from another origin: HTTP %d %s, want 403 or 90401", resp.StatusCode, body)
	}
}
