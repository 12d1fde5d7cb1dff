package compat

import (
	"slices"
	"sync"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/release"
)

// Bodies keeps whole list replies, per page asked for and caller's
// release, with the objects and versions each was made of (vc.confs.list:
// its items come from Items). A page whose objects, versions and total
// are those of the kept reply gets the same bytes, never changed once
// made, instead of a new allocation and copy (docs/benchmarks.md "API
// performance, third pass").
type Bodies struct {
	max int

	mu sync.Mutex
	m  map[bodyKey]bodyEntry
}

// Ref is an object shown at a version.
type Ref struct {
	ID      string
	Version int64
}

type bodyKey struct {
	page string
	eff  release.Release
}

type bodyEntry struct {
	refs  []Ref
	total int
	body  []byte
}

// NewBodies keeps at most max replies (past it, it starts again).
func NewBodies(max int) *Bodies {
	return &Bodies{max: max, m: map[bodyKey]bodyEntry{}}
}

// Get returns the reply kept for page, as r's caller sees it, when it was
// made of refs and total.
func (b *Bodies) Get(r *api.Request, page string, refs []Ref, total int) ([]byte, bool) {
	b.mu.Lock()
	e, ok := b.m[bodyKey{page, r.Effective}]
	b.mu.Unlock()
	if !ok || e.total != total || !slices.Equal(e.refs, refs) {
		return nil, false
	}
	return e.body, true
}

// Put keeps body, made of refs and total, for page as r's caller sees it;
// body must not change afterwards.
func (b *Bodies) Put(r *api.Request, page string, refs []Ref, total int, body []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.m) >= b.max {
		b.m = map[bodyKey]bodyEntry{}
	}
	b.m[bodyKey{page, r.Effective}] = bodyEntry{refs, total, body}
}
