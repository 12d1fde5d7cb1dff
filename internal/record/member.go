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

// Text is a string member of a stored document read as Str reads it: a
// string, or a number's text; "" for anything else (null, an object).
type Text string

// UnmarshalJSON reads a string or a number; anything else is "".
func (t *Text) UnmarshalJSON(b []byte) error {
	*t = ""
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text(s)
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		*t = Text(b)
	}
	return nil
}

// Integer is a number member of a stored document read as Int reads it:
// an integer, an integral float, or the text of an integer; 0 for
// anything else (null, an object, a fraction).
type Integer int

// UnmarshalJSON reads the member as IntOK does.
func (n *Integer) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	*n = 0
	if dec.Decode(&v) == nil {
		x, _ := IntOK(v)
		*n = Integer(x)
	}
	return nil
}
