package record

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Encode writes a typed document as the store holds the documents that
// were maps: an object's members in name order (the order json.Marshal
// writes a map's keys in, so a document keeps its stored bytes when it
// becomes a type), strings with json.Marshal's escapes. A member tagged
// omitempty or omitzero is left out when it is absent: an unset
// model.Opt (its IsZero), a nil pointer, list or map; a list that is
// present but empty is written ([]), as a request that sent one is
// stored. Embedded structs' members are the document's own, as in
// encoding/json. A value that marshals itself (json.Marshaler, such as
// model.Opt) is written by its MarshalJSON.
func Encode(v any) ([]byte, error) {
	return appendValue(make([]byte, 0, 1024), reflect.ValueOf(v))
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

type encField struct {
	name  string
	index []int
	omit  bool // omitempty or omitzero: left out when absent
}

var encFields sync.Map // reflect.Type -> []encField

// fieldsOf lists a struct type's JSON members in name order, those of
// embedded structs included (a shallower member wins a name).
func fieldsOf(t reflect.Type) []encField {
	if fs, ok := encFields.Load(t); ok {
		return fs.([]encField)
	}
	var out []encField
	seen := map[string]int{} // name -> depth
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			idx := append(slices.Clone(index), i)
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type, idx, depth+1)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if d, ok := seen[name]; ok && d <= depth {
				continue
			}
			seen[name] = depth
			out = slices.DeleteFunc(out, func(e encField) bool { return e.name == name })
			out = append(out, encField{name: name, index: idx,
				omit: strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")})
		}
	}
	walk(t, nil, 0)
	slices.SortFunc(out, func(a, b encField) int { return strings.Compare(a.name, b.name) })
	encFields.Store(t, out)
	return out
}

// absent tells whether an omittable member is left out.
func absent(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return v.IsNil()
	}
	iv := v
	if v.CanAddr() {
		iv = v.Addr() // a pointer in an interface: no copy of the value
	}
	if z, ok := iv.Interface().(interface{ IsZero() bool }); ok {
		return z.IsZero()
	}
	return v.IsZero()
}

func appendValue(b []byte, v reflect.Value) ([]byte, error) {
	if !v.IsValid() {
		return append(b, "null"...), nil
	}
	if v.CanAddr() {
		switch p := v.Addr().Interface().(type) { // the common members, written as their Marshaler writes them
		case *model.Opt[int]:
			if p.Set {
				return strconv.AppendInt(b, int64(p.Value), 10), nil
			}
		case *model.Opt[string]:
			if p.Set {
				return wire.AppendString(b, p.Value), nil
			}
		}
	}
	if v.Type().Implements(marshalerType) && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		mb, err := v.Interface().(json.Marshaler).MarshalJSON()
		return append(b, mb...), err
	}
	switch v.Kind() {
	case reflect.String:
		return wire.AppendString(b, v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		return appendValue(b, v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			break // []byte: base64, as encoding/json
		}
		fallthrough
	case reflect.Array:
		b = append(b, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendValue(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case reflect.Struct:
		b = append(b, '{')
		first := true
		for _, f := range fieldsOf(v.Type()) {
			fv := v.FieldByIndex(f.index)
			if f.omit && absent(fv) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = wire.AppendString(b, f.name)
			b = append(b, ':')
			var err error
			if b, err = appendValue(b, fv); err != nil {
				return nil, fmt.Errorf("%s: %w", f.name, err)
			}
		}
		return append(b, '}'), nil
	}
	mb, err := json.Marshal(v.Interface()) // maps (sorted), floats, []byte
	return append(b, mb...), err
}
