package validate

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/wire"
)

var testEP = &catalog.Endpoint{Name: "x.test", Style: catalog.Params, Params: []catalog.Param{
	{Name: "name", Kind: catalog.String, Required: true},
	{Name: "mode", Kind: catalog.Int, Enum: []int{1, 2}},
	{Name: "ratio", Kind: catalog.Number},
	{Name: "on", Kind: catalog.Bool},
	{Name: "tags", Kind: catalog.Array, Elem: catalog.String},
	{Name: "mix", Kind: catalog.Object, Fields: []catalog.Param{
		{Name: "members", Kind: catalog.Array, Elem: catalog.Object, Required: true, Fields: []catalog.Param{
			{Name: "account", Kind: catalog.String, Required: true},
		}},
	}},
	{Name: "mts", Kind: catalog.Array, Elem: catalog.Object, Fields: []catalog.Param{
		{Name: "bitrate", Kind: catalog.Int, Required: true},
		{Name: "poll", Kind: catalog.Object, Fields: []catalog.Param{{Name: "num", Kind: catalog.Int, Required: true}}},
	}},
}}

func args(t *testing.T, js string) *wire.Args {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return &wire.Args{Query: url.Values{}, Form: url.Values{}, Params: m}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name, params string
		want         []string // "path: message"
	}{
		{"valid", `{"name":"a","mode":2,"ratio":1.5,"on":true,"tags":["x"],"mix":{"members":[{"account":"m"}]},"mts":[{"bitrate":1}]}`, nil},
		{"missing required", `{}`, []string{"name: " + MsgMissing}},
		{"null is missing", `{"name":null}`, []string{"name: " + MsgMissing}},
		{"wrong scalar types", `{"name":{},"mode":"x","ratio":"y","on":"z"}`, []string{"name: " + MsgNotStr, "mode: " + MsgNotInt, "ratio: " + MsgNotNum, "on: " + MsgNotBool}},
		{"enumeration", `{"name":"a","mode":3}`, []string{"mode: value 3 is not one of [1 2]"}},
		{"scalar list", `{"name":"a","tags":["x",{}]}`, []string{"tags[1]: " + MsgNotStr}},
		{"nested object", `{"name":"a","mix":{"members":[{},{"account":"b"}]}}`, []string{"mix.members[0].account: " + MsgMissing}},
		{"object not an object", `{"name":"a","mix":[1]}`, []string{"mix: " + MsgNotObj}},
		{"list element fields", `{"name":"a","mts":[{"bitrate":1},{"poll":{}}]}`, []string{"mts[1].bitrate: " + MsgMissing, "mts[1].poll.num: " + MsgMissing}},
		{"list not a list", `{"name":"a","mts":{}}`, []string{"mts: " + MsgNotArr}},
		{"lenient coercion", `{"name":12,"mode":"2","mts":[{"bitrate":"64"}]}`, nil},
	}
	for _, tc := range tests {
		ps := Check(testEP, args(t, tc.params))
		var got []string
		for _, p := range ps {
			got = append(got, p.Path()+": "+p.Msg)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: Check = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCoercionNormalises(t *testing.T) {
	a := args(t, `{"name":12,"mode":"2","mts":[{"bitrate":"64"}]}`)
	if ps := Check(testEP, a); ps != nil {
		t.Fatal(ps)
	}
	if a.Params["name"] != "12" || a.Params["mode"] != json.Number("2") || a.Params["mts"].([]any)[0].(map[string]any)["bitrate"] != json.Number("64") {
		t.Fatalf("values not normalised: %v", a.Params)
	}
}

func TestFlat(t *testing.T) {
	ep := &catalog.Endpoint{Style: catalog.Query, Params: []catalog.Param{
		{Name: "count", Kind: catalog.Int}, {Name: "order", Kind: catalog.Int, Enum: []int{0, 1}}, {Name: "key", Kind: catalog.String, Required: true},
	}}
	a := &wire.Args{Query: url.Values{"count": {"x"}, "order": {"2"}}, Form: url.Values{}}
	var got []string
	for _, p := range Check(ep, a) {
		got = append(got, p.Path())
	}
	if strings.Join(got, ",") != "count,order,key" {
		t.Fatalf("flat problems = %v", got)
	}
}

func TestDebugListShape(t *testing.T) {
	a := args(t, `{"mts":[{"bitrate":1},{},{"bitrate":"x"}],"mix":{"members":[{}]}}`)
	dl := DebugList(a, Check(testEP, a))
	b, _ := json.Marshal(dl)
	want := `{"mix":{"members[0].account":"required parameter is missing"},"mts":[{},{"bitrate":"required parameter is missing"},{"bitrate":"must be an integer"}],"name":{"name":"required parameter is missing"}}`
	if string(b) != want {
		t.Fatalf("DebugList = %s\nwant %s", b, want)
	}
}

// FuzzCheck validates arbitrary JSON against a schema with every kind: it
// must never panic, and every problem must name a path.
func FuzzCheck(f *testing.F) {
	f.Add(`{"name":"a","mts":[{"bitrate":1,"poll":{"num":2}}]}`)
	f.Add(`{"mix":{"members":[{"account":[]}]},"tags":[1,null]}`)
	f.Add(`{"mts":[null,1,"x",{}],"on":2}`)
	f.Fuzz(func(t *testing.T, js string) {
		dec := json.NewDecoder(strings.NewReader(js))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil {
			return
		}
		a := &wire.Args{Query: url.Values{}, Form: url.Values{}, Params: m}
		ps := Check(testEP, a)
		for _, p := range ps {
			if p.Path() == "" || p.Msg == "" {
				t.Fatalf("problem without path or message: %+v", p)
			}
		}
		_ = DebugList(a, ps)
		_ = Error(ps)
	})
}

// A field that the caller's release lacks is never required.
func TestCheckAtSkipsAbsentFields(t *testing.T) {
	a := args(t, `{"mts":[{"poll":{}}]}`)
	absent := func(path string) bool { return path == "name" || path == "mts[].bitrate" }
	var got []string
	for _, p := range CheckAt(testEP, a, absent) {
		got = append(got, p.Path())
	}
	if strings.Join(got, ",") != "mts[0].poll.num" {
		t.Fatalf("CheckAt problems = %v, want only mts[0].poll.num", got)
	}
}

// Several problems are listed one per line after their count; one stays
// on one line (issue 22 item 1).
func TestErrorListsOneProblemPerLine(t *testing.T) {
	one := Error([]Problem{{Top: "name", Index: -1, Msg: MsgMissing}})
	if one.Desc != "parameter name: "+MsgMissing {
		t.Errorf("one problem: %q", one.Desc)
	}
	e := Error([]Problem{{Top: "name", Index: -1, Msg: MsgMissing}, {Top: "bitrate", Index: -1, Msg: MsgMissing}, {Top: "mts", Index: 0, Sub: "protocol", Msg: MsgMissing}})
	lines := strings.Split(e.Error(), "\n")
	if len(lines) != 4 || lines[0] != "3 parameters are invalid:" || lines[1] != "parameter name: "+MsgMissing ||
		!strings.HasPrefix(lines[3], "parameter mts[0].protocol: ") || !strings.HasSuffix(lines[3], "(90400)") {
		t.Errorf("three problems: %q", e.Error())
	}
}
