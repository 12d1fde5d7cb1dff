package paging

import (
	"fmt"
	"math"
	"net/url"
	"testing"
)

// The readings each module had before they shared this package.
func TestReadAsTheModulesDid(t *testing.T) {
	nms := Rule{DefaultCount: 10}
	cases := []struct {
		query string
		rule  Rule
		want  Window
	}{
		{"", Offsets, Window{Count: 10}},
		{"start=3&count=5", Offsets, Window{Start: 3, Count: 5}},
		{"start=-2&count=0", Offsets, Window{All: true}},
		{"count=-1", Offsets, Window{All: true}},
		{"count=x&start=y", Offsets, Window{All: true}},
		{"", nms, Window{Count: 10}},
		{"start=3&count=0", nms, Window{Start: 3}},
		{"count=-1", nms, Window{Count: 10}},
		{"count=x&start=-4", nms, Window{Count: 10}},
	}
	for _, c := range cases {
		q, _ := url.ParseQuery(c.query)
		if got := Read(q, c.rule); got != c.want {
			t.Errorf("Read(%q, %+v) = %+v, want %+v", c.query, c.rule, got, c.want)
		}
	}
}

func TestCut(t *testing.T) {
	xs := []int{0, 1, 2, 3, 4}
	cases := []struct {
		w    Window
		want string
	}{
		{Window{Count: 2}, "[0 1]"},
		{Window{Start: 3, Count: 10}, "[3 4]"},
		{Window{Start: 2, All: true}, "[2 3 4]"},
		{Window{Start: 2}, "[]"},
		{Window{Start: 5, All: true}, "[]"},
		{Window{Start: math.MaxInt, Count: math.MaxInt}, "[]"},
		{Window{Start: 1, Count: math.MaxInt}, "[1 2 3 4]"},
	}
	for _, c := range cases {
		got := Cut(xs, c.w)
		if s := fmt.Sprint(got); s != c.want || got == nil {
			t.Errorf("Cut(%+v) = %s (nil %v), want %s", c.w, s, got == nil, c.want)
		}
	}
	if Cut([]int(nil), Window{All: true}) == nil {
		t.Error("Cut of nil is nil, want an empty list")
	}
}

func TestPages(t *testing.T) {
	xs := []int{0, 1, 2, 3, 4}
	cases := []struct {
		query string
		want  string
	}{
		{"", "[0 1 2 3 4]"},
		{"size=2&pageid=2", "[2 3]"},
		{"size=2&pageid=3", "[4]"},
		{"size=2&pageid=4", "[]"},
		{"size=0&pageid=-1", "[0 1 2 3 4]"},
		{fmt.Sprintf("size=%d&pageid=%d", math.MaxInt, math.MaxInt), "[]"},
		{fmt.Sprintf("size=3&pageid=%d", math.MaxInt), "[]"},
	}
	for _, c := range cases {
		q, _ := url.ParseQuery(c.query)
		p := ReadPage(q, "size", 20)
		if got := fmt.Sprint(Cut(xs, p.Window())); got != c.want {
			t.Errorf("page %q (%+v) = %s, want %s", c.query, p, got, c.want)
		}
	}
}
