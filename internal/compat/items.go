package compat

import (
	"encoding/json"
	"sync"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/release"
)

// Items keeps the elements of a list reply encoded, reshaped for each
// caller's release, by object id and record version, so that a list
// handler encodes only the objects changed since they were last shown
// (vc.confs.list). The endpoint's rules must all apply per element of the
// list (paths under "<list>[]."), which holds for vc.confs.list; its test
// compares the bytes with the whole reply reshaped and encoded. A write on
// any node bumps the version, so a stale element is never served.
type Items struct {
	list string
	max  int
	mu   sync.RWMutex
	m    map[itemKey]item
}

type itemKey struct {
	id  string
	eff release.Release
}

type item struct {
	version int64
	body    []byte
}

// NewItems returns a cache of the elements of the reply's list field,
// holding at most max of them (past it, an arbitrary quarter is dropped).
func NewItems(list string, max int) *Items {
	return &Items{list: list, max: max, m: map[itemKey]item{}}
}

// Get returns the element kept for object id at version, as r's caller
// sees it.
func (c *Items) Get(r *api.Request, id string, version int64) ([]byte, bool) {
	c.mu.RLock()
	it, ok := c.m[itemKey{id, r.Effective}]
	c.mu.RUnlock()
	return it.body, ok && it.version == version
}

// Put reshapes elem (newest model) for r's caller as the endpoint's rules
// do inside the whole reply, encodes it as encoding/json does inside the
// envelope, keeps it for id at version and returns it. elem is changed.
func (c *Items) Put(r *api.Request, id string, version int64, elem map[string]any) ([]byte, error) {
	Reply(r.Endpoint.Name, r.Effective, map[string]any{c.list: []any{elem}}, nil)
	b, err := json.Marshal(elem)
	if err != nil {
		return nil, err
	}
	k := itemKey{id, r.Effective}
	c.mu.Lock()
	defer c.mu.Unlock()
	if it, ok := c.m[k]; ok && it.version > version {
		return b, nil // a newer version is kept already
	}
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		n := len(c.m) / 4
		for k := range c.m {
			if n--; n < 0 {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[k] = item{version, b}
	return b, nil
}
