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
		page Page
		want string
	}{
		{Page{Size: 20, ID: 1}, "[0 1 2 3 4]"},
		{Page{Size: 2, ID: 2}, "[2 3]"},
		{Page{Size: 2, ID: 3}, "[4]"},
		{Page{Size: 2, ID: 4}, "[]"},
		{Page{Size: 0, ID: 1}, "[]"},
		{Page{Size: math.MaxInt, ID: math.MaxInt}, "[]"},
		{Page{Size: 3, ID: math.MaxInt}, "[]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(Cut(xs, c.page.Window())); got != c.want {
			t.Errorf("page %+v = %s, want %s", c.page, got, c.want)
		}
	}
}
