// Package validate checks a request's parameters against its catalogue
// entry's schema before any handler runs (issue 3; seed 000 "Errors" 3),
// and shapes the problems as debug mode's debug_list.
package validate

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/wire"
)

// Problem is one thing wrong with a request.
type Problem struct {
	Top   string // the first-level parameter name
	Index int    // element of a top-level list parameter; -1 when none
	Sub   string // the path below Top (and Index), "" when Top itself is at fault
	Msg   string
}

// Path renders the parameter path, e.g. "mts[1].bitrate".
func (p Problem) Path() string {
	s := p.Top
	if p.Index >= 0 {
		s += "[" + strconv.Itoa(p.Index) + "]"
	}
	switch {
	case p.Sub == "":
	case strings.HasPrefix(p.Sub, "["):
		s += p.Sub
	default:
		s += "." + p.Sub
	}
	return s
}

// Messages of the checks.
const (
	MsgMissing = "required parameter is missing"
	MsgNotInt  = "must be an integer"
	MsgNotNum  = "must be a number"
	MsgNotStr  = "must be a string"
	MsgNotBool = "must be a boolean or 0/1"
	MsgNotObj  = "must be a JSON object"
	MsgNotArr  = "must be a JSON array"
)

// Absent tells whether a field path (e.g. "call_mode", "mts[].bitrate")
// does not exist at the caller's release; such a field is never required.
type Absent func(path string) bool

// Check validates args against ep's parameter schema. Lenient where
// clients differ: a string holding an integer is accepted for an integer
// (and replaced by the number), a number for a string (and replaced by its
// text); parameters the schema does not name are ignored.
func Check(ep *catalog.Endpoint, args *wire.Args) []Problem { return CheckAt(ep, args, nil) }

// CheckAt is Check for a caller whose release lacks the fields absent names.
func CheckAt(ep *catalog.Endpoint, args *wire.Args, absent Absent) []Problem {
	ps := check(ep, args)
	if absent == nil {
		return ps
	}
	kept := ps[:0]
	for _, p := range ps {
		if p.Msg == MsgMissing && absent(p.normPath()) {
			continue
		}
		kept = append(kept, p)
	}
	return kept
}

