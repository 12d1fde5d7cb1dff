package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// decodeInto decodes a reply into out. Replies follow the newest model, but
// a caller at an older API-Level gets some fields in their older JSON types
// (rec_id as a number, current_progress as a string: docs/compatibility.md),
// and platforms differ in quoting numbers; so when the strict decoding
// fails on a type, the reply is decoded leniently: numbers and numeric
// strings convert into each other, 0/1 into booleans, null into zero.
func decodeInto(raw []byte, out any) error {
	if isNil(out) {
		return nil
	}
	if dst, ok := out.(*json.RawMessage); ok {
		*dst = append((*dst)[:0], raw...)
		return nil
	}
	err := json.Unmarshal(raw, out)
	if err == nil {
		return nil
	}
	if _, typeErr := err.(*json.UnmarshalTypeError); !typeErr {
		return fmt.Errorf("confer: decoding the reply: %w", err)
	}
	var doc any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return fmt.Errorf("confer: decoding the reply: %w", err)
	}
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer {
		return fmt.Errorf("confer: decoding the reply into a non-pointer %T", out)
	}
	rv.Elem().SetZero()
	if err := assign(rv.Elem(), doc, ""); err != nil {
		return fmt.Errorf("confer: decoding the reply: %w", err)
	}
	return nil
}

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// assign stores the decoded JSON value x into v, converting scalars.
func assign(v reflect.Value, x any, at string) error {
	if x == nil {
		v.SetZero()
		return nil
	}
	if v.Type() == rawMessageType {
		b, err := json.Marshal(x)
		if err != nil {
			return err
		}
		v.SetBytes(b)
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return assign(v.Elem(), x, at)
	case reflect.Interface:
		if v.NumMethod() == 0 {
			v.Set(reflect.ValueOf(plain(x)))
			return nil
		}
	case reflect.String:
		switch t := x.(type) {
		case string:
			v.SetString(t)
			return nil
		case json.Number:
			v.SetString(t.String())
			return nil
		case bool:
			v.SetString(strconv.FormatBool(t))
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if f, ok := numeric(x); ok {
			v.SetInt(int64(f))
			return nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if f, ok := numeric(x); ok && f >= 0 {
			v.SetUint(uint64(f))
			return nil
		}
	case reflect.Float32, reflect.Float64:
		if f, ok := numeric(x); ok {
			v.SetFloat(f)
			return nil
		}
	case reflect.Bool:
		switch t := x.(type) {
		case bool:
			v.SetBool(t)
			return nil
		case json.Number, string:
			s := strings.ToLower(fmt.Sprint(t))
			v.SetBool(s == "1" || s == "true")
			return nil
		}
	case reflect.Slice:
		xs, ok := x.([]any)
		if !ok {
			break
		}
		s := reflect.MakeSlice(v.Type(), len(xs), len(xs))
		for i, el := range xs {
			if err := assign(s.Index(i), el, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Map:
		m, ok := x.(map[string]any)
		if !ok || v.Type().Key().Kind() != reflect.String {
			break
		}
		out := reflect.MakeMapWithSize(v.Type(), len(m))
		for k, el := range m {
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := assign(ev, el, join(at, k)); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), ev)
		}
		v.Set(out)
		return nil
	case reflect.Struct:
		m, ok := x.(map[string]any)
		if !ok {
			break
		}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name, _, ok := jsonName(t.Field(i))
			if !ok {
				continue
			}
			if el, present := m[name]; present {
				if err := assign(v.Field(i), el, join(at, name)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if at == "" {
		at = "reply"
	}
	return fmt.Errorf("%s: cannot store %s in a %s", at, jsonKind(x), v.Type())
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// numeric reads a number, a numeric string ("" is 0) or a boolean.
func numeric(x any) (float64, bool) {
	switch t := x.(type) {
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case float64:
		return t, true
	case string:
		if strings.TrimSpace(t) == "" {
			return 0, true
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		return f, err == nil
	case bool:
		if t {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// plain turns json.Number back into float64 for values stored in any.
func plain(x any) any {
	switch t := x.(type) {
	case json.Number:
		f, _ := t.Float64()
		return f
	case []any:
		for i := range t {
			t[i] = plain(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = plain(t[k])
		}
	}
	return x
}

func jsonKind(x any) string {
	switch x.(type) {
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}
