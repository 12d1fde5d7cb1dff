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
)

// Project returns the fields of schema taken from v. Nested objects and
// lists of objects are projected with their own fields; a scalar or list
// that v lacks gets its kind's zero value (0, "", []), and an object that
// v lacks (no speaker, no mix set) is left out.
func Project(v map[string]any, schema []catalog.Param) map[string]any {
	out := make(map[string]any, len(schema))
	for _, p := range schema {
		if _, ok := v[p.Name].(map[string]any); !ok && p.Kind == catalog.Object {
			continue
		}
		out[p.Name] = value(v[p.Name], p)
	}
	return out
}

func value(v any, p catalog.Param) any {
	switch p.Kind {
	case catalog.Object:
		m, _ := v.(map[string]any)
		if len(p.Fields) == 0 {
			if m == nil {
				return map[string]any{}
			}
			return m
		}
		return Project(m, p.Fields)
	case catalog.Array:
		arr, _ := v.([]any)
		out := make([]any, 0, len(arr))
		for _, el := range arr {
			if p.Elem == catalog.Object && len(p.Fields) > 0 {
				m, _ := el.(map[string]any)
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

// Merge copies the fields of src over dst (one level: a nested object sent
// in src replaces the stored one) and returns dst.
func Merge(dst, src map[string]any) map[string]any {
	if dst == nil {
		dst = map[string]any{}
	}
	for k, v := range src {
		dst[k] = v
	}
	return dst
}
