package compat

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/release"
)

// Every rule states its direction, and the direction matches the kind of
// change and the sides of the wire where the catalogue has the field.
func TestRuleDirections(t *testing.T) {
	for _, r := range Rules() {
		name := r.Endpoint + " " + r.Path + " (" + r.Change.String() + " at " + r.Release.String() + ")"
		switch {
		case r.Dir != ToRequest && r.Dir != ToReply && r.Dir != Both:
			t.Errorf("%s: no direction", name)
		case (r.Change == ValueAdded || r.Change == ValueRemoved) && r.Dir != ToRequest:
			t.Errorf("%s: a refused value concerns requests only, not %s", name, r.Dir)
		case r.Change == CookieExpires && r.Dir != ToReply:
			t.Errorf("%s: the login cookie is a reply's, not %s", name, r.Dir)
		case strings.Contains(r.Source, "reply") && r.Dir != ToReply:
			t.Errorf("%s: the history speaks of a reply (%q), the rule is %s", name, r.Source, r.Dir)
		case strings.Contains(r.Source, "parameter") && r.Dir != ToRequest:
			t.Errorf("%s: the history speaks of a parameter (%q), the rule is %s", name, r.Source, r.Dir)
		case r.Change == ErrorAnswered && r.Dir != ToReply:
			t.Errorf("%s: an error answered as success is a reply's, not %s", name, r.Dir)
		case r.Change == Removed || r.Change == CookieExpires || r.Change == ErrorAnswered:
		case r.Dir&ToRequest != 0 && !inParams(r.Endpoint, r.Path):
			t.Errorf("%s: applies to requests, which have no such parameter", name)
		case r.Dir&ToReply != 0 && !inReply(r.Endpoint, r.Path):
			t.Errorf("%s: applies to replies, which have no such field", name)
		}
	}
}

// fieldName is the last field name of a rule path.
func fieldName(path string) string {
	segs := fieldSegs(path)
	return segs[len(segs)-1]
}

// concerns tells whether one of rs (other than skip) reshapes one of the
// field names (a rule's field and its parents) on its side of the wire:
// then a rule of the other side cannot be checked alone on a document
// holding that field.
func concerns(rs []Rule, skip Rule, names ...string) bool {
	for _, o := range rs {
		if o == skip {
			continue
		}
		for _, n := range names {
			if fieldName(o.Path) == n || (o.Change == Renamed && o.Old == n) {
				return true
			}
		}
	}
	return false
}

// alone tells whether rule r can be checked against the other side's rules
// of its endpoint, which reshape none of its field names.
func alone(r Rule, other map[string][]Rule) bool {
	names := fieldSegs(r.Path)
	if r.Change == Renamed {
		names = append(names, r.Old.(string))
	}
	return !concerns(other[r.Endpoint], r, names...)
}

// sampleDocs are documents holding a rule's field as a request or reply of
// any release may carry it: a plain value, the rule's values, and the old
// name of a rename.
func sampleDocs(r Rule) []map[string]any {
	vals := []any{json.Number("1"), "12"}
	for _, v := range []any{r.Old, r.New} {
		if _, isName := v.(string); v != nil && !(isName && (r.Change == Renamed || r.Change == Retyped)) {
			vals = append(vals, json.Number(jsonText(v)))
		}
	}
	var docs []map[string]any
	for _, v := range vals {
		docs = append(docs, docAt(r.Path, v))
		if r.Change == Renamed {
			d := docAt(r.Path, v)
			visitParents(d, r.Path, func(m map[string]any, k string) { m[r.Old.(string)] = m[k]; delete(m, k) })
			docs = append(docs, d)
		}
	}
	return docs
}

// A rule about replies leaves every request of its endpoint unchanged, at
// every release (issue 21: the add-terminals reply's mts list once
// stripped the request's mts).
func TestReplyRulesLeaveRequests(t *testing.T) {
	checked := 0
	for _, r := range Rules() {
		if r.Dir != ToReply || r.Change == CookieExpires || r.Change == ErrorAnswered {
			continue
		}
		if !alone(r, requestRules) {
			continue
		}
		for eff := range release.Release(len(release.All)) {
			for _, d := range sampleDocs(r) {
				before := canon(d)
				if ps := Request(r.Endpoint, eff, d, nil); len(ps) > 0 || canon(d) != before {
					t.Errorf("%s %s (%s at %s, reply): request at %s %s became %s %v", r.Endpoint, r.Path, r.Change, r.Release, eff, before, canon(d), ps)
				}
				checked++
			}
			if !strings.ContainsAny(r.Path, ".[") {
				flat := url.Values{r.Path: {"1"}}
				Request(r.Endpoint, eff, nil, flat)
				if flat.Get(r.Path) != "1" {
					t.Errorf("%s %s (reply): query parameter changed at %s: %v", r.Endpoint, r.Path, eff, flat)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no reply rule checked")
	}
}

// A rule about requests leaves every reply of its endpoint unchanged.
func TestRequestRulesLeaveReplies(t *testing.T) {
	checked := 0
	for _, r := range Rules() {
		if r.Dir != ToRequest {
			continue
		}
		if !alone(r, replyRules) {
			continue
		}
		for eff := range release.Release(len(release.All)) {
			for _, d := range sampleDocs(r) {
				before := canon(d)
				if Reply(r.Endpoint, eff, d, nil); canon(d) != before {
					t.Errorf("%s %s (%s at %s, request): reply at %s %s became %s", r.Endpoint, r.Path, r.Change, r.Release, eff, before, canon(d))
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no request rule checked")
	}
}

// The rule that once stripped the request (issue 21 item 1), through the
// public transform: a 5.0.0.4.1 client's terminals reach the handler.
func TestAddTerminalsRequestKeepsMts(t *testing.T) {
	for eff := range release.Release(len(release.All)) {
		p := decode(t, `{"mts":[{"account":"1110001","account_type":5,"bitrate":1048,"protocol":0}]}`)
		Request("vc.confs.mts.add", eff, p, nil)
		if _, ok := p["mts"]; !ok {
			t.Errorf("at %s the request lost mts", eff)
		}
		reply := decode(t, `{"error_code":0,"mts":[{"mt_id":"1"}]}`)
		Reply("vc.confs.mts.add", eff, reply, nil)
		if _, ok := reply["mts"]; ok != (eff >= release.R5_1_0_2_0) {
			t.Errorf("at %s the reply's mts present = %v", eff, ok)
		}
	}
}

// A field is added once per endpoint and side: two "added" rules of
// different releases on one field would hide it until the later one (the
// conference info's call_mode, shown from 5.1.0.2.0, was once also added
// at 5.2.0.2.0 with conferences and templates).
func TestAddedOnce(t *testing.T) {
	type key struct {
		endpoint, path string
		side           Dir
	}
	first := map[key]Rule{}
	for _, r := range Rules() {
		if r.Change != Added {
			continue
		}
		for _, side := range []Dir{ToRequest, ToReply} {
			if r.Dir&side == 0 {
				continue
			}
			k := key{r.Endpoint, r.Path, side}
			if o, ok := first[k]; ok && o.Release != r.Release {
				t.Errorf("%s %s (%s): added at %s (%s) and at %s (%s)", r.Endpoint, r.Path, side, o.Release, o.Source, r.Release, r.Source)
			}
			first[k] = r
		}
	}
}
