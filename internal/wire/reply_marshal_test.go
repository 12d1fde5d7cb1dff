package wire

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"
)

// marshalReference is MarshalObject as it was written before its fast
// paths: every key and value through json.Marshal, the envelope first.
func marshalReference(o Object) ([]byte, error) {
	var keys []string
	for k := range o {
		if k != "success" && k != "error_code" && k != "description" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for _, k := range append(append([]string{}, envelopeKeys...), keys...) {
		v, ok := o[k]
		if !ok {
			continue
		}
		vb, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		kb, _ := json.Marshal(k)
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// MarshalObject writes the bytes of the reference for every kind of value
// and every string that needs an escape.
func TestMarshalObjectMatchesReference(t *testing.T) {
	strs := []string{"", "plain", `quo"te`, `back\slash`, "<b>&amp;</b>", "tab\there", "nl\n", "ctl\x01", "del\x7f",
		"中文会议", "bad \xff utf8", "\u2028\u2029", "emoji 😀", "a/b", "'single'"}
	objs := []Object{
		{"success": 1},
		{"success": 0},
		{"success": 1, "conf_id": "1110000"},
		{"success": 0, "error_code": 20301, "description": "no such conference <x> & \"y\" (20301)"},
		{"success": 1, "total": 100, "n64": int64(-7), "f": 1.5, "b": true, "nil": nil, "list": []any{1, "x", Object{"k": "<"}}},
		{"mt_id": "", "success": 1, "zz": uint8(3), "aa": json.Number("12")},
	}
	for _, s := range strs {
		objs = append(objs, Object{"success": 1, s: s, "v" + s: []any{s}})
	}
	for _, o := range objs {
		want, werr := marshalReference(o)
		got, gerr := MarshalObject(o)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Errorf("MarshalObject(%v) = %s, %v; want %s, %v", o, got, gerr, want, werr)
		}
	}
	if _, err := MarshalObject(Object{"success": 1, "bad": func() {}}); err == nil {
		t.Error("a function value encoded without an error")
	}
}

// BenchmarkWriteSuccessEmpty encodes the reply of most writes,
// {"success":1}.
func BenchmarkWriteSuccessEmpty(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		WriteJSON(discardWriter{}, Success(nil))
	}
}

// BenchmarkWriteSuccessSmall encodes a small fixed reply ({"mt_id": ...}).
func BenchmarkWriteSuccessSmall(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		WriteJSON(discardWriter{}, Success(Object{"mt_id": "3", "conf_id": "1110000"}))
	}
}
