package record

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/confer-platform/confer/internal/wire"
)

// KeepStored writes a typed document changed over a stored one so that
// what the change did not touch keeps its stored bytes. stored is the
// record as read, seen what encoding the document decoded from stored
// gives back (the typed view of stored, which leaves out the members no
// type declares and the unknown members nested in those it declares),
// and changed what encoding the document after the change gives. A
// member of changed whose bytes are those of seen was not changed: its
// stored bytes are kept (a hand edit's unknown nested members, number
// text such as 8.0); a member the type does not know (in stored, not in
// seen) is kept as stored; every other member is changed's. Members are
// written in name order, as Encode writes them. A document stored by
// Encode and changed reads as Encode writes it: the result is changed.
func KeepStored(stored, seen, changed []byte) ([]byte, error) {
	var st, se, ch map[string]json.RawMessage
	for _, d := range []struct {
		data []byte
		m    *map[string]json.RawMessage
	}{{stored, &st}, {seen, &se}, {changed, &ch}} {
		if err := json.Unmarshal(d.data, d.m); err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(ch)+len(st))
	for k := range ch {
		names = append(names, k)
	}
	for k := range st {
		if _, known := se[k]; !known {
			if _, ok := ch[k]; !ok {
				names = append(names, k)
			}
		}
	}
	slices.SortFunc(names, strings.Compare)
	b := make([]byte, 0, len(changed)+len(stored)/4)
	b = append(b, '{')
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, k)
		b = append(b, ':')
		v, ok := ch[k]
		if s, kept := st[k]; kept && (!ok || bytes.Equal(v, se[k])) {
			v = s
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

// Merge writes the members of the JSON objects of layers as one object,
// in name order: a member of a later layer replaces an earlier one's,
// its bytes kept as they are. drop, when not nil, leaves out a layer's
// member (by the layer's index, the member's name and bytes) before it
// is merged. It builds a document of open form (a template's stored
// members and a request's parameters as sent) without decoding its
// values.
func Merge(drop func(layer int, name string, raw json.RawMessage) bool, layers ...[]byte) ([]byte, error) {
	all := map[string]json.RawMessage{}
	for i, l := range layers {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(l, &m); err != nil {
			return nil, err
		}
		for k, v := range m {
			if drop == nil || !drop(i, k, v) {
				all[k] = v
			}
		}
	}
	names := make([]string, 0, len(all))
	for k := range all {
		names = append(names, k)
	}
	slices.SortFunc(names, strings.Compare)
	b := make([]byte, 0, 1024)
	b = append(b, '{')
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, k)
		b = append(b, ':')
		b = append(b, all[k]...)
	}
	return append(b, '}'), nil
}
