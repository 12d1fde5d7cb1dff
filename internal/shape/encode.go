package shape

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/confer-platform/confer/internal/wire"
)

// Encode writes a document for the store: the bytes json.Marshal writes
// (keys sorted, the same escapes), without its reflection for the values
// a document is made of (objects, arrays, strings, json.Number, integers,
// booleans, null), which cost a speaker change 15 % of its allocations
// (docs/benchmarks.md, "Speaker changes, second pass"); any other value
// goes through json.Marshal. TestEncodeMatchesMarshal compares the bytes.
func Encode(m wire.JSONObject) ([]byte, error) {
	return appendDoc(make([]byte, 0, 1024), m)
}

func appendDoc(b []byte, m wire.JSONObject) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var kbuf [32]string
	keys := kbuf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendAny(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendAny(b []byte, v any) ([]byte, error) {
	if m, ok := wire.AsJSONObject(v); ok {
		return appendDoc(b, m)
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return wire.AppendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case json.Number:
		if isPlainInt(string(x)) {
			return append(b, x...), nil
		}
	case []any:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendAny(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	vb, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, vb...), nil
}

// isPlainInt tells whether s is an integer as JSON writes it (-?(0|[1-9][0-9]*)),
// which json.Marshal writes verbatim for a json.Number; other numbers go
// through it.
func isPlainInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
