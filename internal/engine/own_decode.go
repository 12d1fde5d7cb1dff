package engine

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// decode reads a stored conference: its document and the server's own
// members, each member's JSON decoded once (decodeOnce). A document
// decodeOnce does not take (not one JSON value, or not an object) is
// decoded as the map document always was, and answers the same error.
func decode(rec store.Record) (Conference, error) {
	if c, ok := decodeOnce(rec); ok {
		return c, nil
	}
	if _, err := shape.Decode(rec.Data); err != nil {
		return Conference{}, err // the error the map document answered
	}
	doc, err := decodeConfDoc(rec.Data)
	if err != nil {
		return Conference{}, err
	}
	return newConference(rec, doc), nil
}

// decodeOnce reads the own members straight from their stored JSON into
// their fields (readOwn) and decodes the other members, with any own one
// of another form, into the map document in one shape.Decode of those
// members alone: the own members, most of a running conference's bytes,
// are no longer decoded into the map first and then again into their
// fields (docs/architecture.md, "Typed models"). It gives what
// shape.Decode and splitStored give (TestDecodeOnceAsTheMap); false for
// data that is not a valid JSON object.
func decodeOnce(rec store.Record) (Conference, bool) {
	data := rec.Data
	if !json.Valid(data) {
		return Conference{}, false
	}
	c := Conference{Rec: rec}
	var up *superiorStored
	type kept struct {
		name string
		raw  []byte
	}
	var own []kept
	rest := make([]byte, 1, len(data))
	rest[0] = '{'
	err := record.Members(data, func(k string, raw []byte) error {
		if !isOwn(k) {
			rest = appendMember(rest, k, raw)
			return nil
		}
		c.readOwn(k, raw, &up) // a member named twice: the last wins, as in Doc
		own = append(own, kept{k, raw})
		return nil
	})
	if err != nil {
		return Conference{}, false
	}
	c.setSuperior(up)
	for _, m := range c.ownRead() {
		if m.read {
			continue
		}
		for i := len(own) - 1; i >= 0; i-- { // of another form: the document keeps its last value
			if own[i].name == m.name {
				rest = appendMember(rest, m.name, own[i].raw)
				break
			}
		}
	}
	doc, err := decodeConfDoc(append(rest, '}'))
	if err != nil {
		return Conference{}, false
	}
	c.Doc = doc
	return c, true
}

// appendMember appends the member k: raw to the object being written in
// b (opened, not closed), its name written so that it decodes as k.
func appendMember(b []byte, k string, raw []byte) []byte {
	if len(b) > 1 {
		b = append(b, ',')
	}
	if utf8.ValidString(k) && !strings.ContainsFunc(k, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }) {
		b = append(append(append(b, '"'), k...), '"')
	} else {
		name, _ := json.Marshal(k) // a string always encodes
		b = append(b, name...)
	}
	return append(append(b, ':'), raw...)
}

// DecodeConference reads a stored conference record (its document and the
// server's own members), as the engine reads one.
func DecodeConference(rec store.Record) (Conference, error) { return decode(rec) }
