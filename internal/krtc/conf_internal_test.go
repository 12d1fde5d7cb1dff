package krtc

import (
	"encoding/json"
	"github.com/confer-platform/confer/internal/store"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// setFields writes every member of roomFields, each as a stored document
// holds it (the members of record.Stored of the type, which it wrote
// before it named them).
func TestSetFieldsWritesEveryMember(t *testing.T) {
	room := model.Room{RoomName: "hall", MaxJoinMt: 32, Bitrate: 1024, RoomType: 1, Format: 5, Resolution: 13, Frame: 25}
	c := confOfDoc(t, map[string]any{"kept": 1})
	setFields(&c, room)
	want := record.Stored(fieldsOf(room)).(map[string]any)
	want["kept"] = 1
	got, err := json.Marshal(c.Document()) // as the document is stored
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := json.Marshal(want); string(got) != string(w) {
		t.Fatalf("document = %s, want %s", got, w)
	}
}

// confOfDoc is the conference whose stored document is doc's JSON, read
// as the engine reads a stored one.
func confOfDoc(t testing.TB, doc map[string]any) engine.Conference {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.DecodeConference(store.Record{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
