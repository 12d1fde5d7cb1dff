// Package router matches request paths against the catalogue's path
// patterns ("/api/v1/vc/confs/{conf_id}/mts"). Static segments win over
// parameters, so "/confs/{conf_id}/mts" and "/confs/{conf_id}/{x}" can live
// side by side. Two patterns may name the parameter at one position
// differently (the vendor's nms paths do: service_domains/{domain_moid} and
// service_domains/{service_moid}).
package router

import (
	"fmt"
	"slices"
	"strings"
)

// Router maps (method, path) to a value of type T.
type Router[T any] struct {
	root node[T]
}

type node[T any] struct {
	static  map[string]*node[T]
	param   *node[T]
	methods map[string]leaf[T]
}

type leaf[T any] struct {
	v     T
	names []string // parameter names of the pattern, in path order
}

// Add registers v for method and pattern. Registering the same method and
// pattern twice is an error.
func (rt *Router[T]) Add(method, pattern string, v T) error {
	n := &rt.root
	var names []string
	for _, seg := range split(pattern) {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			names = append(names, seg[1:len(seg)-1])
			if n.param == nil {
				n.param = &node[T]{}
			}
			n = n.param
			continue
		}
		if n.static == nil {
			n.static = map[string]*node[T]{}
		}
		child, ok := n.static[seg]
		if !ok {
			child = &node[T]{}
			n.static[seg] = child
		}
		n = child
	}
	if n.methods == nil {
		n.methods = map[string]leaf[T]{}
	}
	if _, dup := n.methods[method]; dup {
		return fmt.Errorf("router: %s %s registered twice", method, pattern)
	}
	n.methods[method] = leaf[T]{v: v, names: names}
	return nil
}

// Match finds the value for method and path. found reports whether the path
// exists under any method; ok whether it exists under this method. params
// holds the values of the path's parameters.
func (rt *Router[T]) Match(method, path string) (v T, params map[string]string, found, ok bool) {
	var segBuf [maxInline]string
	var st matchState
	n := match(&rt.root, splitInto(segBuf[:0], path), &st)
	vals := st.vals[:st.n]
	if n == nil {
		return v, nil, false, false
	}
	l, ok := n.methods[method]
	if !ok {
		return v, nil, true, false
	}
	if len(vals) > 0 {
		params = make(map[string]string, len(vals))
		for i, name := range l.names {
			params[name] = vals[i]
		}
	}
	return l.v, params, true, true
}

// Methods returns the methods registered at path, in name order (a 90405
// reply names them: its bytes must not vary between calls).
func (rt *Router[T]) Methods(path string) []string {
	var st matchState
	n := match(&rt.root, split(path), &st)
	if n == nil {
		return nil
	}
	var ms []string
	for m := range n.methods {
		ms = append(ms, m)
	}
	slices.Sort(ms)
	return ms
}

// matchState holds the parameter values of a match. A path has at most
// as many parameters as segments; paths longer than maxInline segments
// match nothing (the catalogue's longest has 8).
type matchState struct {
	vals [maxInline]string
	n    int
}

// match descends from n along segs, preferring static segments and
// backtracking to a parameter when the static branch dead-ends.
func match[T any](n *node[T], segs []string, st *matchState) *node[T] {
	if len(segs) == 0 {
		if n.methods == nil {
			return nil
		}
		return n
	}
	if child, ok := n.static[segs[0]]; ok {
		if m := match(child, segs[1:], st); m != nil {
			return m
		}
	}
	if n.param != nil && segs[0] != "" && st.n < maxInline {
		mark := st.n
		st.vals[st.n] = segs[0]
		st.n++
		if m := match(n.param, segs[1:], st); m != nil {
			return m
		}
		st.n = mark
	}
	return nil
}

// maxInline is the number of path segments split without allocating and
// of parameters a match holds.
const maxInline = 12

// splitInto appends path's segments to dst (split without a new slice
// while they fit).
func splitInto(dst []string, path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return dst
	}
	for {
		i := strings.IndexByte(path, '/')
		if i < 0 {
			return append(dst, path)
		}
		dst = append(dst, path[:i])
		path = path[i+1:]
	}
}

func split(path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}
