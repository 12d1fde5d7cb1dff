package model

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/wire"
)

// Booleans and numbers are read from decoded JSON and from the text of a
// flat parameter alike; anything else is refused.
func TestScalarReaders(t *testing.T) {
	for _, v := range []value{{v: true}, {v: json.Number("1")}, {v: "true"}, {text: "1", flat: true}, {text: "TRUE", flat: true}} {
		if b, err := asBool("b", v); err != nil || !b {
			t.Errorf("asBool(%+v) = %v, %v", v, b, err)
		}
	}
	for _, v := range []value{{v: json.Number("2")}, {v: ""}, {text: "yes", flat: true}} {
		if _, err := asBool("b", v); err == nil {
			t.Errorf("asBool(%+v) accepted", v)
		}
	}
	for _, v := range []value{{v: 1.5}, {v: json.Number("1.5")}, {v: "1.5"}, {text: " 1.5", flat: true}} {
		if f, err := asNumber("n", v); err != nil || f != 1.5 {
			t.Errorf("asNumber(%+v) = %v, %v", v, f, err)
		}
	}
	for _, v := range []value{{v: true}, {v: ""}, {text: "x", flat: true}} {
		if _, err := asNumber("n", v); err == nil {
			t.Errorf("asNumber(%+v) accepted", v)
		}
	}
	if n, err := asInt("i", value{text: " 7", flat: true}); err != nil || n != 7 {
		t.Errorf("asInt = %v, %v", n, err)
	}
	if s, err := asString("s", value{v: json.Number("12")}); err != nil || s != "12" {
		t.Errorf("asString = %q, %v", s, err)
	}
}

// Reading a flat parameter allocates nothing.
func TestFlatDecodeAllocs(t *testing.T) {
	a := argsOf(map[string][]string{"start": {"5"}, "count": {"20"}, "own_conf": {"1"}})
	if n := testing.AllocsPerRun(100, func() {
		var q VCConfsListRequest
		if err := q.Decode(a); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func argsOf(q map[string][]string) *wire.Args { return &wire.Args{Query: q} }
