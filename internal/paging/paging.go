// Package paging reads the page a list request asks for and cuts a list to
// it: the start and count of mc, amc and nms lists (reference 04 "分页"),
// and the page size and number of vrs lists. One reading for the four
// modules (issue 40); the modules differ only where their references do,
// which a Rule names.
package paging

import (
	"math"
	"net/url"
	"strconv"
)

// Window is the rows a list request asks for: Count rows from Start (0 the
// first). All is every row from Start; Count is then 0, which the store's
// RecordQuery also reads as every row.
type Window struct {
	Start, Count int
	All          bool
}

// Rule is how a module reads count.
type Rule struct {
	// DefaultCount is the count of a request that sends none.
	DefaultCount int
	// ZeroIsAll makes count 0 every row, and a count that is negative or
	// not a number 0 too (mc and amc: "0 for all"); without it count 0 is
	// no row and a negative or unreadable count is DefaultCount (nms).
	ZeroIsAll bool
}

// Offsets is the rule of mc and amc: count 10 by default, 0 for all.
var Offsets = Rule{DefaultCount: 10, ZeroIsAll: true}

// Read reads start (default 0; negative or unreadable is 0) and count
// from a request's query.
func Read(q url.Values, rule Rule) Window {
	w := Window{Count: rule.DefaultCount}
	if n, err := strconv.Atoi(q.Get("start")); err == nil && n > 0 {
		w.Start = n
	}
	v := q.Get("count")
	if v == "" {
		return w
	}
	n, err := strconv.Atoi(v)
	switch {
	case err == nil && n >= 0:
		w.Count = n
	case rule.ZeroIsAll:
		w.Count = 0
	}
	if rule.ZeroIsAll && w.Count == 0 {
		w.All = true
	}
	return w
}

// Page is a vrs list's page: Size entries a page, ID the page (1 first);
// vrs reads it from its generated list requests (vrs.page).
type Page struct {
	Size, ID int
}

// Window is the rows of the page; huge ids and sizes do not overflow.
func (p Page) Window() Window {
	if p.Size < 1 || p.ID < 1 {
		return Window{Start: math.MaxInt}
	}
	if p.ID-1 > math.MaxInt/p.Size {
		return Window{Start: math.MaxInt, Count: p.Size}
	}
	return Window{Start: (p.ID - 1) * p.Size, Count: p.Size}
}

// Cut returns the rows of xs in w, never nil (an empty list is written
// as [], not null).
func Cut[T any](xs []T, w Window) []T {
	if w.Start >= len(xs) || w.Start < 0 {
		return []T{}
	}
	hi := len(xs)
	if !w.All && w.Count < hi-w.Start {
		hi = w.Start + w.Count
	}
	return xs[w.Start:hi]
}
