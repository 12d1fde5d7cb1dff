package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 items 1 and 10: the login cookie is SameSite=Lax (and Secure
// under TLS, here through a proxy that says so), and a cookie-carrying
// write from a page of another origin is refused 90401; other origins
// pass when --allowed-origins names them, and clients that are no
// browser (no Origin, no Sec-Fetch-Site) are served as before.
func TestLoginCookieAndOriginCheck(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{AllowedOrigins: []string{"https://portal.example"}})
	c := env.Client(t)
	c.GetToken()
	for _, proto := range []string{"", "https"} {
		form := url.Values{"account_token": {c.Token}, "username": {testserver.AdminUser}, "password": {testserver.AdminPassword}}
		req, _ := http.NewRequest("POST", env.URL+"/api/v1/system/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if proto != "" {
			req.Header.Set("X-Forwarded-Proto", proto)
		}
		r := c.Send(req)
		testserver.MustOK(t, r)
		var ck *http.Cookie
		for _, x := range r.HTTP.Cookies() {
			if x.Name == "SSO_COOKIE_KEY" {
				ck = x
			}
		}
		if ck == nil || ck.SameSite != http.SameSiteLaxMode || !ck.HttpOnly || ck.Secure != (proto == "https") {
			t.Fatalf("X-Forwarded-Proto %q: cookie %+v, want HttpOnly, SameSite=Lax, Secure only under TLS", proto, ck)
		}
		c.Cookie = ck.Value
	}

	write := func(h map[string]string) testserver.Reply {
		req, _ := http.NewRequest("POST", env.URL+"/api/v1/system/heartbeat", strings.NewReader(url.Values{"account_token": {c.Token}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		return c.Send(req)
	}
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Origin": "null"},
		{"Origin": strings.Replace(env.URL, "127.0.0.1", "localhost", 1)},
		{"Sec-Fetch-Site": "same-site"},
		{"Sec-Fetch-Site": "cross-site", "Origin": env.URL},
	} {
		wantCode(t, write(h), server.CodeCrossOrigin)
	}
	for _, h := range []map[string]string{
		nil,
		{"Origin": env.URL, "Sec-Fetch-Site": "same-origin"},
		{"Origin": "https://portal.example", "Sec-Fetch-Site": "cross-site"},
	} {
		testserver.MustOK(t, write(h))
	}
	// Reads and requests without the cookie are not checked.
	r := c.Do("GET", "/api/v1/vc/confs", url.Values{})
	testserver.MustOK(t, r)
	anon := env.Client(t)
	req, _ := http.NewRequest("POST", env.URL+"/api/v1/system/token", strings.NewReader("oauth_consumer_key=k&oauth_consumer_secret=s"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	wantCode(t, anon.Send(req), 10001)
}

// Issue 38 item 13: the join page had no frame-ancestors; any site could
// frame it. Now this origin and the allowed ones only.
func TestJoinPageFrameAncestors(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, AllowedOrigins: []string{"https://portal.example"}})
	resp, err := http.Get(env.URL + "/rtc/join/1110000")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("join page: HTTP %d", resp.StatusCode)
	}
	found := false
	for _, p := range resp.Header.Values("Content-Security-Policy") {
		found = found || p == "frame-ancestors 'self' https://portal.example"
	}
	if !found {
		t.Fatalf("join page policies %q, want frame-ancestors 'self' https://portal.example", resp.Header.Values("Content-Security-Policy"))
	}
}
