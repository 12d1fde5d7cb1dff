package server

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/validate"
	"github.com/confer-platform/confer/internal/wire"
)

// msgBadText is the problem of a text that is not UTF-8 or holds NUL.
const msgBadText = "must be UTF-8 text without NUL characters"

// badText finds the path parameters, query and form values and texts of
// the structured parameters that are not UTF-8 or hold a NUL character.
// No platform field holds such text, and PostgreSQL refuses it as a query
// argument, so that an id like "1%00" would answer 99999 instead of
// "does not exist" (found by internal/robust). Problems name the field.
func badText(req *api.Request) []validate.Problem {
	var ps []validate.Problem
	bad := func(s string) bool { return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) }
	for _, k := range sortedKeys(req.PathParams) {
		if bad(req.PathParams[k]) {
			ps = append(ps, validate.Problem{Top: k, Index: -1, Msg: msgBadText})
		}
	}
	for _, vals := range []map[string][]string{req.Args.Query, req.Args.Form} {
		for _, k := range sortedKeys(vals) {
			for _, v := range vals[k] {
				if bad(k) || bad(v) {
					ps = append(ps, validate.Problem{Top: k, Index: -1, Msg: msgBadText})
					break
				}
			}
		}
	}
	for _, k := range sortedKeys(req.Args.Params) {
		if sub, ok := badIn(req.Args.Params[k], bad); bad(k) || ok {
			ps = append(ps, validate.Problem{Top: k, Index: -1, Sub: sub, Msg: msgBadText})
		}
	}
	return ps
}

// badIn finds a bad text (or object key) in a JSON value and returns its
// path below the value.
func badIn(v any, bad func(string) bool) (string, bool) {
	if x, ok := wire.AsJSONObject(v); ok {
		for _, k := range sortedKeys(x) {
			if sub, ok := badIn(x[k], bad); bad(k) || ok {
				if strings.HasPrefix(sub, "[") {
					return k + sub, true
				}
				return k + dot(sub), true
			}
		}
		return "", false
	}
	switch x := v.(type) {
	case string:
		return "", bad(x)
	case []any:
		for i, el := range x {
			if sub, ok := badIn(el, bad); ok {
				return "[" + strconv.Itoa(i) + "]" + dot(sub), true
			}
		}
	}
	return "", false
}

func dot(sub string) string {
	if sub == "" || strings.HasPrefix(sub, "[") {
		return sub
	}
	return "." + sub
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
