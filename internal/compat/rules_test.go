package compat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/wire"
)

// docAt builds a document holding leaf at path: "a[].b" gives
// {"a":[{"b":leaf}]}; "**.b" puts b deeper, {"x":{"y":[{"b":leaf}]}}.
func docAt(path string, leaf any) map[string]any {
	segs := strings.Split(path, ".")
	if segs[0] == "**" {
		segs = append([]string{"x", "y[]"}, segs[1:]...)
	}
	var wrap func(i int) map[string]any
	wrap = func(i int) map[string]any {
		name := strings.TrimSuffix(segs[i], "[]")
		if i == len(segs)-1 {
			return map[string]any{name: leaf}
		}
		child := wrap(i + 1)
		if strings.HasSuffix(segs[i], "[]") {
			return map[string]any{name: []any{child}}
		}
		return map[string]any{name: child}
	}
	return wrap(0)
}

// leafOf finds the value at path in a document built by docAt (nil when
// absent) and the object that holds it.
func leafOf(doc map[string]any, path string, key string) (any, bool) {
	var val any
	var found bool
	visitParents(doc, path, func(m map[string]any, k string) {
		if key != "" {
			k = key
		}
		val, found = m[k]
	})
	return val, found
}

func before(r release.Release) (release.Release, bool) {
	if r == release.Baseline {
		return 0, false
	}
	return r - 1, true
}

// Every rule, applied alone, transforms a request and a reply as its kind
// says, at the release before it and at its release.
func TestEachRule(t *testing.T) {
	for _, r := range Rules() {
		if r.Change == CookieExpires {
			continue
		}
		name := r.Endpoint + " " + r.Path + " (" + r.Change.String() + " at " + r.Release.String() + ")"
		prev, hasPrev := before(r.Release)
		at := r.Release
		val := any(json.Number("1"))
		switch r.Change {
		case ValueChanged, ValueAdded, ValueRemoved:
			val = r.New
		case Retyped:
			val = "12"
		}
		// Each side is checked where the rule applies (the other side is
		// TestDirections').
		onReply, onRequest := r.Change, r.Change
		if r.Dir&ToReply == 0 {
			onReply = -1
		}
		if r.Dir&ToRequest == 0 {
			onRequest = -1
		}
		// Replies.
		switch onReply {
		case ErrorAnswered:
			if f, ok := Answered(r.Endpoint, prev, r.New.(int)); hasPrev && (!ok || len(f) == 0) {
				t.Errorf("%s: error before the release not answered as success", name)
			}
			if _, ok := Answered(r.Endpoint, at, r.New.(int)); ok {
				t.Errorf("%s: error at the release answered as success", name)
			}
			if _, ok := Answered(r.Endpoint, prev, wire.CodeSystemError); ok {
				t.Errorf("%s: another error answered as success", name)
			}
		case Added:
			if hasPrev {
				d := docAt(r.Path, val)
				r.reply(prev, d, nil)
				if _, ok := leafOf(d, r.Path, ""); ok {
					t.Errorf("%s: reply before the release keeps the field", name)
				}
			}
			d := docAt(r.Path, val)
			r.reply(at, d, nil)
			if _, ok := leafOf(d, r.Path, ""); !ok {
				t.Errorf("%s: reply at the release lost the field", name)
			}
		case Removed:
			d := docAt(r.Path, val)
			r.reply(at, d, nil)
			if _, ok := leafOf(d, r.Path, ""); ok {
				t.Errorf("%s: reply at the release keeps the removed field", name)
			}
			if r.Until != 0 {
				d := docAt(r.Path, val)
				r.reply(r.Until, d, nil)
				if _, ok := leafOf(d, r.Path, ""); !ok {
					t.Errorf("%s: reply at %s (back) lost the field", name, r.Until)
				}
			}
		case Renamed:
			if hasPrev {
				d := docAt(r.Path, val)
				r.reply(prev, d, nil)
				if v, ok := leafOf(d, r.Path, r.Old.(string)); !ok || v != val {
					t.Errorf("%s: reply before the release not renamed back to %v", name, r.Old)
				}
			}
		case ValueChanged:
			if hasPrev {
				d := docAt(r.Path, json.Number(jsonText(r.New)))
				r.reply(prev, d, nil)
				if v, _ := leafOf(d, r.Path, ""); !same(v, r.Old) {
					t.Errorf("%s: reply before the release = %v, want %v", name, v, r.Old)
				}
			}
			d := docAt(r.Path, json.Number(jsonText(r.New)))
			r.reply(at, d, nil)
			if v, _ := leafOf(d, r.Path, ""); !same(v, r.New) {
				t.Errorf("%s: reply at the release changed to %v", name, v)
			}
		case Retyped:
			if hasPrev {
				d := docAt(r.Path, val)
				r.reply(prev, d, nil)
				v, _ := leafOf(d, r.Path, "")
				_, isString := v.(string)
				if (r.Old == "string") != isString {
					t.Errorf("%s: reply before the release has %T, want %v", name, v, r.Old)
				}
			}
		}
		// Requests.
		switch onRequest {
		case Added:
			if hasPrev {
				d := docAt(r.Path, val)
				r.request(prev, d, nil)
				if _, ok := leafOf(d, r.Path, ""); ok {
					t.Errorf("%s: request before the release keeps the field", name)
				}
			}
		case Renamed:
			if hasPrev {
				d := docAt(r.Path, val)
				// Put the value under the old name.
				visitParents(d, r.Path, func(m map[string]any, k string) { m[r.Old.(string)] = m[k]; delete(m, k) })
				r.request(prev, d, nil)
				if v, ok := leafOf(d, r.Path, ""); !ok || v != val {
					t.Errorf("%s: request with the old name not renamed forward", name)
				}
			}
		case ValueChanged:
			if hasPrev {
				d := docAt(r.Path, json.Number(jsonText(r.Old)))
				r.request(prev, d, nil)
				if v, _ := leafOf(d, r.Path, ""); !same(v, r.New) {
					t.Errorf("%s: request before the release = %v, want %v", name, v, r.New)
				}
			}
		case ValueAdded:
			if hasPrev && len(r.request(prev, docAt(r.Path, val), nil)) != 1 {
				t.Errorf("%s: request before the release not refused", name)
			}
			if len(r.request(at, docAt(r.Path, val), nil)) != 0 {
				t.Errorf("%s: request at the release refused", name)
			}
		case ValueRemoved:
			if len(r.request(at, docAt(r.Path, val), nil)) != 1 {
				t.Errorf("%s: request at the release not refused", name)
			}
			if hasPrev && len(r.request(prev, docAt(r.Path, val), nil)) != 0 {
				t.Errorf("%s: request before the release refused", name)
			}
		}
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}
