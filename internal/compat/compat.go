// Package compat holds the compatibility rules between platform releases
// (DESIGN principle 2): handlers speak the newest model only, and these
// rules reshape each request on the way in and each reply on the way out
// for the release the caller sees. No handler tests a release itself.
package compat

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/release"
)

// Change is the kind of a rule. Each kind below says what it does to
// replies and to requests; a rule does it only on the sides of its Dir.
type Change int

const (
	// Added: the field exists from Release on. Before it, replies lose the
	// field and requests have it dropped (older platforms ignore it).
	Added Change = iota
	// Removed: the field exists before Release only (until Until, when it
	// comes back). From Release on, replies and requests lose it; before
	// Release a reply gets Old as its value when the newest model lacks it.
	Removed
	// Renamed: before Release the field was called Old. Replies are
	// renamed back; requests with the old name are renamed forward.
	Renamed
	// ValueChanged: before Release the value New was written Old. Replies
	// map New to Old; requests map Old to New.
	ValueChanged
	// Retyped: before Release the field had the JSON type Old ("string" or
	// "integer"). Replies are converted to it; requests in either type are
	// converted to the newest.
	Retyped
	// ValueAdded: the value New is allowed from Release on; an earlier
	// request with it is refused.
	ValueAdded
	// ValueRemoved: the value New is refused from Release on.
	ValueRemoved
	// CookieExpires: before Release, Set-Cookie carries an Expires date.
	CookieExpires
	// ErrorAnswered: before Release, the error code New of the endpoint
	// was a success whose fields are Old (a JSON object), written in the
	// shapes of the caller's release: a query of a feature that is not
	// running answered mode or state 0. Path is error_code.
	ErrorAnswered
)

var changeNames = [...]string{"added", "removed", "renamed", "value changed", "type changed", "value added", "value removed", "cookie Expires dropped",
	"error answered as success"}

func (c Change) String() string { return changeNames[c] }

// Dir is the side of the wire a rule reshapes: requests on the way in,
// replies on the way out, or both. Every rule states it (a change of a
// reply, such as the mts list that the add-terminals reply gains at
// 5.1.0.2.0, must never touch a request parameter of the same name).
type Dir int

const (
	ToRequest Dir = 1 << iota // requests on the way in
	ToReply                   // replies on the way out
	Both      = ToRequest | ToReply
)

func (d Dir) String() string {
	switch d {
	case ToRequest:
		return "request"
	case ToReply:
		return "reply"
	case Both:
		return "both"
	}
	return "none"
}

// Rule is one change of the wire between releases.
type Rule struct {
	Dir      Dir
	Release  release.Release
	Until    release.Release // Removed only: the release that brings the field back; 0 = never
	Endpoint string          // catalogue endpoint name
	Path     string          // field path: "a", "a.b", "list[].b", "**.b" (any depth)
	Change   Change
	Old      any // Renamed: old name; ValueChanged: old value; Retyped: old type; Removed: value before Release
	New      any // ValueChanged, ValueAdded, ValueRemoved: the value concerned
	Source   string
}

// replyRules and requestRules hold the rules of an endpoint by their
// direction.
var replyRules, requestRules map[string][]Rule

func init() {
	replyRules, requestRules = map[string][]Rule{}, map[string][]Rule{}
	for _, r := range Rules() {
		if r.Dir&ToReply != 0 {
			replyRules[r.Endpoint] = append(replyRules[r.Endpoint], r)
		}
		if r.Dir&ToRequest != 0 {
			requestRules[r.Endpoint] = append(requestRules[r.Endpoint], r)
		}
	}
	for _, m := range []map[string][]Rule{replyRules, requestRules} {
		for _, rs := range m {
			sort.SliceStable(rs, func(i, j int) bool { return rs[i].Release < rs[j].Release })
		}
	}
}

// absentAt tells whether a Removed rule hides its field at eff.
func (r Rule) absentAt(eff release.Release) bool {
	return eff >= r.Release && (r.Until == 0 || eff < r.Until)
}