// normPath is the path with list indices written "[]", as compatibility
// rules name fields.
func (p Problem) normPath() string {
	var b strings.Builder
	skip := false
	for _, r := range p.Path() {
		switch {
		case r == '[':
			b.WriteString("[]")
			skip = true
		case r == ']':
			skip = false
		case !skip:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func check(ep *catalog.Endpoint, args *wire.Args) []Problem {
	var ps []Problem
	switch ep.Style {
	case catalog.Query:
		ps = checkFlat(ep.Params, args.Query)
	case catalog.Form:
		flat := url.Values{}
		for k, v := range args.Query {
			flat[k] = v
		}
		for k, v := range args.Form {
			flat[k] = v
		}
		ps = checkFlat(ep.Params, flat)
	case catalog.Params, catalog.JSON:
		obj := args.Params // nil when none: every member reads as absent
		for _, p := range ep.Params {
			v, present := obj[p.Name]
			if !present || v == nil {
				if p.Required {
					ps = append(ps, Problem{Top: p.Name, Index: -1, Msg: MsgMissing})
				}
				continue
			}
			obj[p.Name], ps = checkTop(p, v, ps)
		}
	}
	return ps
}

func checkFlat(params []catalog.Param, vals url.Values) []Problem {
	var ps []Problem
	for _, p := range params {
		vs, ok := vals[p.Name]
		if !ok || len(vs) == 0 || vs[0] == "" {
			if p.Required {
				ps = append(ps, Problem{Top: p.Name, Index: -1, Msg: MsgMissing})
			}
			continue
		}
		if msg := checkScalarText(p, vs[0]); msg != "" {
			ps = append(ps, Problem{Top: p.Name, Index: -1, Msg: msg})
		}
	}
	return ps
}

// checkScalarText checks a flat (query or form) value.
func checkScalarText(p catalog.Param, s string) string {
	switch p.Kind {
	case catalog.Int:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return MsgNotInt
		}
		return checkEnum(p, n)
	case catalog.Number:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return MsgNotNum
		}
	case catalog.Bool:
		switch strings.ToLower(s) {
		case "0", "1", "true", "false":
		default:
			return MsgNotBool
		}
	case catalog.String:
		return checkEnumS(p, s)
	}
	return ""
}

func checkTop(p catalog.Param, v any, ps []Problem) (any, []Problem) {
	if p.Kind == catalog.Array && p.Elem == catalog.Object {
		arr, ok := v.([]any)
		if !ok {
			return v, append(ps, Problem{Top: p.Name, Index: -1, Msg: MsgNotArr})
		}
		for i, el := range arr {
			var sub []subProblem
			arr[i], sub = checkValue(elemParam(p), el, "", nil)
			for _, s := range sub {
				ps = append(ps, Problem{Top: p.Name, Index: i, Sub: s.path, Msg: s.msg})
			}
		}
		return arr, ps
	}
	nv, sub := checkValue(p, v, "", nil)
	for _, s := range sub {
		ps = append(ps, Problem{Top: p.Name, Index: -1, Sub: s.path, Msg: s.msg})
	}
	return nv, ps
}

type subProblem struct{ path, msg string }

func elemParam(p catalog.Param) catalog.Param {
	return catalog.Param{Name: p.Name, Kind: p.Elem, Fields: p.Fields, Enum: p.Enum, EnumS: p.EnumS}
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// checkValue checks a JSON value against p; path is the position below the
// top-level parameter. It returns the value, normalised where lenient.
func checkValue(p catalog.Param, v any, path string, ps []subProblem) (any, []subProblem) {
	bad := func(msg string) (any, []subProblem) { return v, append(ps, subProblem{path, msg}) }
	switch p.Kind {
	case catalog.Any:
		return v, ps
	case catalog.Int:
		n, nv, ok := asInt(v)
		if !ok {
			return bad(MsgNotInt)
		}
		if msg := checkEnum(p, n); msg != "" {
			return bad(msg)
		}
		return nv, ps
	case catalog.Number:
		switch x := v.(type) {
		case json.Number:
			return v, ps
		case string:
			if _, err := strconv.ParseFloat(x, 64); err == nil {
				return json.Number(x), ps
			}
		}
		return bad(MsgNotNum)
	case catalog.Bool:
		switch x := v.(type) {
		case bool:
			return v, ps
		case json.Number:
			if x == "0" || x == "1" {
				return v, ps
			}
		}
		return bad(MsgNotBool)
	case catalog.String:
		switch x := v.(type) {
		case string:
			if msg := checkEnumS(p, x); msg != "" {
				return bad(msg)
			}
			return v, ps
		case json.Number:
			return x.String(), ps
		}
		return bad(MsgNotStr)
	case catalog.Object:
		obj, ok := wire.AsJSONObject(v)
		if !ok {
			return bad(MsgNotObj)
		}
		for _, f := range p.Fields {
			fv, present := obj[f.Name]
			if !present || fv == nil {
				if f.Required {
					ps = append(ps, subProblem{join(path, f.Name), MsgMissing})
				}
				continue
			}
			obj[f.Name], ps = checkValue(f, fv, join(path, f.Name), ps)
		}
		return v, ps // the decoded object, its members checked in place
	case catalog.Array:
		arr, ok := v.([]any)
		if !ok {
			return bad(MsgNotArr)
		}
		ep := elemParam(p)
		for i, el := range arr {
			arr[i], ps = checkValue(ep, el, path+"["+strconv.Itoa(i)+"]", ps)
		}
		return arr, ps
	}
	return v, ps
}

// asInt accepts a JSON integer, or a string holding one.
func asInt(v any) (int64, any, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := strconv.ParseInt(x.String(), 10, 64)
		return n, v, err == nil
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, json.Number(strconv.FormatInt(n, 10)), err == nil
	}
	return 0, v, false
}

func checkEnum(p catalog.Param, n int64) string {
	if len(p.Enum) == 0 {
		return ""
	}
	for _, e := range p.Enum {
		if int64(e) == n {
			return ""
		}
	}
	return fmt.Sprintf("value %d is not one of %v", n, p.Enum)
}

func checkEnumS(p catalog.Param, s string) string {
	if len(p.EnumS) == 0 {
		return ""
	}
	for _, e := range p.EnumS {
		if e == s {
			return ""
		}
	}
	return fmt.Sprintf("value %q is not one of %v", s, p.EnumS)
}

// Error turns problems into the 90400 reply, naming every parameter at
// fault: one problem on its own, several one per line after a count
// (issue 22: a list of 23 missing fields on one line is unreadable).
func Error(ps []Problem) *wire.Error {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = "parameter " + p.Path() + ": " + p.Msg
	}
	if len(parts) == 1 {
		return wire.Errorf(wire.CodeInvalidParam, "%s", parts[0])
	}
	return wire.Errorf(wire.CodeInvalidParam, "%d parameters are invalid:\n%s", len(parts), strings.Join(parts, "\n"))
}

// DebugList shapes problems as debug mode's debug_list (seed 000 "Errors"
// 3; reference 01 section 5): the first-level key is the parameter name;
// its value maps a second-level key to a message, or, for a list
// parameter, is an array with one such object per element of the request's
// list. A problem with a top-level parameter itself is keyed by its name.
// A parameter with problems of both forms shows the form of its last one.
func DebugList(args *wire.Args, ps []Problem) map[string]DebugEntry {
	out := map[string]DebugEntry{}
	for _, p := range ps {
		key := p.Sub
		if key == "" {
			key = p.Top
		}
		e := out[p.Top]
		if p.Index < 0 {
			if e.Msgs == nil {
				e = DebugEntry{Msgs: map[string]string{}}
			}
			e.Msgs[key] = p.Msg
			out[p.Top] = e
			continue
		}
		if e.Elems == nil {
			n := 0
			if arr, ok := args.Params[p.Top].([]any); ok {
				n = len(arr)
			}
			e = DebugEntry{Elems: make([]map[string]string, n)}
			for i := range e.Elems {
				e.Elems[i] = map[string]string{}
			}
		}
		e.Elems[p.Index][key] = p.Msg
		out[p.Top] = e
	}
	return out
}

// DebugEntry is one parameter's entry of debug_list: its messages by key
// (Msgs), or for a list parameter one such object per element (Elems).
// Exactly one of them is set.
type DebugEntry struct {
	Msgs  map[string]string
	Elems []map[string]string
}

// MarshalJSON writes the entry as the object or the array it stands for.
func (e DebugEntry) MarshalJSON() ([]byte, error) {
	if e.Elems != nil {
		return json.Marshal(e.Elems)
	}
	return json.Marshal(e.Msgs)
}
