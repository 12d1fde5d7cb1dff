package metered_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/store/metered"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// scrape returns the lines of /metrics that start with prefix.
func scrape(t *testing.T, base, prefix string) []string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func has(lines []string, want string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, want) {
			return true
		}
	}
	return false
}

// A server over a measured store shows the store's latency by operation
// and its failures at /metrics; a lookup that finds nothing is no failure.
func TestStoreMetrics(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		m := metered.NewMetrics()
		st := metered.Wrap(db, m)
		now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		if err := auth.ImportLicense(ctx, st, "k", "s", now); err != nil {
			t.Fatal(err)
		}
		srv, err := server.New(server.Config{Store: st, SimulatedTerminals: true, Clock: clock.NewFake(now), Release: release.Latest, Auth: auth.DefaultConfig(),
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MC: mc.Config{FilesDir: t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		srv.Metrics().Registry().MustRegister(m.Collectors()...)
		hs := httptest.NewServer(srv)
		defer hs.Close()

		resp, err := http.PostForm(hs.URL+"/api/v1/system/token", url.Values{"oauth_consumer_key": {"k"}, "oauth_consumer_secret": {"s"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		resp, err = http.Get(hs.URL + "/api/v1/vc/confs?account_token=unknown") // TokenByHash: not found
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()

		lines := scrape(t, hs.URL, "confer_store_")
		for _, want := range []string{
			`confer_store_operation_duration_seconds_bucket{operation="LicenseByKey",le="`,
			`confer_store_operation_duration_seconds_count{operation="CreateToken"} 1`,
			`confer_store_operation_duration_seconds_count{operation="TokenByHash"} 1`,
		} {
			if !has(lines, want) {
				t.Errorf("no %s in\n%s", want, strings.Join(lines, "\n"))
			}
		}
		if has(lines, `confer_store_errors_total`) {
			t.Errorf("errors counted before any failure:\n%s", strings.Join(lines, "\n"))
		}

		// The database goes away: readiness fails and the failure counts.
		db.Close()
		resp, err = http.Get(hs.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("/readyz = %d without a database", resp.StatusCode)
		}
		lines = scrape(t, hs.URL, "confer_store_errors_total")
		if !has(lines, `confer_store_errors_total{operation="Ping"} 1`) {
			t.Errorf("Ping failure not counted:\n%s", strings.Join(lines, "\n"))
		}
	})
}

// Every method of sqlstore.DB is one of the measured store's, so that a
// server over it finds each optional interface the store offers (a method
// missing here would silently turn a feature off).
func TestWrapsEveryMethod(t *testing.T) {
	db := reflect.TypeOf(&sqlstore.DB{})
	wrapped := reflect.TypeOf(&metered.Store{})
	for i := 0; i < db.NumMethod(); i++ {
		name := db.Method(i).Name
		if _, ok := wrapped.MethodByName(name); !ok && !notStore[name] {
			t.Errorf("metered.Store lacks %s of sqlstore.DB: add it to metered.Full (and measure it in ops.go)", name)
		}
	}
}

// notStore are methods of sqlstore.DB that no server uses through the
// store: administration (conferd migrate) and the group commit's metrics,
// which conferd registers on the database itself (cmd/conferd/serve.go).
var notStore = map[string]bool{"CopyFrom": true, "Collectors": true}
