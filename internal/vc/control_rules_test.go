package vc

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// code is the platform code of a rule's error, 0 for none.
func code(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var we *wire.Error
	if !errors.As(err, &we) {
		t.Fatalf("%v is not a wire error", err)
	}
	return we.Code
}

func TestMtPresence(t *testing.T) {
	for _, tc := range []struct {
		found  bool
		state  string
		online bool
		want   int
	}{
		{false, "", false, wire.CodeMTNotFound},
		{false, "", true, wire.CodeMTNotFound},
		{true, engine.StateOnline, true, 0},
		{true, "offline", true, CodeMtUnreachable},
		{true, "calling", true, CodeMtUnreachable},
		{true, "offline", false, 0},
	} {
		if got := code(t, mtPresence("1234567", "3", tc.found, tc.state, tc.online)); got != tc.want {
			t.Errorf("found %v state %q online %v: code %d, want %d", tc.found, tc.state, tc.online, got, tc.want)
		}
	}
}

func TestBatchIDs(t *testing.T) {
	mts := func(ids ...string) []model.VCConfsSMSSendRequestMt {
		out := []model.VCConfsSMSSendRequestMt{}
		for _, id := range ids {
			out = append(out, model.VCConfsSMSSendRequestMt{MtID: id})
		}
		return out
	}
	got, err := batchIDs(mts("2", "1", "2", "4.1"))
	if err != nil || !slices.Equal(got, []string{"2", "1", "4.1"}) {
		t.Errorf("batchIDs = %v, %v; want [2 1 4.1] in order without repeats", got, err)
	}
	for _, l := range [][]model.VCConfsSMSSendRequestMt{nil, mts(), mts("1", "")} {
		if _, err := batchIDs(l); code(t, err) != wire.CodeInvalidParam {
			t.Errorf("batchIDs(%v): %v, want 90400", l, err)
		}
	}
}

func TestMuteAllOf(t *testing.T) {
	roles := engine.Roles{Speaker: "1", Chairman: "3"}
	mute := func(v int, force ...int) model.VCConfsMuteUpdateRequest {
		q := model.VCConfsMuteUpdateRequest{Value: v}
		if len(force) > 0 {
			q.ForceMute = model.Some(force[0])
		}
		return q
	}
	for _, tc := range []struct {
		name   string
		q      model.VCConfsMuteUpdateRequest
		filter int
		roles  engine.Roles
		want   muteAll
	}{
		{"mute, forced", mute(1, 1), 0, roles, muteAll{1, 1, map[string]bool{}}},
		{"mute, force not sent", mute(1), 0, roles, muteAll{1, 0, map[string]bool{}}},
		{"unmute clears force", mute(0, 1), 1, roles, muteAll{0, 0, map[string]bool{}}},
		{"filter spares speaker and chairman", mute(1), 1, roles, muteAll{1, 0, map[string]bool{"1": true, "3": true}}},
		{"filter without roles", mute(1), 1, engine.Roles{Chairman: "2"}, muteAll{1, 0, map[string]bool{"2": true}}},
	} {
		got := muteAllOf(tc.q, tc.filter, tc.roles)
		if got.Mute != tc.want.Mute || got.ForceMute != tc.want.ForceMute || !equalSets(got.Spare, tc.want.Spare) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func equalSets(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func TestAudioTargets(t *testing.T) {
	term := func(id, state string, mute any) engine.Terminal {
		doc := map[string]any{"mt_id": id}
		if mute != nil {
			doc[flagMute] = mute
		}
		data, _ := json.Marshal(doc)
		tm, err := engine.DecodeTerminal(store.Record{State: state, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	ts := []engine.Terminal{
		term("1", engine.StateOnline, 0),
		term("2", engine.StateOnline, 1),   // muted already
		term("3", engine.StateOnline, 0),   // spared
		term("4", "offline", 0),            // not in the call
		term("5", engine.StateOnline, nil), // never set
		term("6", engine.StateOnline, "x"), // unreadable: set
	}
	got := audioTargets(ts, flagMute, 1, map[string]bool{"3": true})
	if !slices.Equal(got, []string{"1", "5", "6"}) {
		t.Errorf("mute targets = %v, want [1 5 6]", got)
	}
	if got := audioTargets(ts, flagMute, 0, nil); !slices.Equal(got, []string{"2", "5", "6"}) {
		t.Errorf("unmute targets = %v, want [2 5 6]", got)
	}
}

func TestDualRules(t *testing.T) {
	for _, tc := range []struct {
		source, mtID string
		want         bool
	}{{"2", "2", true}, {"2", "", true}, {"", "", true}, {"2", "3", false}, {"", "3", false}} {
		if got := dualCancels(tc.source, tc.mtID); got != tc.want {
			t.Errorf("dualCancels(%q, %q) = %v, want %v", tc.source, tc.mtID, got, tc.want)
		}
	}
	for _, tc := range []struct{ prev, next, off, on string }{
		{"1", "2", "1", "2"}, {"", "2", "", "2"}, {"2", "2", "", "2"}, {"2", "", "2", ""}, {"", "", "", ""},
	} {
		if off, on := dualMoves(tc.prev, tc.next); off != tc.off || on != tc.on {
			t.Errorf("dualMoves(%q, %q) = %q, %q; want %q, %q", tc.prev, tc.next, off, on, tc.off, tc.on)
		}
	}
}
