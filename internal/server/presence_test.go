package server_test

import (
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// Every endpoint, at every emulated release, is served or answered "not
// supported" exactly as the catalogue says; so is an endpoint whose minimum
// API-Level is above the caller's.
func TestPresenceAtEveryRelease(t *testing.T) {
	for r := release.Baseline; r <= release.Latest; r++ {
		t.Run(r.String(), func(t *testing.T) {
			env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: r.String()})
			for _, level := range []int{r.Level(), 1} {
				if level == 1 && !r.HasLevels() {
					continue
				}
				c := env.LoggedIn(t)
				if r.HasLevels() {
					c.Level = strconv.Itoa(level)
				}
				for _, e := range catalog.All() {
					if e.Name == "system.login" || e.Name == "system.token" {
						continue // covered by the login tests; they would replace the session
					}
					want := e.ExistsAt(r) && (!r.HasLevels() || e.MinLevel <= level)
					for _, p := range e.Paths() {
						req, _ := http.NewRequest(e.Method, env.URL+pathParam.ReplaceAllString(p, "1")+"?account_token="+c.Token, nil)
						got := c.Send(req)
						code := got.Code()
						switch {
						case want && (code == wire.CodeNotSupported || code == wire.CodeNoSuchEndpoint || code == wire.CodeMethodNotAllow):
							t.Errorf("level %d: %s %s (%s) = %s, want it served", level, e.Method, p, e.Name, got.Raw)
						case !want && code != wire.CodeNotSupported:
							t.Errorf("level %d: %s %s (%s) = %s, want 90505", level, e.Method, p, e.Name, got.Raw)
						}
					}
				}
			}
		})
	}
}
