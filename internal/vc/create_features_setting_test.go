package vc

import (
	"encoding/json"
	"github.com/confer-platform/confer/internal/store"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
)

// TestCreatedSettingReadsByPresence: the creation's vmp and poll decode
// from the conference document into mc's creation types, and the members
// mc does not declare (except_self, members_type) or that older releases
// did not send (the poll's mode) are read as record.IntOK read them: an
// integer or a string holding one, absent for anything else.
func TestCreatedSettingReadsByPresence(t *testing.T) {
	var doc map[string]any
	d := json.NewDecoder(strings.NewReader(`{
		"vmp": {"mode": 1, "layout": 5, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
			"except_self": "1",
			"mt_name_style": {"font_size": 2, "font_color": "#00FF00"},
			"members": [
				{"chn_idx": 0, "member_type": 1, "account": "a"},
				{"chn_idx": 1, "members_type": 2},
				{"chn_idx": 2, "member_type": 3, "members_type": "x"},
				"not an object"
			]},
		"poll": {"num": 0, "keep_time": 10, "members": [{"name": "n", "account": "a", "account_type": 7}]},
		"poll2": {"num": 0, "keep_time": 10, "mode": "3", "members": []}
	}`))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	c := confOfDoc(t, doc)
	var vmp createdVMPSetting
	c.Member("vmp", &vmp) // best effort, as createdApply reads it
	if vmp.Mode != 1 || vmp.Layout != 5 || vmp.Broadcast != 1 || vmp.ShowMtName != 1 || vmp.ExceptSelf.Or(-1) != 1 {
		t.Errorf("vmp = %+v", vmp)
	}
	if s := vmp.MtNameStyle; s == nil || s.FontSize.Or(-1) != 2 || s.FontColor.Or("") != "#00FF00" || s.Position.Set {
		t.Errorf("mt_name_style = %+v", s)
	}
	if len(vmp.Members) != 4 {
		t.Fatalf("members = %+v", vmp.Members)
	}
	for i, want := range []struct {
		mt, mts, chn int
		mtSet, ok    bool
	}{{1, 0, 0, true, false}, {0, 2, 1, false, true}, {3, 0, 2, true, false}, {0, 0, 0, false, false}} {
		m := vmp.Members[i]
		if m.MemberType.Set != want.mtSet || m.MemberType.Value != want.mt || m.MembersType.Set != want.ok || m.MembersType.Value != want.mts || m.ChnIdx != want.chn {
			t.Errorf("members[%d] = %+v, want %+v", i, m, want)
		}
	}
	if vmp.Members[0].Account.Or("") != "a" {
		t.Errorf("members[0].account = %+v", vmp.Members[0].Account)
	}
	var poll, poll2 createdPollSetting
	c.Member("poll", &poll)
	c.Member("poll2", &poll2)
	if poll.Mode.Set || poll.KeepTime != 10 || len(poll.Members) != 1 || poll.Members[0].Account != "a" {
		t.Errorf("poll = %+v", poll)
	}
	if m, ok := poll2.Mode.Get(); !ok || m != 3 {
		t.Errorf("poll mode %q = %v %v, want 3", "3", m, ok)
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
