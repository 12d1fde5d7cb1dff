package wire

import (
	"bytes"
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
func MarshalObject(o Object) ([]byte, error) {
	keys := make([]string, 0, len(o))
	for k := range o {
		if k != "success" && k != "error_code" && k != "description" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	first := true
	put := func(k string, v any) error {
		vb, err := json.Marshal(v)
		if err != nil {
			return err
		}
		kb, _ := json.Marshal(k)
		if !first {
			buf.WriteByte(',')
		}
		first = false
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
		return nil
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
	buf.WriteByte('}')
	return buf.Bytes(), nil
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
	for k, v := range e.Extra {
		o[k] = v
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
