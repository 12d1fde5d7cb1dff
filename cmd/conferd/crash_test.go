package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	_ "modernc.org/sqlite"
)

// Crash consistency (issue 11): conferd runs as a child process; 100
// writers of the platform's main write kinds (personal template creations,
// renames and deletions; speaker changes, conference creations through mc
// and batch terminal additions on running conferences) are cut by SIGKILL
// at a random moment, 10 times. After every restart each acknowledged
// write is there: a template with its last acknowledged name, a deleted
// template gone, a created conference running, a conference's last
// acknowledged speaker (for a rename or speaker change, the value in flight
// at the kill may have committed unacknowledged), every added terminal
// listed. At the end SQLite's integrity check passes. Bounded to about
// 90 s per engine; on PostgreSQL too when CONFER_TEST_POSTGRES is set.
func TestCrashConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped in -short mode")
	}
	testdb.Engines(t, func(t *testing.T, dsn string) { crashRun(t, dsn) })
}

// crashKinds are the writers' kinds and how many of each are in flight.
var crashKinds = []struct {
	kind    string
	workers int
}{
	{"template", 5}, {"rename", 5}, {"delete", 5}, {"speaker", 10},
	{"conf", 40}, {"add", 35}, // serialised on a node: most wait their turn
}

func crashRun(t *testing.T, db string) {
	const cycles = 10
	began := time.Now()
	budget := began.Add(90 * time.Second)
	if code, _, errs := runCmd(t, "license", "import", "--db", db, "--create", "--key", "crash-key", "--secret", "crash-secret"); code != 0 {
		t.Fatalf("license import: %s", errs)
	}
	if code, _, errs := runCmd(t, "account", "create", "--db", db, "--username", "crash", "--password", "crash-pw", "--admin"); code != 0 {
		t.Fatalf("account create: %s", errs)
	}
	p := newCrashProc(t, db)
	defer p.tr.CloseIdleConnections()
	lg := newCrashLog(t)

	c := p.start()
	lg.prepare(c)
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	kills := 0
	for cycle := 0; cycle < cycles; cycle++ {
		if cycle > 0 {
			c = p.start()
			lg.check(c) // everything acknowledged before every kill so far
		}
		if time.Now().After(budget) { // a slow machine: fewer kills, still bounded
			t.Logf("time budget spent: stopping after %d kills", kills)
			p.kill()
			break
		}
		var wg sync.WaitGroup
		for _, k := range crashKinds {
			for n := 0; n < k.workers; n++ {
				wg.Add(1)
				go func(kind string, n int) {
					defer wg.Done()
					lg.loop(c, &crashWorker{kind: kind, n: n, cycle: cycle})
				}(k.kind, n)
			}
		}
		time.Sleep(time.Duration(500+rng.Intn(1500)) * time.Millisecond)
		p.kill() // in the middle of writes: the workers' requests fail
		kills++
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
	}
	if lg.total() < kills {
		t.Fatalf("only %d writes acknowledged over %d kills; first refusal: %s", lg.total(), kills, lg.firstRefusal)
	}

	// The store after the last kill: SQLite's integrity check, then a
	// restart that still holds every acknowledged write.
	if !strings.HasPrefix(db, "postgres") {
		sdb, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		var res string
		if err := sdb.QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
			t.Fatalf("integrity_check = %q, %v", res, err)
		}
		sdb.Close()
	}
	c = p.start()
	lg.check(c)
	stop(t, p.cmd)

	var acks []string
	for _, k := range crashKinds {
		acks = append(acks, fmt.Sprintf("%s %d", k.kind, lg.acks[k.kind]))
		if lg.acks[k.kind] == 0 { // a slow machine: still checked
			t.Logf("no %s write acknowledged over %d kills (the machine is slow)", k.kind, kills)
		}
	}
	t.Logf("%d kills in %s: %d requests; acknowledged and present after every restart: %s (%d in all); %d cut by SIGKILL, %d refused (first: %s)",
		kills, time.Since(began).Round(time.Second), lg.sent, strings.Join(acks, ", "), lg.total(), lg.cut, lg.refused, lg.firstRefusal)
}
