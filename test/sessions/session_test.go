// Package sessions plays integrators' whole sessions against a real
// conferd server (real HTTP listener, real store, fake clock), each written
// only in the shapes of one platform release: seed 001's release history
// and reference A1, not Confer's own replies (issue 21). A call counts as
// expected when it succeeds or fails exactly as that release's platform
// would and its reply has the field names, types and values that
// release's client reads.
package sessions

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// session is one client's run: the release whose shapes it speaks, and
// the tally of its calls.
type session struct {
	t     *testing.T
	env   *testserver.Env
	c     *testserver.Client
	shape release.Release
	calls int
	fails []string
}

// terminals are E.164 numbers of the terminal directory that answer after
// 2 s (conferd terminal add --e164 N).
var terminals = []string{"5550001", "5550002", "5550003", "5550004"}

// start runs a server at platform release plat; the client sends the
// API-Level header level ("" for none) and speaks the shapes of the
// release it sees.
func start(t *testing.T, dsn, plat, level string) *session {
	return startWith(t, dsn, plat, level, testserver.Options{})
}

// startWith is start with the server's options (its Release is plat).
func startWith(t *testing.T, dsn, plat, level string, opts testserver.Options) *session {
	opts.Release = plat
	env := testserver.Start(t, dsn, opts)
	for _, n := range terminals {
		e := store.DirectoryEntry{Account: n, E164: n, Alias: "room-" + n, AccountType: 5, MtType: 1, Behaviour: "answer", AnswerAfter: 2 * time.Second}
		if err := env.Store.PutDirectoryEntry(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	p := release.MustParse(plat)
	header := 0
	if level != "" {
		fmt.Sscan(level, &header)
	}
	shape, _ := release.Effective(p, header)
	c := env.Client(t)
	c.Level = level
	return &session{t: t, env: env, c: c, shape: shape}
}

// at tells whether the client's release is r or newer.
func (s *session) at(r release.Release) bool { return s.shape >= r }

// check is one expectation on a reply; it returns "" when met.
type check func(b map[string]any) string

// call sends one request a second after the previous one (the clock moves
// and the server's timed work runs) and expects success and the checks.
func (s *session) call(name, method, path string, params any, checks ...check) map[string]any {
	s.t.Helper()
	return s.do(0, name, method, path, params, checks...)
}

// fail is call for a request that the client expects refused with code;
// the description must end with the code.
func (s *session) fail(code int, name, method, path string, params any) map[string]any {
	s.t.Helper()
	return s.do(code, name, method, path, params)
}

func (s *session) do(code int, name, method, path string, params any, checks ...check) map[string]any {
	s.t.Helper()
	s.env.Advance(s.t, time.Second)
	s.calls++
	var v url.Values
	switch p := params.(type) {
	case nil:
	case url.Values:
		v = p
	default:
		v = testserver.Params(s.t, p)
	}
	r := s.c.Do(method, path, v)
	var probs []string
	switch d, _ := r.Body["description"].(string); {
	case code == 0 && !r.OK():
		probs = append(probs, "failed: "+r.Raw)
	case code != 0 && (r.OK() || r.Code() != code):
		probs = append(probs, fmt.Sprintf("want error_code %d, got %s", code, r.Raw))
	case code != 0 && !strings.HasSuffix(d, fmt.Sprintf("(%d)", code)):
		probs = append(probs, fmt.Sprintf("description %q does not end with the code", d))
	}
	for _, ck := range checks {
		if msg := ck(r.Body); msg != "" {
			probs = append(probs, msg)
		}
	}
	if len(probs) > 0 {
		s.fails = append(s.fails, fmt.Sprintf("%d %s (%s %s): %s", s.calls, name, method, path, strings.Join(probs, "; ")))
	}
	return r.Body
}

// report logs how many calls went as the client expected, and fails the
// test when one did not.
func (s *session) report(label string) {
	s.t.Helper()
	s.t.Logf("%s: %d of %d calls as the client expects", label, s.calls-len(s.fails), s.calls)
	for _, f := range s.fails {
		s.t.Errorf("%s: call %s", label, f)
	}
}

// lookup finds a reply field by its dotted path; a path through an array
// looks at its first element.
func lookup(b map[string]any, path string) (any, bool) {
	var cur any = b
	for _, seg := range strings.Split(path, ".") {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			if len(x) == 0 {
				return nil, false
			}
			m, ok := x[0].(map[string]any)
			if !ok {
				return nil, false
			}
			v, ok := m[seg]
			if !ok {
				return nil, false
			}
			cur = v
		default:
			return nil, false
		}
	}
	return cur, true
}

func typeOK(v any, kind byte) bool {
	switch kind {
	case 's':
		_, ok := v.(string)
		return ok
	case 'i':
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case 'a':
		_, ok := v.([]any)
		return ok
	case 'o':
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}

// has expects each field with its type: "a.b:T" with T s (string), i
// (integer), a (array), o (object), none for any.
func has(specs ...string) check {
	return func(b map[string]any) string {
		var out []string
		for _, sp := range specs {
			path, kind, _ := strings.Cut(sp, ":")
			v, ok := lookup(b, path)
			switch {
			case !ok:
				out = append(out, "lacks "+path)
			case kind != "" && !typeOK(v, kind[0]):
				out = append(out, fmt.Sprintf("%s is %T %v, want type %s", path, v, v, kind))
			}
		}
		return strings.Join(out, ", ")
	}
}

// lacks expects the fields absent.
func lacks(paths ...string) check {
	return func(b map[string]any) string {
		var out []string
		for _, p := range paths {
			if _, ok := lookup(b, p); ok {
				out = append(out, "has "+p)
			}
		}
		return strings.Join(out, ", ")
	}
}

// since expects the fields (with types) from release r on, and absent
// before it.
func (s *session) since(r release.Release, specs ...string) check {
	return presentIf(s.at(r), specs)
}

// before expects the fields before release r, and absent from it on.
func (s *session) before(r release.Release, specs ...string) check {
	return presentIf(!s.at(r), specs)
}

// presentIf expects the fields with their types, or none of them.
func presentIf(present bool, specs []string) check {
	if present {
		return has(specs...)
	}
	var paths []string
	for _, sp := range specs {
		p, _, _ := strings.Cut(sp, ":")
		paths = append(paths, p)
	}
	return lacks(paths...)
}

// equals expects the field's value (numbers compared as numbers).
func equals(path string, want any) check {
	return func(b map[string]any) string {
		v, ok := lookup(b, path)
		if !ok {
			return "lacks " + path
		}
		if fmt.Sprint(v) != fmt.Sprint(want) {
			return fmt.Sprintf("%s = %v, want %v", path, v, want)
		}
		return ""
	}
}

// jsonScalar writes a reply's scalar as a path segment (12, not 12.0).
func jsonScalar(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// item expects field of element i of the list at path.
func item(path string, i int, field string, want any) check {
	return func(b map[string]any) string {
		v, _ := lookup(b, path)
		l, _ := v.([]any)
		if i >= len(l) {
			return fmt.Sprintf("%s has no element %d (%v)", path, i, v)
		}
		m, _ := l[i].(map[string]any)
		if got, ok := m[field]; !ok || fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Sprintf("%s[%d].%s = %v, want %v", path, i, field, got, want)
		}
		return ""
	}
}

// count expects a list field of n elements.
func count(path string, n int) check {
	return func(b map[string]any) string {
		v, _ := lookup(b, path)
		l, ok := v.([]any)
		if !ok || len(l) != n {
			return fmt.Sprintf("%s has %d elements (%v), want %d", path, len(l), v, n)
		}
		return ""
	}
}

// The sessions: every emulated release with the header its clients send
// (none before 6.0.0.3.0, where the platform ignores it; the release's own
// level from it on), and the two clients of 6.1.0.4.0 that issue 21 names:
// one that sends no API-Level (it sees 6.0.0.3.0) and one that sends 3.
func sessions() []struct{ plat, level string } {
	var out []struct{ plat, level string }
	for _, r := range release.All {
		lv := ""
		if r.Level > 0 {
			lv = fmt.Sprint(r.Level)
		}
		out = append(out, struct{ plat, level string }{r.Name, lv})
	}
	return append(out, struct{ plat, level string }{"6.1.0.4.0", ""})
}

func TestReleaseSessions(t *testing.T) {
	for _, tc := range sessions() {
		label := tc.plat + " API-Level " + tc.level
		if tc.level == "" {
			label = tc.plat + " no API-Level"
		}
		t.Run(label, func(t *testing.T) {
			testdb.Engines(t, func(t *testing.T, dsn string) {
				s := start(t, dsn, tc.plat, tc.level)
				s.integrator()
				s.report(label)
			})
		})
	}
}
