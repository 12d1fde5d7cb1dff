package wire

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
)

// ContentType of every reply (reference 01-conventions 3.4).
const ContentType = "application/json; charset=UTF-8"

// Object is a reply body before the envelope fields are added.
type Object = map[string]any

// WriteJSON writes v as the reply body with HTTP 200. An Object is written
// with the envelope fields success, error_code and description first, as
// the platform writes them, and the other fields in name order.
func WriteJSON(w http.ResponseWriter, v any) {
	var b []byte
	var err error
	if o, ok := v.(Object); ok {
		b, err = MarshalObject(o)
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		b = []byte(`{"success":0,"error_code":99999,"description":"system error (99999)"}`)
	}
	h := w.Header()
	h.Set("Content-Type", ContentType)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

var envelopeKeys = []string{"success", "error_code", "description"}

// MarshalObject encodes a reply object with the envelope fields first.
// It writes the bytes encoding/json writes for each key and value
// (reply_test.go compares them); integers and plain strings are appended
// directly, the rest goes through json.Marshal.
func MarshalObject(o Object) ([]byte, error) {
	if len(o) == 1 {
		if v, ok := o["success"].(int); ok && v == 1 {
			return []byte(`{"success":1}`), nil // the reply of most writes
		}
	}
	var kbuf [16]string
	keys := kbuf[:0]
	for k := range o {
		if k != "success" && k != "error_code" && k != "description" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	b := make([]byte, 0, 64+32*len(o))
	b = append(b, '{')
	first := true
	put := func(k string, v any) error {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = AppendString(b, k)
		b = append(b, ':')
		var err error
		b, err = appendValue(b, v)
		return err
	}
	for _, k := range envelopeKeys {
		if v, ok := o[k]; ok {
			if err := put(k, v); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range keys {
		if err := put(k, o[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendValue appends v as json.Marshal encodes it.
func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case string:
		return AppendString(b, x), nil
	}
	vb, err := json.Marshal(v)
	return append(b, vb...), err
}

// AppendString appends s quoted as json.Marshal quotes it: directly when
// no byte needs an escape (printable ASCII other than '"', '\\' and the
// HTML characters '<', '>', '&' that encoding/json escapes).
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Success returns fields with success=1 set.
func Success(fields Object) Object {
	if fields == nil {
		fields = Object{}
	}
	fields["success"] = 1
	return fields
}

// Failure returns the envelope of a failed operation.
func Failure(e *Error) Object {
	o := Object{}
	if l := e.Lockout; l != nil {
		if l.MaxLockNum != nil {
			o["maxlocknum"] = *l.MaxLockNum
		}
		if l.CurrentNum != nil {
			o["currentnum"] = *l.CurrentNum
		}
		if l.UnlockUnix != nil {
			o["unlocktime"] = *l.UnlockUnix
		} else {
			o["unlocktime"] = l.UnlockTime
		}
	}
	o["success"] = 0
	o["error_code"] = e.Code
	o["description"] = e.Desc + " (" + strconv.Itoa(e.Code) + ")"
	return o
}

// WriteError writes the failure envelope for err.
func WriteError(w http.ResponseWriter, err error) {
	WriteJSON(w, Failure(AsError(err)))
}
