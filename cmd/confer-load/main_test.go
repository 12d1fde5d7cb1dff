package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestMain serves as the bare handler's process of --bare-process when
// run() starts this binary as one.
func TestMain(m *testing.M) {
	if f := os.Getenv(bareEnv); f != "" {
		if err := serveBare(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// The load generator against an in-process server: it prepares the
// scenario (the fake clock is moved so that the terminals answer), runs a
// mix of every operation for a count, and the bare comparison; no errors.
// Only counts and the report's shape are checked, never timings.
func TestLoadAgainstTestServer(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	ctx, stop := context.WithCancel(context.Background())
	ticked := make(chan struct{})
	go func() { // the terminals answer after 2 s of the fake clock
		defer close(ticked)
		for ctx.Err() == nil {
			env.Clock.Advance(time.Second)
			_ = env.Srv.Tick(ctx)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	defer func() { stop(); <-ticked }()

	defer func() { out = os.Stdout }()
	// Both clients: net/http's and --raw's (raw.go), the second run on
	// the scenario the first prepared.
	for _, raw := range []bool{false, true} {
		var buf bytes.Buffer
		out = &buf
		// The raw run's bare handler runs in a process of its own
		// (this test binary again: TestMain), and it prints the session.
		err := run(options{url: env.URL, key: testserver.LicenseKey, secret: testserver.LicenseSecret,
			user: testserver.AdminUser, password: testserver.AdminPassword,
			confs: 3, mts: 2, maxJoin: 32, reuse: true, mix: "list=1,speaker=1,add=1,login=1", conc: 4,
			duration: time.Minute, capped: true, count: 40, listCount: 20, addBatch: 2, bare: true, raw: raw,
			bareProcess: raw, printSession: raw, waitOnline: 30 * time.Second, ipPrefix: "10.77"})
		if err != nil {
			t.Fatalf("run (raw %v): %v\n%s", raw, err, buf.String())
		}
		rep := buf.String()
		for _, want := range []string{"scenario: 3 conferences x 2 terminals", "confer: 40 requests", ", 0 errors",
			"list     n=10", "speaker  n=10", "add      n=10", "login    n=10", "bare: 40 requests", "ratio confer/bare:", "client cpu:"} {
			if !strings.Contains(rep, want) {
				t.Errorf("report (raw %v) lacks %q:\n%s", raw, want, rep)
			}
		}
		if raw {
			for _, want := range []string{"bare handler (a process of its own) cpu:", "account_token: ", "SSO_COOKIE_KEY: "} {
				if !strings.Contains(rep, want) {
					t.Errorf("report (raw) lacks %q:\n%s", want, rep)
				}
			}
			if n := strings.Count(rep, "\nconf: "); n != 3 {
				t.Errorf("report (raw) names %d conferences, not 3:\n%s", n, rep)
			}
		}
		if strings.Contains(rep, "first error") {
			t.Errorf("errors in the report (raw %v):\n%s", raw, rep)
		}
	}
}

// The raw client reads replies of a length, chunked (with an extension
// and a trailer) and to the connection's end, and refuses a malformed
// one.
func TestRawReplies(t *testing.T) {
	for _, c := range []struct {
		in, body string
		status   int
		keep     bool
	}{
		{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "hello", 200, true},
		{"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;x=1\r\nabc\r\nA\r\n0123456789\r\n0\r\nT: v\r\n\r\n", "abc0123456789", 200, true},
		{"HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 2\r\n\r\nno", "no", 404, false},
		{"HTTP/1.1 200 OK\r\n\r\nto the end", "to the end", 200, false},
	} {
		rc := &rawConn{br: bufio.NewReader(strings.NewReader(c.in))}
		status, body, keep, err := rc.readReply()
		if err != nil || status != c.status || string(body) != c.body || keep != c.keep {
			t.Errorf("%q: %d %q keep %v %v", c.in, status, body, keep, err)
		}
	}
	for _, bad := range []string{"HTTP/1.0 200 OK\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"} {
		rc := &rawConn{br: bufio.NewReader(strings.NewReader(bad))}
		if _, _, _, err := rc.readReply(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseMix(t *testing.T) {
	m, err := parseMix("list=8, speaker=2,add,login=3")
	if err != nil || m["list"] != 8 || m["speaker"] != 2 || m["add"] != 1 || m["login"] != 3 {
		t.Fatalf("parseMix = %v, %v", m, err)
	}
	for _, bad := range []string{"list=x", "frob=1", "list=-1"} {
		if _, err := parseMix(bad); err == nil {
			t.Errorf("parseMix(%q) accepted", bad)
		}
	}
}
