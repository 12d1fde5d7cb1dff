package vc

import (
	"strconv"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/compat"
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
// items (compat.Items) and the last reply body of each page
// (compat.Bodies), served again while the page's conferences, versions
// and total are the same.
type listCache struct {
	items  *compat.Items
	bodies *compat.Bodies
}

// listBodiesMax bounds the pages kept.
const listBodiesMax = 1024

func newListCache(itemsMax int) *listCache {
	return &listCache{items: compat.NewItems("confs", itemsMax), bodies: compat.NewBodies(listBodiesMax)}
}

// body returns the reply of a page made of items (the encoded confs,
// refs[i] at its version) and total, the kept one when it holds the same.
func (lc *listCache) body(r *api.Request, page string, refs []compat.Ref, items [][]byte, size, total int) []byte {
	if b, ok := lc.bodies.Get(r, page, refs, total); ok {
		return b
	}
	b := listBody(items, size, total)
	lc.bodies.Put(r, page, refs, total, b)
	return b
}
