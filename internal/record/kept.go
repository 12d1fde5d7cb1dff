package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/model"

	"github.com/confer-platform/confer/internal/wire"
)

// A typed document that keeps what its type does not hold: a struct
// whose members are the ones the server reads, and beside it the stored
// members no member holds exactly (one the type does not declare, or one
// of another form: a number stored as a string, a float where the member
// is an integer, an object with a member its type lacks), kept as their
// JSON, in the bytes the map document they replaced wrote for them. Such
// a document is written back in the bytes it was read from
// (EncodeKept(DecodeKept(b)) is b for any document a map encoder wrote),
// and nothing of an older or hand-edited record is lost.

// DecodeKept reads the JSON object data into the struct v points to,
// member by member: a member whose field holds it exactly (present, and
// written back by Encode in the same bytes) is set; any other is returned
// in extra, as its canonical JSON (the bytes json.Marshal writes for it
// decoded with UseNumber, which are the map encoder's). extra is nil when
// every member is typed.
func DecodeKept(data []byte, v any) (extra map[string]json.RawMessage, err error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("record: DecodeKept into %T", v)
	}
	if !json.Valid(data) {
		var m map[string]json.RawMessage
		return nil, json.Unmarshal(data, &m) // its error
	}
	data = bytes.Clone(data) // the kept members are slices of it
	sv := rv.Elem()
	byName := keptFields(sv.Type())
	var scratch []byte
	err = members(data, func(k string, raw []byte) error {
		if keepTyped(sv, byName, k, raw, &scratch) {
			delete(extra, k) // a member named twice: the last wins, as in a map
			return nil
		}
		if extra == nil {
			extra = make(map[string]json.RawMessage)
		}
		extra[k] = raw
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, raw := range extra {
		if extra[k], err = canonicalJSON(raw); err != nil {
			return nil, err
		}
	}
	return extra, nil
}

// keepTyped sets the field of sv named k from raw when the field holds it
// exactly (present, and written back in raw's bytes or in the map
// document's); otherwise it leaves the field zero and returns false.
func keepTyped(sv reflect.Value, byName map[string][]int, k string, raw []byte, scratch *[]byte) bool {
	i, ok := byName[k]
	if !ok {
		return false
	}
	f := sv.FieldByIndex(i)
	if setScalar(f, raw) {
		return true
	}
	f.SetZero()
	if json.Unmarshal(raw, f.Addr().Interface()) == nil && !absent(f) {
		var err error
		if *scratch, err = appendValue((*scratch)[:0], f); err == nil && bytes.Equal(*scratch, raw) {
			return true // held exactly
		}
		if c, err := canonicalJSON(raw); err == nil && bytes.Equal(*scratch, c) {
			return true // held exactly, as the map document writes it
		}
	}
	f.SetZero()
	return false
}

// KeptMember is the member k of a document DecodeKept read (v points to
// its struct, extra its kept members): its JSON as EncodeKept writes it,
// false when it is absent. It finds k's field by its JSON tag, for a
// caller whose member names come from a table or whose members are read
// whole as JSON (engine.Conference.Member); a reader of a known member
// reads its field.
func KeptMember(v any, extra map[string]json.RawMessage, k string) (json.RawMessage, bool) {
	sv := reflect.ValueOf(v).Elem()
	if i, ok := keptFields(sv.Type())[k]; ok {
		if f := sv.FieldByIndex(i); !absent(f) {
			b, err := appendValue(nil, f)
			return b, err == nil
		}
	}
	raw, ok := extra[k]
	return raw, ok
}

// SetKept writes the member k of such a document as DecodeKept reads
// one: into its field when the field holds raw exactly, else kept in
// extra as its canonical JSON (the field left absent). It returns extra,
// made when it was nil.
func SetKept(v any, extra map[string]json.RawMessage, k string, raw []byte) (map[string]json.RawMessage, error) {
	sv := reflect.ValueOf(v).Elem()
	var scratch []byte
	if keepTyped(sv, keptFields(sv.Type()), k, raw, &scratch) {
		delete(extra, k)
		return extra, nil
	}
	c, err := canonicalJSON(raw)
	if err != nil {
		return extra, err
	}
	if extra == nil {
		extra = make(map[string]json.RawMessage)
	}
	extra[k] = bytes.Clone(c)
	return extra, nil
}

// members calls f with each member of the JSON object data (valid JSON)
// in order: its name and its value's bytes, a slice of data.
func members(data []byte, f func(name string, raw []byte) error) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		var m map[string]json.RawMessage
		return json.Unmarshal(data, &m) // not an object: its error
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil
	}
	for i < len(data) {
		ks := i
		i = skipValue(data, i)
		var name string
		if bytes.IndexByte(data[ks:i], '\\') < 0 && utf8.Valid(data[ks:i]) {
			name = string(data[ks+1 : i-1])
		} else if err := json.Unmarshal(data[ks:i], &name); err != nil {
			return err
		}
		i = skipSpace(data, i)
		i = skipSpace(data, i+1) // the colon
		vs := i
		i = skipValue(data, i)
		if err := f(name, data[vs:i:i]); err != nil {
			return err
		}
		i = skipSpace(data, i)
		if i < len(data) && data[i] == '}' {
			return nil
		}
		i = skipSpace(data, i+1) // the comma
	}
	return nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value (valid) that starts at i.
