// Package shape builds replies from stored records with the catalogue's
// reply schemas: a reply holds exactly the fields the schema names, taken
// from the record, and the kind's zero value where the record lacks one.
// Stored records are JSON documents of the newest model, so the same
// field names flow from request to store to reply.
package shape

import (
	"bytes"
	"encoding/json"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/wire"
)

// Project returns the fields of schema taken from v. Nested objects and
// lists of objects are projected with their own fields; a scalar or list
// that v lacks gets its kind's zero value (0, "", []), and an object that
// v lacks (no speaker, no mix set) is left out.
func Project(v wire.JSONObject, schema []catalog.Param) map[string]any {
	out := make(map[string]any, len(schema))
	for _, p := range schema {
		if _, ok := wire.AsJSONObject(v[p.Name]); !ok && p.Kind == catalog.Object {
			continue
		}
		out[p.Name] = value(v[p.Name], p)
	}
	return out
}

func value(v any, p catalog.Param) any {
	switch p.Kind {
	case catalog.Object:
		m, _ := wire.AsJSONObject(v)
		if len(p.Fields) == 0 {
			if m == nil {
				return map[string]any{}
			}
			return v // the stored object itself, of open form
		}
		return Project(m, p.Fields)
	case catalog.Array:
		arr, _ := v.([]any)
		out := make([]any, 0, len(arr))
		for _, el := range arr {
			if p.Elem == catalog.Object && len(p.Fields) > 0 {
				m, _ := wire.AsJSONObject(el)
				out = append(out, Project(m, p.Fields))
			} else {
				out = append(out, el)
			}
		}
		return out
	case catalog.Int, catalog.Number:
		if v == nil {
			return 0
		}
		return v
	case catalog.Bool:
		if v == nil {
			return 0
		}
		return v
	case catalog.String:
		switch x := v.(type) {
		case nil:
			return ""
		case json.Number:
			return x.String()
		}
		return v
	}
	return v
}

// List projects documents with the element fields of the list field
// name of a reply schema, e.g. each conference of "confs".
func List(schema []catalog.Param, name string, docs []wire.JSONObject) []any {
	fields := Elem(schema, name)
	out := make([]any, len(docs))
	for i, d := range docs {
		out[i] = Project(d, fields)
	}
	return out
}

// Elem returns the element fields of a list field of a reply schema, e.g.
// the fields of each conference of "confs".
func Elem(schema []catalog.Param, name string) []catalog.Param {
	for _, p := range schema {
		if p.Name == name {
			return p.Fields
		}
	}
	return nil
}

// Decode reads a stored JSON document, keeping numbers exact.
func Decode(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}
