package amc_test

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

const (
	depPath   = "/api/v1/amc/departments"
	acctPath  = "/api/v1/amc/accounts"
	apprPath  = "/api/v1/amc/approval_infos"
	pendPath  = "/api/v1/amc/pending_confs"
	groupPath = "/api/v1/amc/public_groups"
	confPath  = "/api/v1/mc/confs"
)

// start runs a server on SQLite and returns it with a client logged in as
// the fixture administrator of the domain "default".
func start(t *testing.T, opt testserver.Options) (*testserver.Env, *testserver.Client) {
	t.Helper()
	env := testserver.Start(t, testdb.SQLite(t), opt)
	return env, env.LoggedIn(t)
}

// send is a request with params (form style) for POST and PUT, or flat
// query parameters for GET and DELETE.
func send(t testing.TB, c *testserver.Client, method, path string, body map[string]any) testserver.Reply {
	t.Helper()
	if method == "GET" || method == "DELETE" {
		q := url.Values{}
		for k, v := range body {
			q.Set(k, toString(v))
		}
		return c.Do(method, path, q)
	}
	if body == nil {
		return c.Do(method, path, nil)
	}
	return c.Do(method, path, testserver.Params(t, body))
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return ""
}

// ok sends and requires success.
func ok(t testing.TB, c *testserver.Client, method, path string, body map[string]any) map[string]any {
	t.Helper()
	return testserver.MustOK(t, send(t, c, method, path, body))
}

// fail sends and requires the error code.
func fail(t testing.TB, c *testserver.Client, code int, method, path string, body map[string]any) string {
	t.Helper()
	return testserver.MustFail(t, send(t, c, method, path, body), code)
}

// acct is an account creation body with extra fields merged.
func acct(user string, extra map[string]any) map[string]any {
	b := map[string]any{"account": user, "name": "Real " + user, "password": "pw_" + user, "enable": 1}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// createAcct creates an account through amc and returns its moid.
func createAcct(t testing.TB, c *testserver.Client, user string, extra map[string]any) string {
	t.Helper()
	return ok(t, c, "POST", acctPath, acct(user, extra))["account_moid"].(string)
}

// loginAs returns a client logged in with a user name and password.
func loginAs(t testing.TB, env *testserver.Env, user, pw string) *testserver.Client {
	t.Helper()
	c := env.Client(t)
	testserver.MustOK(t, c.Login(user, pw))
	return c
}

// list returns the named list of a reply.
func list(body map[string]any, name string) []map[string]any {
	var out []map[string]any
	for _, x := range body[name].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}
