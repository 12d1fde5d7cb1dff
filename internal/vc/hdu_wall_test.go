package vc

import (
	"strconv"
	"testing"
	"time"
)

// A registered wall's document reads as the map reader read it: seen
// (null too) decides when it is there, else the online flag, an absent or
// unreadable one online.
func TestStoredWallOnline(t *testing.T) {
	now := time.UnixMilli(1_000_000_000)
	recent, old := now.Add(-time.Second).UnixMilli(), now.Add(-wallOnlineFor-time.Second).UnixMilli()
	for _, tc := range []struct {
		doc  string
		name string
		want bool
	}{
		{`{"hdu_name":"a","seen":` + itoa(recent) + `}`, "a", true},
		{`{"hdu_name":"a","seen":` + itoa(old) + `,"online":1}`, "a", false},
		{`{"hdu_name":7,"seen":null,"online":1}`, "7", false},
		{`{"hdu_name":{},"seen":0}`, "", false},
		{`{"seen":"` + itoa(recent) + `"}`, "", true},
		{`{"online":0}`, "", false},
		{`{"online":1}`, "", true},
		{`{"online":"no"}`, "", true},
		{`{}`, "", true},
	} {
		w, err := decodeWall([]byte(tc.doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		if got := w.online(now); got != tc.want || string(w.Name) != tc.name {
			t.Errorf("%s: online %v name %q, want %v %q", tc.doc, got, w.Name, tc.want, tc.name)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
