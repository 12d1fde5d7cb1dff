package engine

import (
	"testing"
	"time"
)

// PollAt walks the members from the anchor, one keep_time each, skipping
// members that are not online, counting rounds from the origin.
func TestPollAt(t *testing.T) {
	all := func(int) bool { return true }
	not := func(off ...int) func(int) bool {
		return func(i int) bool {
			for _, o := range off {
				if i == o {
					return false
				}
			}
			return true
		}
	}
	s := time.Second
	for _, tc := range []struct {
		name   string
		a      PollAnchor
		online func(int) bool
		want   PollPosition
	}{
		{"first turn", PollAnchor{Members: 3, Keep: 10 * s, Elapsed: 9 * s}, all, PollPosition{Index: 0, InTurn: 9 * s}},
		{"second turn", PollAnchor{Members: 3, Keep: 10 * s, Elapsed: 15 * s}, all, PollPosition{Index: 1, InTurn: 5 * s}},
		{"wraps and counts a round", PollAnchor{Members: 3, Keep: 10 * s, Elapsed: 31 * s}, all, PollPosition{Index: 0, Rounds: 1, InTurn: s}},
		{"skips an offline member", PollAnchor{Members: 3, Keep: 10 * s, Elapsed: 10 * s}, not(1), PollPosition{Index: 2}},
		{"offline anchor hands over at once", PollAnchor{Members: 3, Keep: 10 * s, Index: 1, Elapsed: 2 * s}, not(1), PollPosition{Index: 2, InTurn: 2 * s}},
		{"num rounds done", PollAnchor{Members: 3, Num: 1, Keep: 10 * s, Elapsed: 30 * s}, all, PollPosition{Rounds: 1, Done: true}},
		{"last turn of the last round", PollAnchor{Members: 3, Num: 1, Keep: 10 * s, Elapsed: 29 * s}, all, PollPosition{Index: 2, InTurn: 9 * s}},
		{"rounds count from the origin", PollAnchor{Members: 3, Origin: 2, Index: 2, Num: 1, Keep: 10 * s, Elapsed: 25 * s}, all, PollPosition{Index: 1, InTurn: 5 * s}},
		{"skipped members shorten a round", PollAnchor{Members: 3, Num: 2, Keep: 10 * s, Elapsed: 40 * s}, not(2), PollPosition{Rounds: 2, Done: true}},
		{"none online", PollAnchor{Members: 2, Keep: 10 * s, Elapsed: 40 * s}, not(0, 1), PollPosition{InTurn: 40 * s, None: true}},
	} {
		got := PollAt(tc.a, tc.online)
		if got != tc.want {
			t.Errorf("%s: PollAt = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
