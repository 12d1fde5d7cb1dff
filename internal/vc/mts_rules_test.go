package vc

import "testing"

// An adding of terminals fits the conference's max_join_mt (20566), the
// platform's terminal ports and the user domain's share of them (20301),
// checked in that order, each to the last terminal.
func TestMtFits(t *testing.T) {
	room := mtRoom{Have: 6, MaxJoin: 8, All: 90, Ports: 100}
	shared := room
	shared.Shared, shared.DomainLeft = true, 1
	for _, tc := range []struct {
		name string
		room mtRoom
		n    int
		code int
	}{
		{"to the conference's last", room, 2, 0},
		{"one over the conference", room, 3, CodeMtsOverConf},
		{"the platform's last", mtRoom{Have: 0, MaxJoin: 192, All: 98, Ports: 100}, 2, 0},
		{"one over the platform", mtRoom{Have: 0, MaxJoin: 192, All: 99, Ports: 100}, 2, CodeMtsOverMCU},
		{"the conference first", mtRoom{Have: 8, MaxJoin: 8, All: 100, Ports: 100}, 1, CodeMtsOverConf},
		{"the share's last", shared, 1, 0},
		{"one over the share", shared, 2, CodeMtsOverMCU},
		{"no share: its room unread", mtRoom{MaxJoin: 8, Ports: 100, DomainLeft: 0}, 2, 0},
	} {
		if got := codeOf(mtFits("c1", tc.room, tc.n)); got != tc.code {
			t.Errorf("%s: code %d, want %d", tc.name, got, tc.code)
		}
	}
}
