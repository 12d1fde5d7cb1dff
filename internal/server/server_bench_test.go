package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Benchmarks of whole requests through the in-process server on SQLite
// (docs/benchmarks.md). Run with
//
//	go test ./internal/server -run '^$' -bench . -benchtime 2s
//
// Set CONFER_BENCH_POSTGRES=1 with CONFER_TEST_POSTGRES to run them on
// PostgreSQL instead.

func benchEnv(b *testing.B) (*testserver.Env, *testserver.Client) {
	dsn := testdb.SQLite(b)
	if testPostgres() {
		dsn = testdb.Postgres(b)
	}
	// Enough terminal ports for 100 conferences of 192 terminals.
	env := testserver.Start(b, dsn, testserver.Options{Conference: engine.Config{MaxPorts: 20000}})
	c := env.LoggedIn(b)
	c.Level = "3"
	return env, c
}

// benchConfs creates n running conferences of m IP terminals each (all
// answered) and returns their conf_ids.
func benchConfs(b testing.TB, env *testserver.Env, c *testserver.Client, n, m, maxJoin int) []string {
	var ids []string
	for i := 0; i < n; i++ {
		var members []any
		for j := 0; j < m; j++ {
			members = append(members, map[string]any{"name": fmt.Sprint("mt", j), "account": fmt.Sprintf("10.9.%d.%d", i, j+1),
				"account_type": 7, "bitrate": 1024, "protocol": 0})
		}
		p := map[string]any{"create_type": 1, "name": fmt.Sprint("bench ", i), "bitrate": 1024, "max_join_mt": maxJoin, "duration": 0,
			"call_mode": 2, "invite_members": members}
		ids = append(ids, testserver.MustOK(b, c.Do("POST", "/api/v1/mc/confs", testserver.Params(b, p)))["conf_id"].(string))
	}
	env.Advance(b, 3*time.Second) // IP terminals answer after 2 s
	return ids
}

// raw sends one prepared request and fails unless it succeeded.
func raw(b *testing.B, c *testserver.Client, method, target, body string) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, target, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.Cookie})
	req.Header.Set("API-Level", "3")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(out), `"success":1`) {
		b.Fatalf("%s %s: %s", method, target, out)
	}
}

func BenchmarkSpeakerChange(b *testing.B) {
	env, c := benchEnv(b)
	ids := benchConfs(b, env, c, 1, 4, 8)
	target := env.URL + "/api/v1/vc/confs/" + ids[0] + "/speaker"
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := url.Values{"account_token": {c.Token}, "params": {fmt.Sprintf(`{"mt_id":"%d"}`, 1+i%4)}}.Encode()
		raw(b, c, "PUT", target, body)
	}
}

func BenchmarkListConfs(b *testing.B) {
	env, c := benchEnv(b)
	benchConfs(b, env, c, 100, 0, 8)
	target := env.URL + "/api/v1/vc/confs?count=20&account_token=" + url.QueryEscape(c.Token)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		raw(b, c, "GET", target, "")
	}
}

func BenchmarkMtsAddBatch10(b *testing.B) {
	env, c := benchEnv(b)
	// 192 terminals per conference: 19 batches of 10 fit in each.
	n := b.N/19 + 1
	if n > 100 {
		b.Skip("more batches than 100 conferences hold")
	}
	ids := benchConfs(b, env, c, n, 0, 192)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var mts []string
		for j := 0; j < 10; j++ {
			mts = append(mts, fmt.Sprintf(`{"account":"10.8.%d.%d","account_type":7,"bitrate":1024,"protocol":0}`, i/25, (i%25)*10+j+1))
		}
		body := url.Values{"account_token": {c.Token}, "params": {`{"mts":[` + strings.Join(mts, ",") + `]}`}}.Encode()
		raw(b, c, "POST", env.URL+"/api/v1/vc/confs/"+ids[i%len(ids)]+"/mts", body)
	}
}

func testPostgres() bool { return os.Getenv("CONFER_BENCH_POSTGRES") == "1" }

// BenchmarkSpeakerChangeParallel: speaker changes from 16 goroutines over
// 16 conferences of 4 terminals, as confer-load --mix speaker=1 -c 16
// drives them (concurrent writers share SQLite's group commit).
func BenchmarkSpeakerChangeParallel(b *testing.B) {
	env, c := benchEnv(b)
	ids := benchConfs(b, env, c, 16, 4, 8)
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = 32 // keep the 16 connections open
	var next atomic.Int64
	b.SetParallelism(8)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			target := env.URL + "/api/v1/vc/confs/" + ids[i%int64(len(ids))] + "/speaker"
			body := url.Values{"account_token": {c.Token}, "params": {fmt.Sprintf(`{"mt_id":"%d"}`, 1+(i/16)%4)}}.Encode()
			raw(b, c, "PUT", target, body)
		}
	})
}

// BenchmarkLoginFirstCall makes new sessions from 16 goroutines: a token
// from the license (key and secret), a login with the password, then the
// first authenticated call (GET /api/v1/vc/confs). Two bcrypt comparisons
// per session bound it (docs/benchmarks.md "Login").
func BenchmarkLoginFirstCall(b *testing.B) {
	env, _ := benchEnv(b)
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = 32
	b.SetParallelism(8)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c := env.Client(b)
			if r := c.Login(testserver.AdminUser, testserver.AdminPassword); !r.OK() {
				b.Errorf("login: %s", r.Raw)
				return
			}
			raw(b, c, "GET", env.URL+"/api/v1/vc/confs?count=20&account_token="+url.QueryEscape(c.Token), "")
		}
	})
}

// BenchmarkSpeakerChangeOneConf: speaker changes from 16 goroutines on one
// conference, whose read-modify-writes contend for its record.
func BenchmarkSpeakerChangeOneConf(b *testing.B) {
	env, c := benchEnv(b)
	id := benchConfs(b, env, c, 1, 4, 8)[0]
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = 32
	target := env.URL + "/api/v1/vc/confs/" + id + "/speaker"
	var next atomic.Int64
	b.SetParallelism(8)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			body := url.Values{"account_token": {c.Token}, "params": {fmt.Sprintf(`{"mt_id":"%d"}`, 1+i%4)}}.Encode()
			raw(b, c, "PUT", target, body)
		}
	})
}
