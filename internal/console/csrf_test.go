package console_test

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 1: a page of another origin posted a form with the
// console's account_token and params to /api/v1/amc/accounts while the
// administrator was logged in to the console, and the account was
// created: from a page of another site within two minutes of the login
// (Chromium's "Lax+POST" for cookies without SameSite), from another port
// of the same host at any time. The page here even knows the console
// login's token (as if it had leaked); nothing is created, because the
// cookie is SameSite=Lax and a cookie-carrying write must come from this
// origin.
func TestCrossOriginFormCreatesNothing(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	ctx := browser(t)
	login(t, ctx, env)
	token := value(t, ctx, "the console's token", chromedp.Evaluate[string](`sessionStorage.getItem('confer.token') || ''`))
	if token == "" {
		t.Fatal("the console keeps no token")
	}

	// The attacker's page: a form that posts itself to the API on load.
	evil := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		account := r.URL.Query().Get("account")
		params := fmt.Sprintf(`{"account":%q,"password":"Csrf.pw1","name":%q}`, account, account)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><form id="f" method="POST" action="%s/api/v1/amc/accounts">
<input type="hidden" name="account_token" value="%s"><input type="hidden" name="params" value="%s"></form>
<script>document.getElementById('f').submit()</script>`, env.URL, html.EscapeString(token), html.EscapeString(params))
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	evil.Listener = ln
	evil.Start()
	t.Cleanup(evil.Close)
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	admin := env.LoggedIn(t)
	for _, c := range []struct{ name, origin string }{
		{"another port of the same host", "http://127.0.0.1:" + port},
		{"another site", "http://localhost:" + port},
	} {
		account := "csrf" + strings.ReplaceAll(strings.ReplaceAll(c.name, " ", ""), "-", "")[:10]
		run(t, ctx, "the attacker's page from "+c.name,
			chromedp.Navigate(c.origin+"/?account="+account),
			until(fmt.Sprintf(`location.href.startsWith(%q) && document.body && document.body.innerText.includes('"success"')`, env.URL)),
		)
		reply := value(t, ctx, "the reply", chromedp.Evaluate[string](`document.body.innerText`))
		if strings.Contains(reply, `"success":1`) {
			t.Errorf("%s: the form was served: %s", c.name, reply)
		}
		r := admin.Do("GET", "/api/v1/amc/accounts", nil)
		testserver.MustOK(t, r)
		if strings.Contains(r.Raw, account) {
			t.Errorf("%s: account %s was created (reply to the form: %s)", c.name, account, reply)
		}
		t.Logf("%s: %s", c.name, reply)
	}
}
