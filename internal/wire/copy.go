package wire

import "encoding/json"

// DeepCopy copies a JSON-like value (objects, arrays, raw JSON; scalars
// are shared), so that reshaping one copy of a reply leaves the others
// alone.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case Object:
		out := make(Object, len(x))
		for k, e := range x {
			out[k] = DeepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = DeepCopy(e)
		}
		return out
	case []Object:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = DeepCopy(e)
		}
		return out
	case json.RawMessage:
		return append(json.RawMessage(nil), x...)
	}
	return v
}
