package vc

import (
	"strconv"
	"sync"

	"github.com/confer-platform/confer/internal/compat"
	"github.com/confer-platform/confer/internal/release"
)

// listCacheMax bounds the encoded list items kept per node
// (compat.Items): one per running conference and release seen, so a
// platform of 1,000 running conferences fits with room to spare.
const listCacheMax = 8192

// listBody writes the list envelope around encoded items: the bytes that
// wire.WriteJSON(wire.Success({"confs": ..., "total": ...})) writes, the
// envelope first and the other keys sorted.
func listBody(items [][]byte, size, total int) []byte {
	b := make([]byte, 0, size+64)
	b = append(b, `{"success":1,"confs":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	b = append(b, `],"total":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	return append(b, '}')
}

// listCache is what vc.confs.list keeps between requests: the encoded
// items (compat.Items) and, per page asked for, the last reply body with
// the conferences and versions it was made of. A page whose conferences,
// versions and total are those of the kept body gets the same bytes
// (never changed once made): a list then allocates and copies no reply
// (the body's allocation and copy were a tenth of a list's CPU,
// docs/benchmarks.md "API performance, third pass").
type listCache struct {
	items *compat.Items

	mu     sync.Mutex
	bodies map[listPage]listBodyEntry
}

// listPage is one page as one caller's release sees it.
type listPage struct {
	domain, owner string
	start, count  int
	eff           release.Release
}

type listBodyEntry struct {
	confs []listRef
	total int
	body  []byte
}

// listRef is a conference shown at a version.
type listRef struct {
	id      string
	version int64
}

// listBodiesMax bounds the pages kept; past it the map starts again.
const listBodiesMax = 1024

func newListCache(itemsMax int) *listCache {
	return &listCache{items: compat.NewItems("confs", itemsMax), bodies: map[listPage]listBodyEntry{}}
}

// body returns the reply of page made of items (the encoded confs,
// confs[i] at its version) and total, the kept one when it holds the same.
func (lc *listCache) body(page listPage, confs []listRef, items [][]byte, size, total int) []byte {
	lc.mu.Lock()
	e, ok := lc.bodies[page]
	lc.mu.Unlock()
	if ok && e.total == total && sameRefs(e.confs, confs) {
		return e.body
	}
	b := listBody(items, size, total)
	lc.mu.Lock()
	if len(lc.bodies) >= listBodiesMax {
		lc.bodies = map[listPage]listBodyEntry{}
	}
	lc.bodies[page] = listBodyEntry{confs: confs, total: total, body: b}
	lc.mu.Unlock()
	return b
}

func sameRefs(a, b []listRef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
