package vc

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// namedTerm is a terminal read by id with the flags of its document, as
// the store holds doc.
func namedTerm(id string, doc map[string]any) namedTerminal {
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	tm, err := engine.DecodeTerminal(store.Record{Data: data})
	if err != nil {
		panic(err)
	}
	return namedTerminal{id: id, Terminal: tm}
}

// The flags a departure on a request's path writes (rolesLeft,
// mediaLeft) name the terminals by the id they were read by (a
// subordinate's "4.1", not its own "1"), and only the flags that change.
func TestLeaveFlagRules(t *testing.T) {
	off, on := model.Some(0), model.Some(1)
	for _, tc := range []struct {
		name       string
		ts         []namedTerminal
		mix        map[string]bool
		dual, many []engine.TerminalFlags
	}{
		{name: "none"},
		{name: "nothing set", ts: []namedTerminal{namedTerm("1", map[string]any{"mt_id": "1"})}},
		{name: "stored zeros", ts: []namedTerminal{namedTerm("1", map[string]any{"dual": 0, "mix": 0, "vmp": json.Number("0")})}},
		{
			name: "dual, mix and vmp cleared",
			ts:   []namedTerminal{namedTerm("2", map[string]any{"dual": 1, "mix": 1, "vmp": json.Number("1")})},
			dual: []engine.TerminalFlags{{MtID: "2", Dual: off}},
			many: []engine.TerminalFlags{{MtID: "2", Mix: off, VMP: off}},
		},
		{
			name: "the mix still names it",
			ts:   []namedTerminal{namedTerm("2", map[string]any{"mix": 0}), namedTerm("3", map[string]any{"mix": 1})},
			mix:  map[string]bool{"2": true, "3": true},
			many: []engine.TerminalFlags{{MtID: "2", Mix: on}},
		},
		{
			name: "a subordinate's terminal by its cascaded id",
			ts:   []namedTerminal{namedTerm("4.1", map[string]any{"mt_id": "1", "dual": 1, "vmp": 1})},
			dual: []engine.TerminalFlags{{MtID: "4.1", Dual: off}},
			many: []engine.TerminalFlags{{MtID: "4.1", VMP: off}},
		},
	} {
		if got := dualOff(tc.ts); !reflect.DeepEqual(got, tc.dual) {
			t.Errorf("%s: dualOff = %+v, want %+v", tc.name, got, tc.dual)
		}
		if got := mediaFlagsLeft(tc.ts, tc.mix); !reflect.DeepEqual(got, tc.many) {
			t.Errorf("%s: mediaFlagsLeft = %+v, want %+v", tc.name, got, tc.many)
		}
	}
}
