package engine

import (
	"testing"

	"github.com/confer-platform/confer/internal/shape"
)

// participantOf reads the same DocParticipant as decoding the whole
// document does, for every shape the field takes.
func TestParticipantOf(t *testing.T) {
	if DocParticipant != "_participant" {
		t.Fatalf("DocParticipant is %q: participantOf's field tag must follow it", DocParticipant)
	}
	for _, data := range []string{
		`{"mt_id":"1","_participant":"sip:alice@example.com","online":0}`,
		`{"mt_id":"2","online":0}`,
		`{"_participant":""}`,
		`{"_participant":null}`,
		`{"_participant":42,"alias":"x"}`,
		`{"_participant":{"a":1}}`,
		`{"alias":"a \"quoted\" _participant","_participant":"a\u00e9b"}`,
	} {
		doc, err := shape.Decode([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		want := str(doc[DocParticipant])
		got, err := participantOf([]byte(data))
		if err != nil || got != want {
			t.Errorf("participantOf(%s) = %q, %v; want %q", data, got, err, want)
		}
	}
	if _, err := participantOf([]byte(`{"_participant":`)); err == nil {
		t.Error("a cut document was read without an error")
	}
}
