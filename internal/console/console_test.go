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

// TestTokenAndLogout: /console/token gives an account_token of the node's
// own license that logs in with an account's password (and nothing without
// it); it refuses GET and other origins; /console/logout ends the session.
func TestTokenAndLogout(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	post := func(path string, h map[string]string, cookie string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", env.URL+path, nil)
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

	if resp, err := http.Get(env.URL + "/console/token"); err != nil || resp.StatusCode != 405 {
		t.Fatalf("GET /console/token: %v %v, want 405", resp.StatusCode, err)
	}
	for _, h := range []map[string]string{{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}} {
		if resp, _ := post("/console/token", h, ""); resp.StatusCode != 403 {
			t.Errorf("token from another origin %v: HTTP %d, want 403", h, resp.StatusCode)
		}
	}
	resp, body := post("/console/token", map[string]string{"Origin": env.URL}, "")
	if resp.StatusCode != 200 || !strings.Contains(body, `"account_token"`) {
		t.Fatalf("token: HTTP %d %s", resp.StatusCode, body)
	}
	tok := body[strings.Index(body, `"account_token":"`)+len(`"account_token":"`):]
	tok = tok[:strings.IndexByte(tok, '"')]
	// Every browser gets the same token while it is valid; a new one after
	// it expired (30 idle minutes).
	if _, again := post("/console/token", nil, ""); !strings.Contains(again, tok) {
		t.Errorf("a second token request: %s, want the same token %s", again, tok)
	}
	env.Advance(t, 31*time.Minute)
	if _, later := post("/console/token", nil, ""); strings.Contains(later, tok) || !strings.Contains(later, `"account_token"`) {
		t.Errorf("a token request after the token expired: %s, want a new token", later)
	}
	_, body = post("/console/token", nil, "")
	tok = body[strings.Index(body, `"account_token":"`)+len(`"account_token":"`):]
	tok = tok[:strings.IndexByte(tok, '"')]

	c := env.Client(t)
	c.Token = tok
	// The token alone opens nothing that needs a login.
	if r := c.Do("GET", "/api/v1/vc/confs", nil); r.Code() != 10102 {
		t.Fatalf("vc list with the node token and no login: %s, want 10102", r.Raw)
	}
	if r := c.Do("POST", "/api/v1/system/login", url.Values{"username": {testserver.AdminUser}, "password": {"wrong"}}); r.OK() {
		t.Fatalf("login with a wrong password: %s", r.Raw)
	}
	if r := c.Login(testserver.AdminUser, testserver.AdminPassword); !r.OK() {
		t.Fatalf("login with the node token: %s", r.Raw)
	}
	testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs", nil))

	// Log out: the cookie is cleared and the session ended.
	resp, body = post("/console/logout", nil, c.Cookie)
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
	if resp, _ := post("/console/logout", map[string]string{"Origin": "http://evil.example"}, c.Cookie); resp.StatusCode != 403 {
		t.Errorf("logout from another origin: HTTP %d, want 403", resp.StatusCode)
	}
}
