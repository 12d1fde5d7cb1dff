package engine

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/store"
)

// confFromMap is the conference whose stored document is doc's JSON, read
// as the engine reads a stored one: a test's document written as a map.
func confFromMap(t testing.TB, doc map[string]any) Conference {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	c, err := decode(store.Record{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
