package record

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/model"
)

type encInner struct {
	Z  int             `json:"z"`
	A  model.Opt[int]  `json:"a,omitzero"`
	Ls []string        `json:"ls,omitempty"`
	M  map[string]bool `json:"m,omitempty"`
}

type encBase struct {
	Name  string            `json:"name"`
	Opt   model.Opt[string] `json:"opt,omitzero"`
	Inner *encInner         `json:"inner,omitempty"`
	List  []encInner        `json:"list,omitempty"`
	Dup   int               `json:"dup"`
}

type encDoc struct {
	encBase
	ID  string  `json:"id"`
	Dup string  `json:"dup"` // the shallower member wins
	F   float64 `json:"f"`
}

// Encode writes members in name order, as json.Marshal writes a map, and
// leaves out only the absent ones (a present empty list stays).
func TestEncodeSortsAndKeepsPresence(t *testing.T) {
	d := encDoc{encBase: encBase{Name: "a<b>&é", Opt: model.Some(""), Inner: &encInner{Ls: []string{}},
		List: []encInner{{Z: 1, A: model.Some(0)}}, Dup: 3}, ID: "7", Dup: "x", F: 1.5}
	got, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "a<b>&é", "opt": "", "inner": map[string]any{"z": 0, "ls": []any{}},
		"list": []any{map[string]any{"z": 1, "a": 0}}, "id": "7", "dup": "x", "f": 1.5}
	wb, _ := json.Marshal(want)
	if string(got) != string(wb) {
		t.Fatalf("Encode = %s, want %s", got, wb)
	}
	var back encDoc
	if err := json.Unmarshal(got, &back); err != nil || back.Inner == nil || back.Inner.Ls == nil || !back.Opt.Set || back.Inner.A.Set {
		t.Fatalf("read back %+v, %v", back, err)
	}
	if again, _ := Encode(back); string(again) != string(got) {
		t.Fatalf("round trip %s, want %s", again, got)
	}
}
