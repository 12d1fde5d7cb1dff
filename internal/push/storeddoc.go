package push

import (
	"bytes"
	"encoding/json"
	"strings"
)

// storedDoc is a stored document (a conference, a terminal) as the
// tailer reads it: its members as their stored JSON. What the tailer
// compares between two versions of a conference is each channel's part
// of it (channels.go), as JSON, and what it reads of a terminal is a few
// scalars; neither needs the rest decoded.
type storedDoc map[string]json.RawMessage

// decodeDoc reads a stored document ({} for null), as shape.Decode does:
// the first JSON value of data.
func decodeDoc(data []byte) (storedDoc, error) {
	var d storedDoc
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&d); err != nil {
		return nil, err
	}
	if d == nil {
		d = storedDoc{}
	}
	return d, nil
}

// object reads a member that is an object; nil for anything else.
func (d storedDoc) object(key string) storedDoc {
	var o storedDoc
	if json.Unmarshal(d[key], &o) != nil {
		return nil
	}
	return o
}

// member is a member's JSON, null when absent.
func (d storedDoc) member(key string) json.RawMessage {
	if v, ok := d[key]; ok {
		return v
	}
	return json.RawMessage("null")
}

// int reads a member written as an integer (or its text).
func (d storedDoc) int(key string) (int, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(d[key]))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return 0, false
	}
	return intOf(v)
}

// str reads a string member; false for anything else.
func (d storedDoc) str(key string) (string, bool) {
	var s string
	v := d[key]
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// isTrue tells whether a member is true.
func (d storedDoc) isTrue(key string) bool { return string(d[key]) == "true" }

// text reads a dotted path of a member's elements as text: a string's
// value, another scalar's JSON ("" when absent or null).
func text(v json.RawMessage, path string) string {
	for _, seg := range strings.Split(path, ".") {
		var o storedDoc
		if json.Unmarshal(v, &o) != nil {
			return ""
		}
		v = o[seg]
	}
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	return string(v)
}
