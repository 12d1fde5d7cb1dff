package validate

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/confer-platform/confer/internal/wire"
)

// TestDebugListBytes pins the bytes debug_list is written with (seed 000
// "Errors" 3): captured from the map DebugList built before it was typed.
func TestDebugListBytes(t *testing.T) {
	args := &wire.Args{Query: url.Values{}, Form: url.Values{}, Params: map[string]any{
		"mts": []any{map[string]any{}, map[string]any{}, map[string]any{}},
	}}
	for _, c := range []struct {
		name string
		ps   []Problem
		want string
	}{
		{"none", nil, `{}`},
		{"top", []Problem{{Top: "name", Index: -1, Msg: MsgMissing}},
			`{"name":{"name":"required parameter is missing"}}`},
		{"nested", []Problem{{Top: "vmp", Index: -1, Sub: "layout", Msg: MsgNotInt}, {Top: "vmp", Index: -1, Sub: "mode", Msg: MsgMissing}},
			`{"vmp":{"layout":"must be an integer","mode":"required parameter is missing"}}`},
		{"list", []Problem{{Top: "mts", Index: 1, Sub: "bitrate", Msg: MsgMissing}, {Top: "mts", Index: 2, Sub: "bitrate", Msg: MsgNotInt}, {Top: "name", Index: -1, Msg: MsgMissing}},
			`{"mts":[{},{"bitrate":"required parameter is missing"},{"bitrate":"must be an integer"}],"name":{"name":"required parameter is missing"}}`},
		{"list then top", []Problem{{Top: "mts", Index: 0, Sub: "a", Msg: MsgMissing}, {Top: "mts", Index: -1, Msg: MsgNotArr}},
			`{"mts":{"mts":"must be a JSON array"}}`},
		{"top then list", []Problem{{Top: "mts", Index: -1, Sub: "x", Msg: MsgNotArr}, {Top: "mts", Index: 0, Sub: "a", Msg: MsgMissing}},
			`{"mts":[{"a":"required parameter is missing"},{},{}]}`},
		{"html", []Problem{{Top: "a<b", Index: -1, Msg: "x&y"}},
			`{"a\u003cb":{"a\u003cb":"x\u0026y"}}`},
	} {
		b, err := json.Marshal(DebugList(args, c.ps))
		if err != nil || string(b) != c.want {
			t.Errorf("%s: %s %v, want %s", c.name, b, err, c.want)
		}
		o, err := wire.MarshalObject(wire.Object{"debug_list": DebugList(args, c.ps), "success": 1})
		if want := `{"success":1,"debug_list":` + c.want + `}`; err != nil || string(o) != want {
			t.Errorf("%s: reply %s %v, want %s", c.name, o, err, want)
		}
	}
}
