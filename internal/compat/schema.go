package compat

import (
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
)

// inSchema tells whether a rule path names a field of the endpoint's
// parameters or reply in the catalogue. "**.a.b" matches a.b at any depth.
func inSchema(endpoint, path string) bool {
	return inParams(endpoint, path) || inReply(endpoint, path)
}

// inParams tells whether a rule path names a request parameter of the
// endpoint.
func inParams(endpoint, path string) bool {
	e, ok := catalog.Lookup(endpoint)
	return ok && has(e.Params, fieldSegs(path))
}

// inReply tells whether a rule path names a reply field of the endpoint.
func inReply(endpoint, path string) bool {
	e, ok := catalog.Lookup(endpoint)
	return ok && has(e.Reply, fieldSegs(path))
}

// fieldSegs splits a rule path into field names ("a[].b" gives a, b).
func fieldSegs(path string) []string {
	segs := strings.Split(path, ".")
	for i := range segs {
		segs[i] = strings.TrimSuffix(segs[i], "[]")
	}
	return segs
}

// sides narrows a declared direction to the sides of the wire where the
// catalogue has the rule's field. A removed field is in no schema (the
// newest model lacks it): it keeps the declared sides that the endpoint
// has at all (parameters, reply fields).
func sides(d Dir, r Rule) Dir {
	inReq, inRep := inParams, inReply
	if r.Change == CookieExpires || r.Change == ErrorAnswered {
		return d // no field of a schema
	}
	if r.Change == Removed {
		inReq = func(ep, _ string) bool { e, ok := catalog.Lookup(ep); return ok && len(e.Params) > 0 }
		inRep = func(ep, _ string) bool { e, ok := catalog.Lookup(ep); return ok && len(e.Reply) > 0 }
	}
	var out Dir
	if d&ToRequest != 0 && inReq(r.Endpoint, r.Path) {
		out |= ToRequest
	}
	if d&ToReply != 0 && inRep(r.Endpoint, r.Path) {
		out |= ToReply
	}
	return out
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
