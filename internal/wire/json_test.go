package wire

import (
	"encoding/json"
	"testing"
)

func TestAsJSONObject(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(`{"a":{"b":1},"c":[1],"d":"x"}`), &v); err != nil {
		t.Fatal(err)
	}
	top, ok := AsJSONObject(v)
	if !ok || len(top) != 3 {
		t.Fatalf("top: %v %v", top, ok)
	}
	a, ok := AsJSONObject(top["a"])
	if !ok || a["b"] != float64(1) {
		t.Fatalf("a: %v %v", a, ok)
	}
	a["e"] = 2 // the object read is the decoded one, not a copy
	if top["a"].(map[string]any)["e"] != 2 {
		t.Fatal("AsJSONObject copied the object")
	}
	for _, v := range []any{top["c"], top["d"], nil, 1} {
		if o, ok := AsJSONObject(v); ok || o != nil {
			t.Fatalf("AsJSONObject(%v) = %v, %v", v, o, ok)
		}
	}
	if o, ok := AsJSONObject(JSONObject{"x": 1}); !ok || o["x"] != 1 {
		t.Fatalf("JSONObject: %v %v", o, ok)
	}
}
