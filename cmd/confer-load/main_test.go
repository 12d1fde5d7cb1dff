package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

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

	var buf bytes.Buffer
	out = &buf
	defer func() { out = os.Stdout }()
	err := run(options{url: env.URL, key: testserver.LicenseKey, secret: testserver.LicenseSecret,
		user: testserver.AdminUser, password: testserver.AdminPassword,
		confs: 3, mts: 2, maxJoin: 32, reuse: true, mix: "list=1,speaker=1,add=1,login=1", conc: 4,
		duration: time.Minute, capped: true, count: 40, listCount: 20, addBatch: 2, bare: true,
		waitOnline: 30 * time.Second, ipPrefix: "10.77"})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, buf.String())
	}
	rep := buf.String()
	for _, want := range []string{"scenario: 3 conferences x 2 terminals", "confer: 40 requests", ", 0 errors",
		"list     n=10", "speaker  n=10", "add      n=10", "login    n=10", "bare: 40 requests", "ratio confer/bare:"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	if strings.Contains(rep, "first error") {
		t.Errorf("errors in the report:\n%s", rep)
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
