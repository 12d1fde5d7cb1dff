package shape

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Encode writes exactly what json.Marshal writes.
func TestEncodeMatchesMarshal(t *testing.T) {
	docs := []map[string]any{
		nil,
		{},
		{"name": "plain", "b": "a<b>&c", "q": "quote\" back\\ \n tab\t", "u": "中文 \u2028 \u2029", "bad": "\xff\xfe",
			"n": 3, "i64": int64(-9007199254740993), "f": 1.5, "big": 1e21, "small": 1e-7, "t": true, "f0": false, "nil": nil,
			"num": json.Number("12"), "neg": json.Number("-0"), "dec": json.Number("12.50"), "exp": json.Number("1e3"), "zero": json.Number("0")},
		{"nested": map[string]any{"z": 1, "a": []any{1, "x", map[string]any{"y": false}, nil, []any{}}},
			"list": []map[string]any{{"mt_id": "1"}}, "strs": []string{"a"}, "smap": map[string]string{"k": "v"},
			"nilmap": map[string]any(nil), "nilslice": []any(nil), "empty": []any{}, "": "empty key", "<k>": 1},
	}
	for i, d := range docs {
		got, err := Encode(d)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(d)
		if !bytes.Equal(got, want) {
			t.Fatalf("doc %d:\nEncode      %s\njson.Marshal %s", i, got, want)
		}
	}
	for _, bad := range []any{json.Number("x1"), make(chan int)} {
		if _, err := Encode(map[string]any{"v": bad}); err == nil {
			t.Fatalf("Encode(%v) did not fail as json.Marshal does", bad)
		}
	}
}
