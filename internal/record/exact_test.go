package record

import "testing"

func TestDecodeExact(t *testing.T) {
	type s struct {
		A int      `json:"a"`
		B string   `json:"b,omitempty"`
		L []string `json:"l"`
	}
	for raw, want := range map[string]bool{
		`{"a":1,"l":[]}`:              true,
		`{ "l" : ["x"], "a" : 1 }`:    true, // a hand edit: the map document's bytes are written back
		`{"a":1,"b":"x","l":[]}`:      true,
		`{"a":1,"b":"","l":[]}`:       false, // omitempty leaves it out
		`{"a":1.0,"l":[]}`:            false,
		`{"a":"1","l":[]}`:            false,
		`{"A":1,"l":[]}`:              false,
		`{"a":1,"c":0,"l":[]}`:        false,
		`{"a":1}`:                     false,
		`{"a":-0,"l":[]}`:             false,
		`{"a":1,"b":"\u003c","l":[]}`: true,
		`{"a":1,"l":null}`:            true, // the caller checks a null list
		`null`:                        false,
	} {
		var v s
		if got := DecodeExact([]byte(raw), &v); got != want {
			t.Errorf("DecodeExact(%s) = %v, want %v", raw, got, want)
		}
	}
}
