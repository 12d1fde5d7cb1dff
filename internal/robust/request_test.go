package robust

import (
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/confer-platform/confer/internal/catalog"
)

// Well-formed values and the wire encoding of the generated requests.

// named gives values that let a well-formed request reach a handler's
// real work instead of failing on an obviously unknown object.
func (g *gen) named(name string) (any, bool) {
	switch name {
	case "mt_id":
		return "2", true
	case "cascade_id":
		return "0", true // the local conference
	case "account":
		return "10.200.0.20", true
	case "ip":
		return "10.200.9.9", true
	case "port":
		return 6002, true
	case "template_id":
		return g.w.ids["template"], true
	case "vrs_id":
		return g.w.ids["vrs"], true
	case "prggid", "prgid":
		return atoi(g.w.ids["program"]), true
	case "folderid", "dstfolderid":
		return atoi(g.w.ids["folder"]), true
	case "hdu_id":
		return g.w.ids["hdu"], true
	case "department_moid", "parent_department_moid":
		if name == "parent_department_moid" {
			return g.w.domain, true
		}
		return g.w.ids["dept"], true
	case "user_domain_moid", "userdomainmoid":
		return g.w.domain, true
	case "username":
		// A user that does not exist: a refused login with a real user
		// would count a failed login, a legitimate change (docs/api.md).
		return "nobody_robust", true
	case "password", "psd":
		return "wrong_password", true
	case "oauth_consumer_key":
		return "test-key", true
	case "oauth_consumer_secret":
		return "wrong-secret", true // a token request that is refused
	case "account_token":
		return g.token, true
	}
	return nil, false
}

// fits tells whether a named value has the JSON type of kind k.
func fits(k catalog.Kind, v any) bool {
	switch v.(type) {
	case string:
		return k == catalog.String
	case int:
		return k == catalog.Int || k == catalog.Number
	}
	return false
}

// value is a well-formed value of p.
func (g *gen) value(p catalog.Param, withOptional bool) any {
	if v, ok := g.named(p.Name); ok && fits(p.Kind, v) {
		return v
	}
	switch p.Kind {
	case catalog.String:
		if len(p.EnumS) > 0 {
			return p.EnumS[0]
		}
		return "robust"
	case catalog.Int:
		// A composition member's type 0 (an empty channel) is a value
		// of releases before 6.0.0.3.0 only (internal/compat): take 1.
		if p.Name == "member_type" || p.Name == "members_type" {
			return 1
		}
		if len(p.Enum) > 0 {
			return p.Enum[0]
		}
		return 1
	case catalog.Bool:
		return 0
	case catalog.Number:
		return 1
	case catalog.Object:
		return g.object(p.Fields, withOptional)
	case catalog.Array:
		if p.Elem == catalog.Object {
			return []any{g.object(p.Fields, withOptional)}
		}
		return []any{}
	}
	return "robust"
}

func (g *gen) object(ps []catalog.Param, withOptional bool) map[string]any {
	m := map[string]any{}
	for _, p := range ps {
		if p.Required || withOptional {
			m[p.Name] = g.value(p, withOptional)
		}
	}
	return m
}

// clone deep-copies a JSON-like value.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = clone(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = clone(e)
		}
		return l
	}
	return v
}

// setAt sets (or with del, removes) the value at path in params, making
// missing parents.
func setAt(params map[string]any, path []string, v any, del bool) {
	var cur any = params
	for i, seg := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if del {
					delete(c, seg)
				} else {
					c[seg] = v
				}
				return
			}
			next, ok := c[seg]
			if path[i+1] == "[]" {
				if l, isList := next.([]any); !ok || !isList || len(l) == 0 {
					next = []any{map[string]any{}}
					c[seg] = next
				}
			} else if _, isMap := next.(map[string]any); !ok || !isMap {
				next = map[string]any{}
				c[seg] = next
			}
			cur = next
		case []any:
			if last {
				if !del {
					c[0] = v
				}
				return
			}
			if _, isMap := c[0].(map[string]any); !isMap {
				c[0] = map[string]any{}
			}
			cur = c[0]
		}
	}
}

// flat tells whether the endpoint's parameters travel as flat text.
func flat(ep *catalog.Endpoint) bool { return ep.Style == catalog.Query || ep.Style == catalog.Form }

// text is a flat parameter's text.
func text(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	case int, int64, float64, json.Number, bool:
		return fmt.Sprint(x), true
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

// encode turns params (or, when raw is not nil, the raw text of the
// structured parameters) into a request the way the endpoint's style
// carries them (seed 000 "Common rules" 3 to 5).
func (g *gen) encode(ep *catalog.Endpoint, path string, params map[string]any, raw []byte) request {
	r := request{ep: ep, method: ep.Method, path: path}
	q := url.Values{}
	tokenParam := false
	for _, p := range ep.Params {
		tokenParam = tokenParam || p.Name == "account_token"
	}
	vals := url.Values{}
	if !tokenParam && !ep.Public {
		vals.Set("account_token", g.token)
	}
	switch ep.Style {
	case catalog.Query, catalog.Form:
		for _, k := range sortedKeys(params) {
			if s, ok := text(params[k]); ok {
				vals.Add(k, s)
			}
		}
		if raw != nil {
			vals.Set("params", string(raw))
		}
		if ep.Style == catalog.Query || ep.Method == "GET" {
			r.query = vals.Encode()
		} else {
			r.body, r.ctype = []byte(vals.Encode()), "application/x-www-form-urlencoded"
		}
	case catalog.Params:
		if raw == nil {
			raw, _ = json.Marshal(params)
		}
		vals.Set("params", string(raw))
		if ep.Method == "DELETE" || ep.Method == "GET" { // DELETE parameters travel in the query (docs/api.md)
			r.query = vals.Encode()
		} else {
			r.body, r.ctype = []byte(vals.Encode()), "application/x-www-form-urlencoded"
		}
	case catalog.JSON:
		if raw == nil {
			raw, _ = json.Marshal(params)
		}
		q.Set("account_token", g.token)
		r.query = q.Encode()
		r.body, r.ctype = raw, "application/json"
	}
	return r
}
