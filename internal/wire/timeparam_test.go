package wire

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	local := time.Date(2026, 11, 25, 5, 10, 0, 0, time.Local)
	for _, tc := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-11-25T05:10:00+08:00", time.Date(2026, 11, 25, 5, 10, 0, 0, time.FixedZone("", 8*3600)), true},
		{"2026-11-25T05:10:00Z", time.Date(2026, 11, 25, 5, 10, 0, 0, time.UTC), true},
		{" 2026-11-25T05:10:00.5+00:00 ", time.Date(2026, 11, 25, 5, 10, 0, 5e8, time.UTC), true},
		{"2026-11-25 05:10:00", local, true}, // the published 6.x client's form
		{"2026-11-25T05:10:00", local, true},
		{"2026-11-25", time.Time{}, false},
		{"tomorrow", time.Time{}, false},
		{"2026-13-25 05:10:00", time.Time{}, false},
	} {
		got, err := ParseTime(tc.in)
		if (err == nil) != tc.ok || (tc.ok && !got.Equal(tc.want)) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
