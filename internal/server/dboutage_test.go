package server_test

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"testing"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 13: during a PostgreSQL restart 302 requests answered
// 99999. Every connection of the server to its database is terminated
// (as a restart does: SQLSTATE 57P01, then closed sockets) again and
// again between requests: a request answers success or the retryable
// 90503, never 99999, and the server serves again afterwards.
func TestDatabaseOutageIsRetryable(t *testing.T) {
	// The server's connections carry an application name of their own, and
	// only they are terminated: other packages' tests use other schemas of
	// the same database at the same time (go test runs packages in
	// parallel), and terminating every client of the database failed them
	// with 57P01 at random.
	dsn, app := named(t, testdb.Postgres(t))
	env := testserver.Start(t, dsn, testserver.Options{})
	c := env.LoggedIn(t)
	admin, err := sql.Open("pgx", os.Getenv(testdb.EnvPostgres))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	kill := func() int {
		var n int
		if err := admin.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
			AND application_name = $1`, app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	params := testserver.Params(t, map[string]any{"create_type": 1, "name": "during the outage", "max_join_mt": 8, "duration": 0})
	codes := map[int]int{}
	killed := 0
	for range 20 {
		killed += kill()
		for _, r := range []testserver.Reply{
			c.Do("GET", "/api/v1/vc/confs", nil),
			c.Do("POST", "/api/v1/mc/confs", params),
			c.Do("POST", "/api/v1/system/token/"+c.Token+"/heartbeat", nil),
		} {
			if r.OK() {
				codes[0]++
				continue
			}
			codes[r.Code()]++
			if r.Code() != 90503 && r.Code() != 20164 { // 20164: the domain's quota of conferences
				t.Errorf("during the outage: %s, want success or 90503", r.Raw)
			}
		}
	}
	if killed == 0 {
		t.Fatalf("no connection of the server (application_name %q) was terminated", app)
	}
	t.Logf("%d connections terminated; answers by code: %v", killed, codes)
	for range 100 { // served again once the pool has reconnected
		if r := c.Do("GET", "/api/v1/vc/confs", nil); r.OK() {
			return
		} else if r.Code() != server.CodeBusy {
			t.Fatalf("after the outage: %s", r.Raw)
		}
	}
	t.Fatal("not served again after the outage")
}

// named gives the server's connections an application name unique to the
// test (its schema's), so that the test can tell them from every other.
func named(t *testing.T, dsn string) (string, string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	app := "confer_" + q.Get("search_path")
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	return u.String(), app
}
