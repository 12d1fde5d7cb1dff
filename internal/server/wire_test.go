package server_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

func TestUnknownPathAndMethod(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.Client(t)
	wantCode(t, c.Do("GET", "/api/v1/nothing/here", nil), wire.CodeNoSuchEndpoint)
	wantCode(t, c.Do("POST", "/", nil), wire.CodeNoSuchEndpoint)
	r := c.Do("GET", "/api/v1/system/login", nil)
	wantCode(t, r, wire.CodeMethodNotAllow)
	if !strings.Contains(r.Body["description"].(string), "POST") {
		t.Fatalf("405 description does not list the allowed method: %s", r.Raw)
	}
	// _method overrides: a POST asking for DELETE or PUT is routed as one.
	for _, m := range []string{"DELETE", "PUT"} {
		r = c.Do("POST", "/api/v1/system/login?_method="+m, nil)
		wantCode(t, r, wire.CodeMethodNotAllow)
		if !strings.Contains(r.Body["description"].(string), "method "+m) {
			t.Fatalf("_method=%s not applied: %s", m, r.Raw)
		}
		r = c.Do("POST", "/api/v1/system/login", url.Values{"_method": {m}})
		if !strings.Contains(r.Body["description"].(string), "method "+m) {
			t.Fatalf("form _method=%s not applied: %s", m, r.Raw)
		}
	}
	wantCode(t, c.Do("POST", "/api/v1/system/login?_method=PATCH", nil), wire.CodeInvalidParam)
}

func TestVersionEndpoints(t *testing.T) {
	for _, tc := range []struct {
		release, version string
		level            int
	}{
		{"", "6.1.0.4.0.20210115", 3},
		{"6.1.0.2.0", "6.1.0.2.0.20200630", 2},
		{"6.0.0.3.0", "6.0.0.3.0.20190826", 1},
	} {
		env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: tc.release})
		c := env.Client(t)
		c.Level = strconv.Itoa(tc.level)
		for _, m := range catalog.Modules {
			if m == catalog.UPU && tc.level < 3 {
				continue // seed 001: the presence version exists from 6.1.0.4.0
			}
			for _, p := range []string{"/api/" + string(m) + "/version", "/api/v1/" + string(m) + "/version"} {
				r := c.Do("GET", p, nil)
				if !r.OK() || r.Body["version"] != tc.version || r.Body["api_level"] != float64(tc.level) {
					t.Fatalf("release %q: GET %s = %s", tc.release, p, r.Raw)
				}
			}
		}
	}
	// Releases before 6.0.0.3.0 have no version endpoints.
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.2.0.4.0"})
	wantCode(t, env.Client(t).Do("GET", "/api/vc/version", nil), wire.CodeNotSupported)
}

func TestAPILevelHeader(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	login := func(header, value string) testserver.Reply {
		c := env.Client(t)
		c.GetToken()
		req, _ := http.NewRequest("POST", env.URL+"/api/v1/system/login", strings.NewReader(url.Values{
			"account_token": {c.Token}, "username": {testserver.AdminUser}, "password": {testserver.AdminPassword}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if header != "" {
			req.Header[header] = []string{value}
		}
		return c.Send(req)
	}
	for _, tc := range []struct {
		header, value string
		fields        bool
	}{
		{"", "", false},
		{"Api-Level", "1", false},
		{"Api-Level", "2", false},
		{"Api-Level", "3", true},
		{"Api-Level", "99", true}, // capped at the platform's level
		{"Api_level", "3", true},  // the spelling some clients send
	} {
		r := login(tc.header, tc.value)
		if _, has := r.Body["usermoid"]; !r.OK() || has != tc.fields {
			t.Fatalf("%s: %s: login = %s, want user fields %v", tc.header, tc.value, r.Raw, tc.fields)
		}
	}
	wantCode(t, login("Api-Level", "three"), wire.CodeInvalidParam)

	// Before 6.0.0.3.0 the header does not exist and is ignored.
	old := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.2.0.4.0"})
	c := old.Client(t)
	c.Level = "three"
	if r := c.Login(testserver.AdminUser, testserver.AdminPassword); !r.OK() || r.Body["usermoid"] != nil || sessionCookie(t, r).Expires.IsZero() {
		t.Fatalf("5.2.0.4.0 login = %s", r.Raw)
	}
}

func TestBadInput(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{MaxBody: 4096})
		c := env.LoggedIn(t)
		post := func(ct, body string) testserver.Reply {
			req, _ := http.NewRequest("POST", env.URL+"/api/v1/system/heartbeat?account_token="+c.Token, strings.NewReader(body))
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			return c.Send(req)
		}
		form := "application/x-www-form-urlencoded"
		for _, tc := range []struct {
			name, ct, body string
			code           int
		}{
			{"params not JSON", form, "params=%7Bnot+json", wire.CodeIllegalBody},
			{"params an array", form, "params=%5B1%2C2%5D", wire.CodeIllegalBody},
			{"params with trailing data", form, "params=%7B%7D%7B%7D", wire.CodeIllegalBody},
			{"malformed form", form, "a=%zz", wire.CodeIllegalBody},
			{"JSON body not an object", "application/json", "[1]", wire.CodeIllegalBody},
			{"JSON body broken", "application/json", `{"a":`, wire.CodeIllegalBody},
			{"oversized body", form, "x=" + strings.Repeat("a", 5000), wire.CodeBodyTooLarge},
		} {
			r := post(tc.ct, tc.body)
			if r.Code() != tc.code {
				t.Errorf("%s: reply %s, want %d", tc.name, r.Raw, tc.code)
			}
		}
		// A rejected login changes nothing: no failure is counted.
		r := c.Do("POST", "/api/v1/system/login", url.Values{"username": {testserver.AdminUser}, "params": {"{"}})
		wantCode(t, r, wire.CodeIllegalBody)
		r = c.Do("POST", "/api/v1/system/login", url.Values{"username": {testserver.AdminUser}})
		wantCode(t, r, wire.CodeInvalidParam)
		a, err := env.Store.AccountByUsername(t.Context(), testserver.AdminUser)
		if err != nil || a.FailedLogins != 0 {
			t.Fatalf("bad input counted as a failed login: %+v, %v", a, err)
		}
	})
}

func TestOpenAPIServedWithoutLogin(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	r := env.Client(t).Do("GET", "/api/openapi.json", nil)
	if r.Body["openapi"] != "3.1.0" || r.Body["success"] != nil {
		t.Fatalf("openapi.json: %.200s", r.Raw)
	}
	if _, ok := r.Body["paths"].(map[string]any)["/api/v1/vc/confs/{conf_id}/mts"]; !ok {
		t.Fatal("openapi.json lacks the vc terminals path")
	}
}
