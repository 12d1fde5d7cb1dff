package robust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/wire"
)

// request is one generated request of the malformed-input corpus.
type request struct {
	ep       *catalog.Endpoint
	class    string // what is malformed: "missing", "type", "enum", "json", ...
	detail   string // the field or value concerned
	mustFail bool   // the request is invalid: it must be refused, changing nothing
	method   string
	path     string // escaped
	query    string // raw query
	body     []byte
	ctype    string
	header   map[string]string
}

func (r request) String() string {
	return fmt.Sprintf("%s %s [%s %s] %s %.120s", r.ep.Name, r.method, r.class, r.detail, r.path, r.query)
}

// field is a parameter of an endpoint's schema at a path below the
// top-level parameters ("[]" stands for the first element of a list).
type field struct {
	path     []string
	p        catalog.Param
	required bool // required, and every parent is required
}

func (f field) name() string { return strings.ReplaceAll(strings.Join(f.path, "."), ".[]", "[]") }

// fields lists every parameter of the schema, nested ones included (three
// levels deep), in catalogue order.
func fields(ps []catalog.Param, prefix []string, required bool, depth int) []field {
	var out []field
	for _, p := range ps {
		path := append(append([]string{}, prefix...), p.Name)
		f := field{path: path, p: p, required: required && p.Required}
		out = append(out, f)
		if depth >= 3 || len(p.Fields) == 0 {
			continue
		}
		switch {
		case p.Kind == catalog.Object:
			out = append(out, fields(p.Fields, path, f.required, depth+1)...)
		case p.Kind == catalog.Array && p.Elem == catalog.Object:
			out = append(out, fields(p.Fields, append(path, "[]"), f.required, depth+1)...)
		}
	}
	return out
}

// gen builds the corpus for one world and caller.
type gen struct {
	w     *world
	token string
	reqs  []request
}

// badUTF8 replaces a marker in JSON text by invalid UTF-8 bytes (json.Marshal
// would escape them).
const utf8Marker = "ROBUST-BAD-UTF8"

var badBytes = "\xff\xfe\xc3\x28\xed\xa0\x80"

// brokenJSON are texts of the structured parameters that are not a JSON
// object: refused with 24506 (docs/errors.md).
var brokenJSON = []string{
	``, `{`, `{"a":`, `{"a":1,}`, `{"a":1}}`, `{"a":1} trailing`, `{"a":1}{"b":2}`, `[1,2]`, `"text"`, `null`, `42`,
	`{'a':1}`, `{"a":"\x"}`, `{"a":NaN}`, `{"a":01}`, `{a:1}`, "\xff\xfe{}", `{"a":"` + "\x00" + `"}` + "\x00",
	strings.Repeat("[", 20000), strings.Repeat(`{"a":`, 12000) + "1" + strings.Repeat("}", 11999),
}

// wrongTypes are values of a JSON type the kind refuses (the validator
// accepts a number for a string and a numeric string for an integer, so
// those are not wrong).
func wrongTypes(k catalog.Kind) []any {
	switch k {
	case catalog.String:
		return []any{true, map[string]any{"a": 1}, []any{"x"}}
	case catalog.Int:
		return []any{"abc", json.Number("1.5"), true, "99999999999999999999999", map[string]any{}}
	case catalog.Bool:
		return []any{"yes", 2, []any{}}
	case catalog.Number:
		return []any{"x", false, map[string]any{}}
	case catalog.Object:
		return []any{"s", []any{1}, 7}
	case catalog.Array:
		return []any{"s", map[string]any{"a": 1}, 7}
	}
	return nil
}

// flatWrong are texts that a flat parameter of kind k refuses.
func flatWrong(k catalog.Kind) []string {
	switch k {
	case catalog.Int:
		return []string{"abc", "1.5", "0x10", "99999999999999999999999", "1e3", "\xff"}
	case catalog.Bool:
		return []string{"yes", "2", "-1"}
	case catalog.Number:
		return []string{"x", "1,5", "--1"}
	}
	return nil
}

// outOfEnum are values outside the allowed values of p.
func outOfEnum(p catalog.Param) []any {
	if len(p.EnumS) > 0 {
		return []any{"robust-not-allowed", strings.ToUpper(p.EnumS[0]) + "x"}
	}
	allowed := map[int]bool{}
	hi := 0
	for _, e := range p.Enum {
		allowed[e] = true
		hi = max(hi, e)
	}
	var out []any
	for _, v := range []int{hi + 1, -1, 1 << 31, 99} {
		if !allowed[v] {
			out = append(out, v)
		}
	}
	return out
}

