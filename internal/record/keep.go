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
