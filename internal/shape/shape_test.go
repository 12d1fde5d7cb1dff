package shape

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/wire"
)

func TestProject(t *testing.T) {
	schema := []catalog.Param{
		{Name: "name", Kind: catalog.String},
		{Name: "e164", Kind: catalog.String},
		{Name: "bitrate", Kind: catalog.Int},
		{Name: "speaker", Kind: catalog.Object, Fields: []catalog.Param{{Name: "account", Kind: catalog.String}}},
		{Name: "chairman", Kind: catalog.Object, Fields: []catalog.Param{{Name: "account", Kind: catalog.String}}},
		{Name: "mts", Kind: catalog.Array, Elem: catalog.Object, Fields: []catalog.Param{{Name: "mt_id", Kind: catalog.String}, {Name: "mute", Kind: catalog.Int}}},
		{Name: "formats", Kind: catalog.Array, Elem: catalog.Int},
	}
	doc, _ := Decode([]byte(`{"name":"n","e164":1234,"secret":"x","speaker":{"account":"a","extra":1},"mts":[{"mt_id":"1","hidden":2}],"formats":[1,2]}`))
	b, _ := json.Marshal(Project(doc, schema))
	want := `{"bitrate":0,"e164":"1234","formats":[1,2],"mts":[{"mt_id":"1","mute":0}],"name":"n","speaker":{"account":"a"}}`
	if string(b) != want {
		t.Fatalf("Project = %s\nwant %s", b, want)
	}
}

func TestList(t *testing.T) {
	schema := []catalog.Param{{Name: "confs", Kind: catalog.Array, Elem: catalog.Object,
		Fields: []catalog.Param{{Name: "name", Kind: catalog.String}, {Name: "bitrate", Kind: catalog.Int}}}}
	docs := []wire.JSONObject{{"name": "a", "bitrate": 1024, "password": "x"}, {}}
	b, err := json.Marshal(List(schema, "confs", docs))
	if want := `[{"bitrate":1024,"name":"a"},{"bitrate":0,"name":""}]`; err != nil || string(b) != want {
		t.Fatalf("List: %s %v, want %s", b, err, want)
	}
	if l := List(schema, "confs", nil); l == nil || len(l) != 0 {
		t.Fatalf("List of none: %#v, want an empty list", l)
	}
}
