package compat

import (
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
)

// inSchema tells whether a rule path names a field of the endpoint's
// parameters or reply in the catalogue. "**.a.b" matches a.b at any depth.
func inSchema(endpoint, path string) bool {
	e, ok := catalog.Lookup(endpoint)
	if !ok {
		return false
	}
	segs := strings.Split(path, ".")
	for i := range segs {
		segs[i] = strings.TrimSuffix(segs[i], "[]")
	}
	return has(e.Params, segs) || has(e.Reply, segs)
}

// inParams tells whether a rule path names a request parameter of the
// endpoint (not only a reply field).
func inParams(endpoint, path string) bool {
	e, ok := catalog.Lookup(endpoint)
	if !ok {
		return false
	}
	segs := strings.Split(path, ".")
	for i := range segs {
		segs[i] = strings.TrimSuffix(segs[i], "[]")
	}
	return has(e.Params, segs)
}

func has(ps []catalog.Param, segs []string) bool {
	if segs[0] == "**" {
		if has(ps, segs[1:]) {
			return true
		}
		for _, p := range ps {
			if has(p.Fields, segs) {
				return true
			}
		}
		return false
	}
	for _, p := range ps {
		if p.Name != segs[0] {
			continue
		}
		if len(segs) == 1 {
			return true
		}
		return has(p.Fields, segs[1:])
	}
	return false
}