func skipValue(data []byte, i int) int {
	if i < len(data) && data[i] != '"' && data[i] != '{' && data[i] != '[' {
		for i < len(data) && !bytes.ContainsRune([]byte(",}] \t\n\r"), rune(data[i])) {
			i++ // a number, true, false or null
		}
		return i
	}
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			i++
			for i < len(data) && data[i] != '"' {
				if data[i] == '\\' {
					i++
				}
				i++
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		i++
		if depth == 0 {
			return i
		}
	}
	return i
}

// setScalar sets an optional integer or string member from raw when raw
// is the bytes Encode writes for its value (a plain integer; a string
// with no escape), with no reflection of encoding/json: the common case
// of a stored document.
func setScalar(f reflect.Value, raw []byte) bool {
	switch p := f.Addr().Interface().(type) {
	case *model.Opt[int]:
		n, ok := plainInt(raw)
		if ok {
			*p = model.Some(int(n))
		}
		return ok
	case *model.Opt[int64]:
		n, ok := plainInt(raw)
		if ok {
			*p = model.Some(n)
		}
		return ok
	case *model.Opt[string]:
		s, ok := plainString(raw)
		if ok {
			*p = model.Some(s)
		}
		return ok
	}
	return false
}

// plainInt reads raw when it is an integer as Encode writes one.
func plainInt(raw []byte) (int64, bool) {
	if len(raw) == 0 || len(raw) > 18 || string(raw) == "-0" {
		return 0, false
	}
	d := raw
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || (d[0] == '0' && len(d) > 1) {
		return 0, false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil && n == int64(int(n))
}

// plainString reads raw when it is a string that Encode writes with no
// escape (no backslash, control character, <, >, &, U+2028 or U+2029).
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			return plainUnicode(body)
		}
	}
	return string(body), true
}

// plainUnicode is plainString's body holding non-ASCII text.
func plainUnicode(body []byte) (string, bool) {
	if !utf8.Valid(body) {
		return "", false
	}
	for _, r := range string(body) {
		if r < 0x20 || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029' {
			return "", false
		}
	}
	return string(body), true
}

var keptByName sync.Map // reflect.Type -> map[string][]int

// keptFields are a struct type's JSON members by name (the field's
// index), as Encode writes them.
func keptFields(t reflect.Type) map[string][]int {
	if m, ok := keptByName.Load(t); ok {
		return m.(map[string][]int)
	}
	out := make(map[string][]int)
	for _, f := range fieldsOf(t) {
		out[f.name] = f.index
	}
	keptByName.Store(t, out)
	return out
}

// canonicalJSON is raw as the map encoder writes it: unchanged when it
// is already (json.Marshal of its decoding with UseNumber), else
// rewritten so.
func canonicalJSON(raw json.RawMessage) (json.RawMessage, error) {
	if _, ok := plainInt(raw); ok {
		return raw, nil
	}
	if _, ok := plainString(raw); ok || string(raw) == "null" || string(raw) == "true" || string(raw) == "false" {
		return raw, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(b, raw) {
		return raw, nil
	}
	return b, nil
}

// EncodeKept writes the struct v with the members kept in extra as one
// JSON object, every member in name order as Encode writes them (a typed
// member that is present wins a name both have).
func EncodeKept(v any, extra map[string]json.RawMessage) ([]byte, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil, fmt.Errorf("record: EncodeKept of %T", v)
	}
	var kbuf [32]string
	keys := kbuf[:0]
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fields := fieldsOf(rv.Type())
	b := append(make([]byte, 0, 1024), '{')
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	i, j := 0, 0
	for i < len(fields) || j < len(keys) {
		if j < len(keys) && (i == len(fields) || keys[j] < fields[i].name) {
			sep()
			b = wire.AppendString(b, keys[j])
			b = append(b, ':')
			b = append(b, extra[keys[j]]...)
			j++
			continue
		}
		f := fields[i]
		fv := rv.FieldByIndex(f.index)
		i++
		if f.omit && absent(fv) {
			continue // a kept member of the name is written next
		}
		if j < len(keys) && keys[j] == f.name {
			j++ // the typed member wins
		}
		sep()
		b = wire.AppendString(b, f.name)
		b = append(b, ':')
		var err error
		if b, err = appendValue(b, fv); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return append(b, '}'), nil
}

// Members calls f with each member of the JSON object data, in order:
// its name and its value's bytes (a slice of data). data must be valid
// JSON (one the caller decoded already); f's error stops the walk.
func Members(data []byte, f func(name string, raw []byte) error) error {
	return members(data, f)
}

// DecodeExact reads the JSON value raw into v and tells whether v holds
// it exactly: whether json.Marshal writes v back as raw, or as the map
// encoder writes raw (json.Marshal of its decoding with UseNumber). A
// member v does not declare, a value of another type or form (a float or
// a string for an int, a differently cased name), or an optional member
// stored at the value its omitempty leaves out, gives false. A null
// where v has a nil slice or map reads as held: a caller for which null
// is not a form checks the nil itself.
func DecodeExact(raw []byte, v any) bool {
	if json.Unmarshal(raw, v) != nil {
		return false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	if bytes.Equal(b, raw) {
		return true
	}
	c, err := canonicalJSON(raw)
	return err == nil && bytes.Equal(b, c)
}

// Canonical is the JSON value raw as the map encoder writes it
// (json.Marshal of its decoding with UseNumber): the bytes a map document
// wrote for a member it held as decoded.
func Canonical(raw json.RawMessage) (json.RawMessage, error) {
	return canonicalJSON(raw)
}
