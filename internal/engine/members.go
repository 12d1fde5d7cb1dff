package engine

import (
	"bytes"
	"encoding/json"
)

// Typed members of the documents that are still maps (the terminal's
// channels and controls): written in the form a document read from the
// store holds them, read back through their JSON.

// storedForm is v as a document read from the store holds it: objects as
// maps, lists as []any, numbers as json.Number. Only server-built values
// are written.
func storedForm(v any) any {
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

// readMember decodes a document member into v (a pointer); false when it
// is absent or of another form.
func readMember(member, v any) bool {
	if member == nil {
		return false
	}
	b, err := json.Marshal(member)
	return err == nil && json.Unmarshal(b, v) == nil
}
