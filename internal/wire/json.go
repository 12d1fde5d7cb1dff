package wire

// JSONObject is a JSON object of open form: what encoding/json decodes a
// JSON object into when the target is an any (a map[string]any). It is
// the wire edge's view of documents whose members no type declares
// before the catalogue's schema is applied to them: a request's
// structured parameters before validation and the typed models read them
// (validate, model.Decode, the text checks), a stored document as
// shape projects and encodes it, a generic call's parameters built from
// NAME=VALUE pairs (cmd/confer call). Code past the edge works with the
// generated models and the stored-form structs instead.
//
// A nested object inside a decoded value is a map[string]any, not a
// JSONObject: read it with AsJSONObject, and store the value read (not
// the JSONObject) back into an any, so that the decoded form stays the
// one encoding/json and the reply writers (Object) see.
type JSONObject map[string]any

// AsJSONObject returns v as a JSON object when it is one: a decoded
// object (map[string]any) or a JSONObject.
func AsJSONObject(v any) (JSONObject, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case JSONObject:
		return x, true
	}
	return nil, false
}
