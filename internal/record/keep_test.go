package record

import (
	"encoding/json"
	"testing"
)

func TestKeepStored(t *testing.T) {
	for _, c := range []struct{ name, stored, seen, changed, want string }{
		{"stored by Encode", `{"a":1,"b":{"c":2}}`, `{"a":1,"b":{"c":2}}`, `{"a":3,"b":{"c":2},"d":[]}`, `{"a":3,"b":{"c":2},"d":[]}`},
		{"unknown top member", `{"a":1,"x":{"k":[1,null]}}`, `{"a":1}`, `{"a":2}`, `{"a":2,"x":{"k":[1,null]}}`},
		{"unknown nested member, not changed", `{"b":{"c":2,"x":"k"},"n":8.0}`, `{"b":{"c":2},"n":8}`, `{"b":{"c":2},"n":8,"z":"<"}`, `{"b":{"c":2,"x":"k"},"n":8.0,"z":"<"}`},
		{"nested member changed", `{"b":{"c":2,"x":"k"}}`, `{"b":{"c":2}}`, `{"b":{"c":3}}`, `{"b":{"c":3}}`},
		{"unknown member set by the change", `{"a":1,"x":0}`, `{"a":1}`, `{"a":1,"x":5}`, `{"a":1,"x":5}`},
	} {
		got, err := KeepStored([]byte(c.stored), []byte(c.seen), []byte(c.changed))
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s, %v; want %s", c.name, got, err, c.want)
		}
	}
}

func TestMerge(t *testing.T) {
	drop := func(layer int, name string, raw json.RawMessage) bool {
		return layer == 0 && name == "id" || layer == 1 && string(raw) == "null"
	}
	got, err := Merge(drop, []byte(`{"id":"1","n":8.0,"x":{"k":[1,null]},"z":"a"}`), []byte(`{"a":"\u003c","n":null,"z":"b"}`))
	if want := `{"a":"\u003c","n":8.0,"x":{"k":[1,null]},"z":"b"}`; err != nil || string(got) != want {
		t.Errorf("Merge = %s, %v; want %s", got, err, want)
	}
	if _, err := Merge(nil, []byte(`[1]`)); err == nil {
		t.Error("Merge of a list: no error")
	}
}