// Reply reshapes a reply of endpoint for a caller that sees release eff,
// newest rule first, so that chained changes unwind in order.
func Reply(endpoint string, eff release.Release, reply map[string]any, cookies []*http.Cookie) {
	rs := replyRules[endpoint]
	for i := len(rs) - 1; i >= 0; i-- {
		rs[i].reply(eff, reply, cookies)
	}
}

// reply applies one rule to a reply.
func (r Rule) reply(eff release.Release, reply map[string]any, cookies []*http.Cookie) {
	if r.Dir&ToReply == 0 {
		return
	}
	switch r.Change {
	case Added:
		if eff < r.Release {
			visit(reply, r.Path, func(m map[string]any, k string) { delete(m, k) })
		}
	case Removed:
		if r.absentAt(eff) {
			visit(reply, r.Path, func(m map[string]any, k string) { delete(m, k) })
		} else if eff < r.Release && r.Old != nil {
			visitParents(reply, r.Path, func(m map[string]any, k string) {
				if _, ok := m[k]; !ok {
					m[k] = r.Old
				}
			})
		}
	case Renamed:
		if eff < r.Release {
			visit(reply, r.Path, func(m map[string]any, k string) {
				m[r.Old.(string)] = m[k]
				delete(m, k)
			})
		}
	case ValueChanged:
		if eff < r.Release {
			visit(reply, r.Path, func(m map[string]any, k string) {
				if same(m[k], r.New) {
					m[k] = r.Old
				}
			})
		}
	case Retyped:
		if eff < r.Release {
			visit(reply, r.Path, func(m map[string]any, k string) { m[k] = convert(m[k], r.Old.(string)) })
		}
	case CookieExpires:
		if eff >= r.Release {
			for _, c := range cookies {
				c.Expires = time.Time{}
			}
		}
	}
}

// Answered returns the success fields that a caller who sees release eff
// gets instead of error code from endpoint (an ErrorAnswered rule),
// already in that release's shapes: no other reply rule reshapes them. ok
// is false when the error stands.
func Answered(endpoint string, eff release.Release, code int) (fields map[string]any, ok bool) {
	for _, r := range replyRules[endpoint] {
		if r.Change == ErrorAnswered && eff < r.Release && same(code, r.New) {
			if err := json.Unmarshal([]byte(r.Old.(string)), &fields); err != nil {
				panic(fmt.Sprintf("compat: rule %q: %v", r.Source, err)) // a rule of the table, checked by TestEachRule
			}
			return fields, true
		}
	}
	return nil, false
}

// Problem is a request value that the caller's release does not allow.
type Problem struct {
	Path string
	Msg  string
}

// Request reshapes the parameters of a request to endpoint from a caller
// that sees release eff into the newest model, oldest rule first. It
// returns the values that release eff does not allow.
func Request(endpoint string, eff release.Release, params map[string]any, flat url.Values) []Problem {
	var ps []Problem
	for _, r := range requestRules[endpoint] {
		ps = append(ps, r.request(eff, params, flat)...)
	}
	return ps
}

