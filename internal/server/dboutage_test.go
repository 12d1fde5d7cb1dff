package server_test

import (
	"context"
	"database/sql"
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
	dsn := testdb.Postgres(t)
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
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`).Scan(&n); err != nil {
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
