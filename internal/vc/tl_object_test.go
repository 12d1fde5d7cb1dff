package vc

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/record"
)

// tlObject tells a stored object, decoded or stored from a type, from
// anything else, and an empty one from one with members.
func TestTLObject(t *testing.T) {
	for _, tc := range []struct {
		name         string
		v            any
		nonEmpty, ok bool
	}{
		{"decoded object", map[string]any{"mode": json.Number("1")}, true, true},
		{"empty object", map[string]any{}, false, true},
		{"stored from a type", record.Stored(playback{FileID: 3}), true, true},
		{"list", []any{map[string]any{"a": 1}}, false, false},
		{"string", "{}", false, false},
		{"null", nil, false, false},
	} {
		if nonEmpty, ok := tlObject(tc.v); nonEmpty != tc.nonEmpty || ok != tc.ok {
			t.Errorf("%s: tlObject = %v, %v; want %v, %v", tc.name, nonEmpty, ok, tc.nonEmpty, tc.ok)
		}
	}
}
