package record

import (
	"bytes"
	"encoding/json"
)

// Typed members of the documents that are still maps (a terminal's
// channels, a conference's monitors, ...): a member is a Go type with JSON
// tags, written into the document in the form a document read from the
// store holds it (Stored) and read back through its JSON (Member).

// Stored is v as a document read from the store holds it: objects as
// maps, lists as []any, numbers as json.Number, so that readers of the
// document see one form whether it was just written or read. Only
// server-built values are written (an encoding error panics).
func Stored(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		panic(err)
	}
	return out
}

// Member decodes a document member into v (a pointer); false when it is
// absent (nil) or of another form.
func Member(member, v any) bool {
	if member == nil {
		return false
	}
	b, err := json.Marshal(member)
	return err == nil && json.Unmarshal(b, v) == nil
}
