package record_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// SetKept writes one member as DecodeKept reads it: into its field when
// the field holds the JSON exactly, else kept (canonical) with the field
// left absent; KeptMember reads it back either way, and the document is
// written as the map document with that member set would be.
func TestSetKeptAsDecodeKept(t *testing.T) {
	var d keptDoc
	extra, err := record.DecodeKept([]byte(`{"id":"7","name":"a","x":1}`), &d)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID.Set || string(extra["id"]) != `"7"` {
		t.Fatalf("a string id: field %+v, kept %s", d.ID, extra["id"])
	}
	for _, tc := range []struct{ name, raw, doc string }{
		{"id", `7`, `{"id":7,"name":"a","x":1}`},   // the field's form: typed, the kept copy dropped
		{"name", `12`, `{"id":7,"name":12,"x":1}`}, // another form: kept, the field absent
		{"inner", `{"a":1, "b":2}`, `{"id":7,"inner":{"a":1,"b":2},"name":12,"x":1}`},
		{"x", `"y"`, `{"id":7,"inner":{"a":1,"b":2},"name":12,"x":"y"}`},
	} {
		if extra, err = record.SetKept(&d, extra, tc.name, []byte(tc.raw)); err != nil {
			t.Fatal(err)
		}
		got, err := record.EncodeKept(&d, extra)
		if err != nil || string(got) != tc.doc {
			t.Fatalf("%s set to %s: %s (%v), want %s", tc.name, tc.raw, got, err, tc.doc)
		}
		want := mapWrite(t, `{"v":`+tc.raw+`}`)
		if raw, ok := record.KeptMember(&d, extra, tc.name); !ok || `{"v":`+string(raw)+`}` != want {
			t.Fatalf("%s reads back %s %v, want the value of %s", tc.name, raw, ok, want)
		}
	}
	if !d.ID.Set || d.Name.Set || d.Inner != nil {
		t.Fatalf("fields %+v", d)
	}
	d.ID = model.Opt[int]{} // a member dropped: its field absent, its kept copy deleted
	delete(extra, "name")
	if got, _ := record.EncodeKept(&d, extra); string(got) != `{"inner":{"a":1,"b":2},"x":"y"}` {
		t.Fatalf("after drops: %s", got)
	}
	if _, ok := record.KeptMember(&d, extra, "id"); ok {
		t.Fatal("a dropped member reads")
	}
}
