package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/wire"
	"github.com/confer-platform/confer/sdk"
)

// runCall calls any endpoint by method and path.
func runCall(a *app, args []string) error {
	method := strings.ToUpper(args[0])
	path, rawQuery, _ := strings.Cut(args[1], "?")
	ep, pathArgs, ok := sdk.MatchEndpoint(method, path)
	if !ok {
		return usagef("no endpoint %s %s in the catalogue (see 'confer __complete -- call %s /')", method, path, method)
	}
	params, err := callParams(ep, rawQuery, args[2:])
	if err != nil {
		return err
	}
	c, err := a.connect()
	if err != nil {
		return err
	}
	var req any
	if len(params) > 0 {
		req = map[string]any(params) // the SDK's generic request (sdk.Call)
	}
	if err := c.Call(a.capture(), ep, pathArgs, req, nil); err != nil {
		return err
	}
	switch {
	case a.g.json || ep.Raw:
		a.printJSON(a.raw)
	case a.g.debug && ep.Method != "GET":
		return a.done("")
	default:
		fields := orderedFields(a.raw)
		if len(fields) <= 1 {
			fmt.Fprintln(a.out, "OK")
			return nil
		}
		a.keyValues(a.raw)
	}
	return nil
}

// callParams builds the parameters of a generic call from NAME=VALUE
// (typed by the catalogue's schema: a number for an integer parameter),
// NAME:=JSON and NAME=@FILE (a file upload for a file parameter, else the
// file's text). NAME may be dotted for members of objects: vmp.layout=2.
// The parameters are of open form (any endpoint's), a wire.JSONObject.
func callParams(ep *sdk.Endpoint, rawQuery string, pairs []string) (wire.JSONObject, error) {
	params := wire.JSONObject{}
	var schema []catalog.Param
	if e, ok := catalog.Lookup(ep.Name); ok {
		schema = e.Params
	}
	if rawQuery != "" {
		for _, kv := range strings.Split(rawQuery, "&") {
			pairs = append([]string{kv}, pairs...)
		}
	}
	for _, kv := range pairs {
		var val any
		name, raw, isJSON := strings.Cut(kv, ":=")
		if isJSON && !strings.Contains(name, "=") {
			if err := json.Unmarshal([]byte(raw), &val); err != nil {
				return nil, usagef("%s: not JSON: %v", name, err)
			}
		} else {
			var ok bool
			name, raw, ok = strings.Cut(kv, "=")
			if !ok || name == "" {
				return nil, usagef("%q: want NAME=VALUE, NAME:=JSON or NAME=@FILE", kv)
			}
			p := findParam(schema, name)
			switch {
			case strings.HasPrefix(raw, "@") && p != nil && p.Kind == catalog.Any && ep.Style == sdk.StyleForm:
				f, err := os.Open(raw[1:])
				if err != nil {
					return nil, err
				}
				// The file stays open until the command ends.
				val = &sdk.File{Name: baseName(raw[1:]), Content: f}
			case strings.HasPrefix(raw, "@"):
				b, err := os.ReadFile(raw[1:])
				if err != nil {
					return nil, err
				}
				val = typed(p, strings.TrimRight(string(b), "\r\n"))
			default:
				val = typed(p, raw)
			}
		}
		if err := setPath(params, name, val); err != nil {
			return nil, err
		}
	}
	return params, nil
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// findParam finds a parameter of the schema by dotted name.
func findParam(ps []catalog.Param, name string) *catalog.Param {
	head, rest, nested := strings.Cut(name, ".")
	for i := range ps {
		if ps[i].Name == head {
			if !nested {
				return &ps[i]
			}
			return findParam(ps[i].Fields, rest)
		}
	}
	return nil
}

// typed converts a command-line value by the parameter's kind.
func typed(p *catalog.Param, s string) any {
	if p == nil {
		var v any
		if json.Unmarshal(jsonValue(s), &v) == nil {
			return v
		}
		return s
	}
	switch p.Kind {
	case catalog.String:
		return s
	case catalog.Int:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	case catalog.Number:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	case catalog.Bool:
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	case catalog.Object, catalog.Array, catalog.Any:
		var v any
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
	}
	return s // the platform names the parameter if the value is wrong
}

// setPath stores v at a dotted name, making the objects on the way.
func setPath(m wire.JSONObject, name string, v any) error {
	head, rest, nested := strings.Cut(name, ".")
	if !nested {
		m[head] = v
		return nil
	}
	sub, ok := wire.AsJSONObject(m[head]) // set by a dotted name or as JSON
	if !ok {
		if _, taken := m[head]; taken {
			return usagef("%s is set both as a value and as an object", head)
		}
		sub = wire.JSONObject{}
		m[head] = sub
	}
	return setPath(sub, rest, v)
}
