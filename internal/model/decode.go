package model

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/wire"
)

// source gives a request's members by wire name; ok is false for an
// absent member or a JSON null.
type source interface {
	get(name string) (value, bool)
}

// value is a member as the request carried it: a decoded JSON value, or
// the text of a form field or query parameter (kept apart so that
// reading a flat parameter boxes nothing).
type value struct {
	v    any
	text string
	flat bool
}

// any returns the value as a decoded JSON value.
func (v value) any() any {
	if v.flat {
		return v.text
	}
	return v.v
}

// empty tells an empty flat value, which validation takes as absent.
func (v value) empty() bool { return v.flat && v.text == "" }

// flat reads the parameters of a query or form style request, as
// validation does: a form field, else a query parameter.
type flat struct{ a *wire.Args }

func (s flat) get(name string) (value, bool) {
	if vs, ok := s.a.Form[name]; ok && len(vs) > 0 {
		return value{text: vs[0], flat: true}, true
	}
	if vs, ok := s.a.Query[name]; ok && len(vs) > 0 {
		return value{text: vs[0], flat: true}, true
	}
	return value{}, false
}

// object reads the members of the structured parameters (params, a JSON
// body) or of a nested object: the wire edge's open-form object, before
// the request's type holds them.
type object wire.JSONObject

func (o object) get(name string) (value, bool) {
	v, ok := o[name]
	return value{v: v}, ok && v != nil
}

func bad(name, what string) error {
	return wire.InvalidParam(name, "must be "+what)
}

func asString(name string, v value) (string, error) {
	if v.flat {
		return v.text, nil
	}
	switch x := v.v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	}
	return "", bad(name, "a string")
}

func asInt(name string, v value) (int, error) {
	if v.flat {
		if n, err := strconv.Atoi(strings.TrimSpace(v.text)); err == nil {
			return n, nil
		}
		return 0, bad(name, "an integer")
	}
	switch x := v.v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n), nil
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) {
			return int(f), nil
		}
	case float64:
		if x == math.Trunc(x) {
			return int(x), nil
		}
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return n, nil
		}
	}
	return 0, bad(name, "an integer")
}

func asBool(name string, v value) (bool, error) {
	text := v.text
	switch x := v.v.(type) {
	case bool:
		return x, nil
	case json.Number:
		text = string(x)
	case string:
		text = x
	}
	if v.flat || text != "" {
		switch strings.ToLower(text) {
		case "0", "false":
			return false, nil
		case "1", "true":
			return true, nil
		}
	}
	return false, bad(name, "a boolean")
}

func asNumber(name string, v value) (float64, error) {
	text := v.text
	switch x := v.v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case json.Number:
		text = string(x)
	case string:
		text = x
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil && (v.flat || text != "") {
		return f, nil
	}
	return 0, bad(name, "a number")
}

func asObject(name string, v value) (wire.JSONObject, error) {
	if m, ok := wire.AsJSONObject(v.v); ok {
		return m, nil
	}
	return nil, bad(name, "an object")
}

func asArray(name string, v value) ([]any, error) {
	if l, ok := v.v.([]any); ok {
		return l, nil
	}
	return nil, bad(name, "an array")
}

// list is a reply's list of scalars as the wire's array (a nil list is
// empty).
func list[T any](l []T) []any {
	out := make([]any, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}
