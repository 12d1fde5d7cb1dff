package compat

import (
	"slices"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
)

// fieldPaths lists the rule paths ("a", "a.b", "list[].b") at which a field
// named name appears in a schema.
func fieldPaths(ps []catalog.Param, prefix, name string) []string {
	var out []string
	for _, p := range ps {
		path := prefix + p.Name
		if p.Name == name {
			out = append(out, path)
		}
		sub := path + "."
		if p.Kind == catalog.Array {
			sub = path + "[]."
		}
		out = append(out, fieldPaths(p.Fields, sub, name)...)
	}
	return out
}

// Every rename of the history applies, in both directions, wherever the
// field travels at a release before the rename (issue 21 item 3): each
// request parameter and reply field of that name, on every endpoint that
// existed then, has a rename rule, unless a rule says the field did not
// exist there before the rename.
func TestRenamesEverywhere(t *testing.T) {
	renames := []struct {
		name, old string
		rel       release.Release
		only      string // the one endpoint the history names, if any
	}{
		{"voice_activity_detection", "voice_inspire_enable", release.R5_1_0_1_0, ""},
		{"vacinterval", "interval", release.R5_1_0_1_0, "vc.confs.vad.update"},
		{"show_mt_name", "show_alias", release.R5_1_0_1_0, ""},
		{"preoccupy_resource", "preoccpuy_resouce", release.R5_1_0_1_0, ""},
	}
	rules := Rules()
	covered := func(ep, path string, side Dir, rn struct {
		name, old string
		rel       release.Release
		only      string
	}) bool {
		for _, r := range rules {
			if r.Endpoint != ep || r.Dir&side == 0 || (r.Path != path && r.Path != "**."+rn.name) {
				continue
			}
			if r.Change == Renamed && r.Old == rn.old && r.Release == rn.rel {
				return true
			}
			if r.Change == Added && r.Release >= rn.rel {
				return true // the field is younger than the rename
			}
		}
		return false
	}
	for _, rn := range renames {
		for _, e := range catalog.All() {
			if !e.ExistsAt(rn.rel-1) || (rn.only != "" && e.Name != rn.only) {
				continue
			}
			for side, ps := range map[Dir][]catalog.Param{ToRequest: e.Params, ToReply: e.Reply} {
				for _, path := range fieldPaths(ps, "", rn.name) {
					if !covered(e.Name, path, side, rn) {
						t.Errorf("%s %s (%s): no rename from %s before %s", e.Name, path, side, rn.old, rn.rel)
					}
				}
			}
		}
	}
}

// The value changes of 5.1.0.1.0 (4K resolution 19 to 16, H.265 format 7
// to 6) apply to every video format and resolution that travels at an
// older release, and never to an audio format, whose values are another
// enumeration (monitors' audio_format.format 6 is not H.265).
func TestVideoValuesEverywhere(t *testing.T) {
	applies := func(ep, path, name string, side Dir) bool {
		for _, r := range Rules() {
			if r.Endpoint == ep && r.Change == ValueChanged && r.Dir&side != 0 && (r.Path == path || r.Path == "**."+name) {
				return true
			}
		}
		return false
	}
	younger := func(ep, path string, side Dir) bool {
		for _, r := range Rules() {
			if r.Endpoint == ep && r.Change == Added && r.Dir&side != 0 && r.Release > release.R5_1_0_1_0 &&
				(path == r.Path || strings.HasPrefix(path, r.Path+".") || strings.HasPrefix(path, r.Path+"[].")) {
				return true
			}
		}
		return false
	}
	for _, e := range catalog.All() {
		if !e.ExistsAt(release.R5_0_0_4_1) {
			continue
		}
		for side, ps := range map[Dir][]catalog.Param{ToRequest: e.Params, ToReply: e.Reply} {
			for _, name := range []string{"format", "resolution"} {
				for _, path := range fieldPaths(ps, "", name) {
					audio := strings.Contains(path, "audio")
					switch got := applies(e.Name, path, name, side); {
					case audio && got:
						t.Errorf("%s %s (%s): an audio format mapped as a video format", e.Name, path, side)
					case !audio && !got && !younger(e.Name, path, side):
						t.Errorf("%s %s (%s): no 5.1.0.1.0 value change", e.Name, path, side)
					}
				}
			}
		}
	}
}

// The type changes (rec_id integer to string at 5.1.0.2.1, current_progress
// string to integer at 5.0.0.4.1) apply wherever the field travels.
func TestRetypesEverywhere(t *testing.T) {
	for _, rt := range []struct {
		name string
		rel  release.Release
	}{{"rec_id", release.R5_1_0_2_1}, {"current_progress", release.R5_0_0_4_1}} {
		for _, e := range catalog.All() {
			if !e.ExistsAt(rt.rel) && !e.ExistsAt(rt.rel-1) {
				continue
			}
			for side, ps := range map[Dir][]catalog.Param{ToRequest: e.Params, ToReply: e.Reply} {
				for _, path := range fieldPaths(ps, "", rt.name) {
					found := false
					for _, r := range Rules() {
						if r.Endpoint == e.Name && r.Change == Retyped && r.Dir&side != 0 && (r.Path == path || r.Path == "**."+rt.name) {
							found = true
						}
					}
					if !found {
						t.Errorf("%s %s (%s): no type change at %s", e.Name, path, side, rt.rel)
					}
				}
			}
		}
	}
}

// enumsAt lists the integer enumerations of the fields at path (a "**."
// path matches the field at any depth).
func enumsAt(ps []catalog.Param, path string) [][]int {
	var out [][]int
	name := fieldName(path)
	var walk func(ps []catalog.Param, prefix string)
	walk = func(ps []catalog.Param, prefix string) {
		for _, p := range ps {
			full := prefix + p.Name
			if p.Name == name && len(p.Enum) > 0 && (strings.HasPrefix(path, "**.") || full == strings.ReplaceAll(path, "[]", "")) {
				out = append(out, p.Enum)
			}
			walk(p.Fields, full+".")
		}
	}
	walk(ps, "")
	return out
}

// A value removed at a release is still allowed before it (issue 21 item
// 4): the catalogue's enumeration, which is the newest model's plus the
// values of older releases, holds it; the rule refuses it from its release
// on.
func TestRemovedValuesAllowedBefore(t *testing.T) {
	for _, r := range Rules() {
		if r.Change != ValueRemoved {
			continue
		}
		e, _ := catalog.Lookup(r.Endpoint)
		for _, enum := range enumsAt(e.Params, r.Path) {
			if !slices.Contains(enum, r.New.(int)) {
				t.Errorf("%s %s: value %v (removed at %s) is not in the enumeration %v, so it is refused before too", r.Endpoint, r.Path, r.New, r.Release, enum)
			}
		}
	}
}
