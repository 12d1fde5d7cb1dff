package server_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A version query answers whatever API-Level the request states, none
// included: it is how a client discovers the level (seed 000 "Versioning"
// 6; issue 22 item 7). upu's other endpoints need level 3.
func TestVersionAnswersEveryLevel(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	for _, level := range []string{"", "1", "2", "3", "9"} {
		c := env.Client(t)
		c.Level = level
		for _, m := range catalog.Modules {
			r := c.Do("GET", "/api/"+string(m)+"/version", nil)
			if !r.OK() || r.Body["api_level"] != float64(3) {
				t.Errorf("API-Level %q: GET /api/%s/version = %s", level, m, r.Raw)
			}
		}
	}
}
