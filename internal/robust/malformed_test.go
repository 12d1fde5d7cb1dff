package robust

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// minCorpus is the least number of requests the corpus must hold (issue 11).
const minCorpus = 5000

// TestMalformedInput sends a corpus generated from the catalogue (every
// endpoint: broken params JSON, bad escapes, a body over the limit, bad
// API-Level headers and _method overrides, path parameters with ../, %00
// and invalid UTF-8, missing fields, wrong types, values outside the
// allowed ones, unknown fields, invalid UTF-8, huge texts and lists) to a
// real server holding real objects, as a logged-in administrator, and
// checks: no HTTP 5xx or other status, no panic or system error (99999,
// which the recover middleware answers), every reply a valid envelope, and
// no state change by any refused request.
//
// Two phases keep the state check exact:
//  1. Every request that must be refused (mustFail) and every request of a
//     read endpoint (GET): the whole database, compared before and after
//     (token and session expiries excluded: every authenticated request
//     slides them), must not change at all, and every mustFail request
//     must fail.
//  2. The well-formed hostile requests of write endpoints (unknown fields,
//     odd texts, huge lists) may be valid and change state legitimately.
//     They run one by one, deepest DELETE paths last; after each, a refused
//     request must have left the database exactly as it was, and an
//     accepted one becomes the new reference.
func TestMalformedInput(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		admin.Level = "3"
		w := build(t, env, admin, testserver.AdminUser, "alpha", 1)
		w.platformIDs(t, admin)
		c := newCaller(env, admin)
		g := &gen{w: w, token: admin.Token}
		g.build()
		if len(g.reqs) < minCorpus {
			t.Fatalf("corpus holds %d requests, want at least %d", len(g.reqs), minCorpus)
		}
		covered := map[string]bool{}
		for _, r := range g.reqs {
			covered[r.ep.Name] = true
		}
		if len(covered) != len(catalog.All()) {
			t.Fatalf("corpus covers %d of %d endpoints", len(covered), len(catalog.All()))
		}
		d := newDumper(t, dsn)
		start := time.Now()

		var phase1, phase2 []request
		for _, r := range g.reqs {
			if r.mustFail || r.method == "GET" {
				phase1 = append(phase1, r)
			} else {
				phase2 = append(phase2, r)
			}
		}
		bad := &problems{t: t}
		before := d.snap(t)
		for _, r := range phase1 {
			rep := c.send(r.method, r.path, r.query, r.body, r.ctype, r.header)
			bad.check(r, rep)
		}
		if diff := before.diff(d.snap(t)); diff != "" {
			t.Errorf("phase 1 (refused requests and reads) changed the database:\n%s", diff)
		}
		t1 := time.Since(start)

		// Phase 2: deepest DELETE paths last, so that ending a conference or
		// deleting an object comes after the requests on what it holds.
		sort.SliceStable(phase2, func(i, j int) bool {
			a, b := phase2[i], phase2[j]
			if (a.method == "DELETE") != (b.method == "DELETE") {
				return b.method == "DELETE"
			}
			if a.method == "DELETE" {
				return strings.Count(a.ep.Path, "/") > strings.Count(b.ep.Path, "/")
			}
			return false
		})
		ref := d.light(t)
		accepted := 0
		// Counters (conference numbers, rec_ids, E164 numbers) are
		// allocators: a request refused after drawing a number (an account
		// whose user name is taken, found by the insert's unique index)
		// leaves a gap, as a SQL sequence does on rollback. Numbers are
		// never reused, so a gap is invisible; phase 1 shows that bad input
		// never draws one.
		gaps := 0
		// A request that hangs fails through the client's timeout
		// (caller_test.go); times are only reported, never asserted (a
		// loaded CI machine is slow, not wrong).
		var slowest time.Duration
		var slowReq string
		for _, r := range phase2 {
			t0 := time.Now()
			rep := c.send(r.method, r.path, r.query, r.body, r.ctype, r.header)
			if el := time.Since(t0); el > slowest {
				slowest, slowReq = el, fmt.Sprint(r)
			}
			bad.check(r, rep)
			now := d.light(t)
			if rep.ok() {
				accepted++
			} else if diff := ref.without("counters").diff(now.without("counters")); diff != "" {
				bad.add("refused request changed the database: %s → %.200s\n%s", r, rep.raw, diff)
			} else if ref.diff(now) != "" {
				gaps++
			}
			ref = now
		}
		bad.report()
		t.Logf("slowest request of phase 2: %v (%.120s)", slowest, slowReq)
		if n := systemErrors(t, env); n > 0 {
			t.Errorf("metrics count %d requests answered 99999 (panics or internal errors)", n)
		}
		t.Logf("%d requests over %d endpoints (%s); phase 1: %d in %v; phase 2: %d (%d accepted, %d refused after drawing a number) in %v",
			len(g.reqs), len(covered), count(g.reqs), len(phase1), t1.Round(time.Millisecond),
			len(phase2), accepted, gaps, (time.Since(start) - t1).Round(time.Millisecond))
	})
}

// problems collects failures, 15 examples per kind (every one with
// ROBUST_ALL=1 in the environment).
type problems struct {
	t     *testing.T
	kinds map[string]int
	lines []string
}

func (p *problems) add(format string, args ...any) {
	if p.kinds == nil {
		p.kinds = map[string]int{}
	}
	kind := strings.SplitN(format, ":", 2)[0]
	p.kinds[kind]++
	if p.kinds[kind] <= 15 || os.Getenv("ROBUST_ALL") != "" {
		p.lines = append(p.lines, fmt.Sprintf(format, args...))
	}
}

// check applies the checks every reply must pass.
func (p *problems) check(r request, rep reply) {
	if msg := envelopeProblem(rep); msg != "" {
		if r.ep.Name == "system.openapi" && rep.err == nil && rep.status == 200 {
			return // the OpenAPI document is a JSON document, not an envelope
		}
		p.add("not an envelope: %s: %s", r, msg)
		return
	}
	if rep.code() == wire.CodeSystemError {
		p.add("system error: %s → %.200s", r, rep.raw)
	}
	if r.mustFail && rep.ok() {
		p.add("invalid request accepted: %s → %.200s", r, rep.raw)
	}
}

func (p *problems) report() {
	for _, l := range p.lines {
		p.t.Error(l)
	}
	if len(p.kinds) > 0 {
		p.t.Errorf("problems by kind: %v", p.kinds)
	}
}

// systemErrors reads the server's request counter for code 99999: every
// panic the recover middleware caught and every internal error.
func systemErrors(t *testing.T, env *testserver.Env) int {
	t.Helper()
	mfs, err := env.Srv.Metrics().Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, mf := range mfs {
		if mf.GetName() != "confer_http_requests_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "code" && l.GetValue() == fmt.Sprint(wire.CodeSystemError) {
					n += int(m.GetCounter().GetValue())
				}
			}
		}
	}
	return n
}
