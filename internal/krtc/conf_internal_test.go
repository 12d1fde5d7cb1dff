package krtc

import (
	"reflect"
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
	c := engine.Conference{Doc: map[string]any{"kept": 1}}
	setFields(c, room)
	want := record.Stored(fieldsOf(room)).(map[string]any)
	want["kept"] = 1
	if !reflect.DeepEqual(c.Doc, want) {
		t.Fatalf("document = %v, want %v", c.Doc, want)
	}
}