// request applies one rule to a request's structured and flat parameters.
func (r Rule) request(eff release.Release, params map[string]any, flat url.Values) []Problem {
	if r.Dir&ToRequest == 0 {
		return nil
	}
	var ps []Problem
	if r.Change == Renamed {
		if eff < r.Release {
			old := r.Old.(string)
			visitParents(params, r.Path, func(m map[string]any, k string) {
				if v, ok := m[old]; ok {
					if _, has := m[k]; !has {
						m[k] = v
					}
					delete(m, old)
				}
			})
			if flat != nil && !strings.ContainsAny(r.Path, ".[") {
				if v, ok := flat[old]; ok {
					if !flat.Has(r.Path) {
						flat[r.Path] = v
					}
					flat.Del(old)
				}
			}
		}
		return nil
	}
	apply := func(m map[string]any, k string) {
		switch r.Change {
		case Added:
			if eff < r.Release {
				delete(m, k)
			}
		case Removed:
			if r.absentAt(eff) {
				delete(m, k)
			}
		case ValueChanged:
			if eff < r.Release && same(m[k], r.Old) {
				m[k] = json.Number(fmt.Sprint(r.New)) // requests carry JSON numbers
			}
		case Retyped:
			if s, ok := m[k].(string); ok && r.Old == "string" {
				if _, err := strconv.ParseInt(s, 10, 64); err == nil {
					m[k] = json.Number(s)
				}
			}
		case ValueAdded:
			if eff < r.Release && same(m[k], r.New) {
				ps = append(ps, Problem{k, fmt.Sprintf("value %v is not allowed before release %s", r.New, r.Release)})
			}
		case ValueRemoved:
			if eff >= r.Release && same(m[k], r.New) {
				ps = append(ps, Problem{k, fmt.Sprintf("value %v is not allowed from release %s on", r.New, r.Release)})
			}
		}
	}
	visit(params, r.Path, apply)
	if flat != nil && !strings.ContainsAny(r.Path, ".[") {
		if _, ok := flat[r.Path]; ok {
			m := map[string]any{r.Path: flat.Get(r.Path)}
			apply(m, r.Path)
			if v, ok := m[r.Path]; ok {
				flat.Set(r.Path, fmt.Sprint(v))
			} else {
				flat.Del(r.Path)
			}
		}
	}
	return ps
}

// Absent returns a test of whether a request field path ("call_mode",
// "mts[].bitrate") does not exist for a caller that sees release eff: a
// field added later, or removed by then. The validator does not require
// such fields.
func Absent(endpoint string, eff release.Release) func(path string) bool {
	var gone []string
	for _, r := range requestRules[endpoint] {
		if (r.Change == Added && eff < r.Release) || (r.Change == Removed && r.absentAt(eff)) {
			gone = append(gone, r.Path)
		}
	}
	return func(path string) bool {
		for _, g := range gone {
			if g == path || (strings.HasPrefix(g, "**.") && (path == g[3:] || strings.HasSuffix(path, "."+g[3:]))) {
				return true
			}
		}
		return false
	}
}

// same compares a wire value with a rule's value by their text, so that
// json.Number(16), 16 and "16" match.
func same(v, w any) bool {
	if v == nil || w == nil {
		return v == w
	}
	return fmt.Sprint(v) == fmt.Sprint(w)
}

// convert turns a scalar into the JSON type named by kind.
func convert(v any, kind string) any {
	switch kind {
	case "string":
		if v == nil {
			return v
		}
		return fmt.Sprint(v)
	case "integer":
		if n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64); err == nil {
			return n
		}
	}
	return v
}

// visit calls fn(parent, key) for every existing field at path.
func visit(root map[string]any, path string, fn func(map[string]any, string)) {
	visitParents(root, path, func(m map[string]any, k string) {
		if _, ok := m[k]; ok {
			fn(m, k)
		}
	})
}

// visitParents calls fn(parent, key) for every object that path's last
// segment names a key of, whether or not the key is present.
func visitParents(root map[string]any, path string, fn func(map[string]any, string)) {
	if root == nil {
		return
	}
	walk(root, strings.Split(path, "."), fn)
}

func walk(v any, segs []string, fn func(map[string]any, string)) {
	switch x := v.(type) {
	case []any:
		for _, el := range x {
			walk(el, segs, fn)
		}
		return
	case map[string]any:
		seg := segs[0]
		if seg == "**" {
			walk(x, segs[1:], fn) // here
			for _, child := range x {
				walk(child, segs, fn) // deeper
			}
			return
		}
		if len(segs) == 1 {
			fn(x, seg)
			return
		}
		name := strings.TrimSuffix(seg, "[]")
		if child, ok := x[name]; ok {
			walk(child, segs[1:], fn)
		}
	}
}
