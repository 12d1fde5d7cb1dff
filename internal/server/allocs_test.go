package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/racetest"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// allocBudget is the recorded number of allocations of one request through
// the server's handler (no connection: an httptest recorder), on SQLite,
// with some room for the background work that runs meanwhile. A change
// that exceeds it either has a reason, written in docs/benchmarks.md
// ("Allocation budgets") with the new budget, or is a regression.
// Allocations, not times: they do not depend on the machine's load.
var allocBudget = map[string]float64{
	"list":    75,  // GET /api/v1/vc/confs?count=20 over 25 running conferences (recorded 2026-11-26, fifth pass: 58, 63 under -race)
	"speaker": 500, // PUT /api/v1/vc/confs/{id}/speaker, and push's tailer reading the change (recorded 2026-11-26, fifth pass: 371, 414 under -race)
}

// TestAllocsPerRequest guards the allocations per request of the list and
// the speaker change against allocBudget.
func TestAllocsPerRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 25 conferences")
	}
	racetest.Skip(t, "the budgets are the plain build's figures; AllocsPerRun counts the whole process, and under -race a request takes several times longer, so the push tailer's background allocations swell the count (speaker 575 against the budget of 500 on a loaded machine) and the guard would fail on load, not on a regression")
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	c.Level = "3"
	benchConfs(t, env, c, 25, 0, 8)
	speakerConf := benchConfs(t, env, c, 1, 4, 8)[0]
	send := func(method, target, body string) {
		var req *http.Request
		if body != "" {
			req = httptest.NewRequest(method, target, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		} else {
			req = httptest.NewRequest(method, target, nil)
		}
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.Cookie})
		req.Header.Set("API-Level", "3")
		w := httptest.NewRecorder()
		env.Srv.ServeHTTP(w, req)
		if !strings.Contains(w.Body.String(), `"success":1`) {
			t.Fatalf("%s %s: %s", method, target, w.Body)
		}
	}
	list := "/api/v1/vc/confs?count=20&account_token=" + url.QueryEscape(c.Token)
	i := 0
	speaker := func() {
		i++
		body := url.Values{"account_token": {c.Token}, "params": {fmt.Sprintf(`{"mt_id":"%d"}`, 1+i%4)}}.Encode()
		send("PUT", "/api/v1/vc/confs/"+speakerConf+"/speaker", body)
	}
	for name, f := range map[string]func(){"list": func() { send("GET", list, "") }, "speaker": speaker} {
		f() // warm: kept pages, items, sessions
		n := testing.AllocsPerRun(200, f)
		t.Logf("%s: %.0f allocations per request (budget %.0f)", name, n, allocBudget[name])
		if n > allocBudget[name] {
			t.Errorf("%s: %.0f allocations per request, over the budget of %.0f (docs/benchmarks.md)", name, n, allocBudget[name])
		}
	}
}
