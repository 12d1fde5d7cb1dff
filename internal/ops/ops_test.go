package ops_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// syncBuffer is a log sink the server's handlers may write concurrently.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(s.b.Bytes()))
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start runs a server over a testserver store with a JSON logger into buf.
func start(t *testing.T) (*testserver.Env, *syncBuffer) {
	t.Helper()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	buf := &syncBuffer{}
	srv, err := server.New(server.Config{Store: env.Store, SimulatedTerminals: true, Clock: env.Clock, Release: release.Latest, Auth: auth.DefaultConfig(),
		Logger: slog.New(slog.NewJSONHandler(buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	e := *env
	e.URL, e.Srv = hs.URL, srv
	return &e, buf
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestHealthAndReady(t *testing.T) {
	env, _ := start(t)
	code, body := get(t, env.URL+"/healthz")
	if code != 200 || !strings.Contains(body, `"status":"ok"`) {
		t.Fatalf("/healthz = %d %s", code, body)
	}
	code, body = get(t, env.URL+"/readyz")
	var m map[string]any
	if code != 200 || json.Unmarshal([]byte(body), &m) != nil || m["status"] != "ready" || m["schema_version"].(float64) < 1 {
		t.Fatalf("/readyz = %d %s", code, body)
	}
	// A closed store is not ready.
	env.Store.Close()
	code, body = get(t, env.URL+"/readyz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, `"status":"unavailable"`) {
		t.Fatalf("/readyz on a closed store = %d %s", code, body)
	}
	// Alive still.
	if code, _ := get(t, env.URL+"/healthz"); code != 200 {
		t.Fatalf("/healthz on a closed store = %d", code)
	}
}

// Every API request logs one line with its id (also in X-Request-Id), the
// method, the catalogue endpoint, the user domain, the result code and the
// duration; no token, cookie, password or secret.
func TestRequestLog(t *testing.T) {
	env, buf := start(t)
	c := env.Client(t)
	testserver.MustOK(t, c.Login(testserver.AdminUser, testserver.AdminPassword))
	c.Do("POST", "/api/v1/system/token/"+c.Token+"/heartbeat", nil) // a token in the path
	r := c.Do("GET", "/api/v1/vc/confs", nil)
	testserver.MustOK(t, r)
	id := r.HTTP.Header.Get("X-Request-Id")
	if id == "" {
		t.Fatal("no X-Request-Id")
	}
	var line map[string]any
	for _, l := range buf.lines() {
		if l["request_id"] == id {
			line = l
		}
	}
	if line == nil {
		t.Fatalf("no log line with request_id %s in:\n%s", id, buf)
	}
	want := map[string]any{"msg": "request", "method": "GET", "endpoint": "vc.confs.list", "module": "vc", "code": float64(0)}
	if d, _ := line["domain"].(string); d == "" {
		t.Errorf("log line %v: no domain", line)
	}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log line %s = %v, want %v", k, line[k], v)
		}
	}
	if _, ok := line["duration"]; !ok {
		t.Errorf("log line has no duration: %v", line)
	}
	// A failure logs its error_code.
	bad := env.Client(t).Do("GET", "/api/v1/vc/confs", nil)
	for _, l := range buf.lines() {
		if l["request_id"] == bad.HTTP.Header.Get("X-Request-Id") && l["code"] != float64(bad.Code()) {
			t.Errorf("failed request logged code %v, reply %d", l["code"], bad.Code())
		}
	}
	// A caller's own request id is kept.
	req, _ := http.NewRequest("GET", env.URL+"/api/v1/vc/confs?account_token="+c.Token, nil)
	req.Header.Set("X-Request-Id", "lb-1234")
	if got := c.Send(req).HTTP.Header.Get("X-Request-Id"); got != "lb-1234" {
		t.Errorf("X-Request-Id = %q, want the caller's", got)
	}
	logs := buf.String()
	for _, secret := range []string{c.Token, c.Cookie, testserver.AdminPassword, testserver.LicenseSecret, "account_token"} {
		if secret != "" && strings.Contains(logs, secret) {
			t.Errorf("log contains a secret %q:\n%s", secret, logs)
		}
	}
}

func TestMetrics(t *testing.T) {
	env, _ := start(t)
	c := env.Client(t)
	testserver.MustOK(t, c.Login(testserver.AdminUser, testserver.AdminPassword))
	// An IP terminal answers after 2 seconds; the E.164 number is offline
	// in the directory (an unknown one answers).
	if err := env.Store.PutDirectoryEntry(t.Context(), store.DirectoryEntry{Account: "5551009", E164: "5551009", MtType: 1, Behaviour: "offline"}); err != nil {
		t.Fatal(err)
	}
	members := []any{
		map[string]any{"name": "ip", "account": "10.0.1.1", "account_type": 7, "bitrate": 1024, "protocol": 0},
		map[string]any{"name": "off", "account": "5551009", "account_type": 5, "bitrate": 1024, "protocol": 0},
	}
	testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": "metrics",
		"call_mode": 2, "call_times": 1, "invite_members": members})))
	env.Advance(t, 3*time.Second)
	c.Do("GET", "/api/v1/mc/confs/nosuch", nil)
	code, body := get(t, env.URL+"/metrics")
	if code != 200 {
		t.Fatalf("/metrics = %d", code)
	}
	for _, want := range []string{
		`confer_http_requests_total{code="0",endpoint="system.login",module="system"} 1`,
		`confer_http_requests_total{code="0",endpoint="mc.confs.create",module="mc"} 1`,
		`confer_http_request_duration_seconds_bucket{endpoint="system.login",module="system",le="+Inf"} 1`,
		`confer_http_request_duration_seconds_count{endpoint="mc.confs.create",module="mc"} 1`,
		"confer_conferences_running 1",
		"confer_terminals_online 1\n",
		"confer_push_clients 0",
		"confer_calls_attempted_total ",
		"confer_calls_failed_total ",
		"go_goroutines ",
		"process_start_time_seconds ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	value := func(name string) float64 {
		for _, l := range strings.Split(body, "\n") {
			if v, ok := strings.CutPrefix(l, name+" "); ok {
				f, _ := strconv.ParseFloat(v, 64)
				return f
			}
		}
		t.Fatalf("no %s", name)
		return 0
	}
	// The server's own engine counts (not every server of the process).
	if got := value("confer_calls_attempted_total"); got != 2 {
		t.Errorf("confer_calls_attempted_total = %v, want 2", got)
	}
	if got := value("confer_calls_failed_total"); got != 1 {
		t.Errorf("confer_calls_failed_total = %v, want 1", got)
	}
	if strings.Contains(body, c.Token) || strings.Contains(body, "admin") {
		t.Errorf("/metrics holds user data")
	}
}