// pathAttacks are path parameter values that name no object: traversal,
// NUL, invalid UTF-8 and absurd numbers (already escaped).
var pathAttacks = []string{"..", "..%2F..%2Fetc%2Fpasswd", "../../etc/passwd", "%00", "1%00", "%FF%FE", "..%00", "%2e%2e", "99999999999999999999999", "-1", "%20"}

// build generates the corpus for every catalogue endpoint.
func (g *gen) build() {
	eps := catalog.All()
	for i := range eps {
		g.endpoint(&eps[i])
	}
}

func (g *gen) add(r request, class, detail string, mustFail bool) {
	r.class, r.detail, r.mustFail = class, detail, mustFail
	g.reqs = append(g.reqs, r)
}

func (g *gen) endpoint(ep *catalog.Endpoint) {
	valueOf := func(name string) string {
		if v := g.w.pathValue(ep, name, g.token); v != "" {
			return v
		}
		return "1"
	}
	path := fillPath(ep.Path, valueOf, false)
	base := g.object(ep.Params, false)
	send := func(params map[string]any) request { return g.encode(ep, path, params, nil) }

	// Refused before any handler: the body and the wire conventions.
	for _, b := range brokenJSON {
		if b == "" && ep.Style == catalog.JSON {
			continue // an empty JSON body carries no parameters: a valid request
		}
		g.add(g.encode(ep, path, base, []byte(b)), "json", fmt.Sprintf("%.24q", b), true)
	}
	r := send(base)
	if r.query != "" {
		r.query += "&bad=%zz"
	} else {
		r.query = "bad=%zz"
	}
	g.add(r, "query", "bad escape", true)
	if ep.Method != "GET" && ep.Style != catalog.JSON {
		r = send(base)
		r.body, r.ctype = []byte("account_token="+url.QueryEscape(g.token)+"&a=%zz&b=%"), "application/x-www-form-urlencoded"
		g.add(r, "form", "bad escape", true)
	}
	r = send(base)
	r.body, r.ctype = append([]byte("params="), bytes.Repeat([]byte("a"), wire.DefaultMaxBody)...), "application/x-www-form-urlencoded"
	g.add(r, "size", "body over the limit", true)
	for _, lvl := range []string{"abc", "0", "-3", "3 4", "99999999999999999999"} {
		r = send(base)
		r.header = map[string]string{"API-Level": lvl}
		g.add(r, "level", fmt.Sprintf("%q", lvl), true)
	}
	if ep.Method == "POST" {
		r = send(base)
		r.query = strings.TrimPrefix(r.query+"&_method=PATCH", "&")
		g.add(r, "method", "_method=PATCH", true)
	}
	for _, name := range pathParams(ep.Path) {
		for _, bad := range pathAttacks {
			p := fillPath(ep.Path, func(n string) string {
				if n == name {
					return bad
				}
				return url.PathEscape(valueOf(n))
			}, true)
			g.add(g.encode(ep, p, base, nil), "path", name+"="+bad, true)
		}
	}

	// Refused by the validator: missing, mistyped and out-of-range values.
	for _, f := range fields(ep.Params, nil, true, 0) {
		if f.required {
			params := clone(base).(map[string]any)
			setAt(params, f.path, nil, true)
			g.add(send(params), "missing", f.name(), true)
			if flat(ep) {
				params = clone(base).(map[string]any)
				setAt(params, f.path, "", false)
				g.add(send(params), "missing", f.name()+"=\"\"", true)
			}
		}
		if flat(ep) {
			for _, v := range flatWrong(f.p.Kind) {
				params := clone(base).(map[string]any)
				setAt(params, f.path, v, false)
				g.add(send(params), "type", fmt.Sprintf("%s=%q", f.name(), v), true)
			}
		} else {
			for _, v := range wrongTypes(f.p.Kind) {
				params := clone(base).(map[string]any)
				setAt(params, f.path, v, false)
				g.add(send(params), "type", fmt.Sprintf("%s=%v", f.name(), v), true)
			}
			if f.p.Kind == catalog.Array && f.p.Elem != catalog.Object && f.p.Elem != catalog.Any {
				for _, v := range wrongTypes(f.p.Elem) {
					params := clone(base).(map[string]any)
					setAt(params, f.path, []any{v}, false)
					g.add(send(params), "type", fmt.Sprintf("%s[0]=%v", f.name(), v), true)
				}
			}
		}
		if len(f.p.Enum) > 0 || len(f.p.EnumS) > 0 {
			for _, v := range outOfEnum(f.p) {
				params := clone(base).(map[string]any)
				setAt(params, f.path, v, false)
				g.add(send(params), "enum", fmt.Sprintf("%s=%v", f.name(), v), true)
			}
		}
	}

	// Well-formed but hostile: the request may be valid (unknown fields
	// are ignored, any text is a string), so it may succeed.
	for _, extra := range []map[string]any{
		{"robust_extra": "x"}, {"__proto__": map[string]any{"admin": 1}}, {"": []any{1, 2}},
		{"account_token": "forged"}, {"robust_nested": map[string]any{"a": map[string]any{"b": []any{nil, true}}}},
	} {
		params := clone(base).(map[string]any)
		for k, v := range extra {
			if _, taken := params[k]; !taken {
				params[k] = v
			}
		}
		g.add(send(params), "extra", fmt.Sprint(sortedKeys(extra)), false)
	}
	params := g.object(ep.Params, true)
	g.add(send(params), "extra", "every optional field", false)
	strs := 0
	for _, f := range fields(ep.Params, nil, true, 0) {
		switch {
		case f.p.Kind == catalog.String && len(f.p.EnumS) == 0 && strs < 3:
			strs++
			// A huge text stays under the body limit (and, in a query, under
			// net/http's 1 MiB header limit, which answers 431 before Confer).
			huge := strings.Repeat("a", 600<<10)
			if ep.Style == catalog.Query || ep.Method == "GET" || ep.Method == "DELETE" {
				huge = huge[:300<<10]
			}
			for _, v := range []string{utf8Marker, huge, strings.Repeat("字", 2000), "a\x00b", "../../etc/passwd", "' OR 1=1 --", "<script>x</script>"} {
				params := clone(base).(map[string]any)
				setAt(params, f.path, v, false)
				r := send(params)
				r.body = bytes.ReplaceAll(r.body, []byte(utf8Marker), []byte(url.QueryEscape(badBytes)))
				r.query = strings.ReplaceAll(r.query, utf8Marker, url.QueryEscape(badBytes))
				if ep.Style == catalog.JSON {
					r.body = bytes.ReplaceAll(r.body, []byte(url.QueryEscape(badBytes)), []byte(badBytes))
				}
				g.add(r, "string", fmt.Sprintf("%s=%.16q(%d bytes)", f.name(), v, len(v)), false)
			}
		case f.p.Kind == catalog.Int && len(f.p.Enum) == 0:
			for _, v := range []any{-1, 1 << 31, json.Number("9223372036854775807"), json.Number("-9223372036854775808")} {
				params := clone(base).(map[string]any)
				setAt(params, f.path, v, false)
				g.add(send(params), "int", fmt.Sprintf("%s=%v", f.name(), v), false)
			}
		case f.p.Kind == catalog.Array && !flat(ep):
			el := g.value(catalog.Param{Kind: f.p.Elem, Fields: f.p.Fields}, false)
			b, _ := json.Marshal(el)
			budget := wire.DefaultMaxBody * 3 / 4 // under the body limit once form-encoded
			if ep.Method == "GET" || ep.Method == "DELETE" {
				budget = 300 << 10 // in the query: under net/http's header limit
			}
			n := min(20000, budget/(len(url.QueryEscape(string(b)))+3))
			list := make([]any, n)
			for i := range list {
				list[i] = clone(el)
			}
			params := clone(base).(map[string]any)
			setAt(params, f.path, list, false)
			g.add(send(params), "array", fmt.Sprintf("%s×%d", f.name(), n), false)
		}
	}
}

// count summarises the corpus by class.
func count(reqs []request) string {
	by := map[string]int{}
	for _, r := range reqs {
		by[r.class]++
	}
	var parts []string
	for _, k := range sortedKeysInt(by) {
		parts = append(parts, fmt.Sprintf("%s %d", k, by[k]))
	}
	return strings.Join(parts, ", ")
}

func sortedKeysInt(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
