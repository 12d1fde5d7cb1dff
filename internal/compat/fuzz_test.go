package compat

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/confer-platform/confer/internal/release"
)

// Fuzz targets of the release transforms (issue 11 "Fuzzing"). go test
// runs the seeds (one request and one reply per rule, at the release
// before it and at it) as unit tests; to fuzz longer:
//
//	go test ./internal/compat -run '^$' -fuzz FuzzRequest -fuzztime 5m
//	go test ./internal/compat -run '^$' -fuzz FuzzReply -fuzztime 5m
//
// Properties: no panic, whatever the JSON; the result is still JSON; the
// same input gives the same output (no dependence on map order); the
// request transform is idempotent (a request already in the newest model
// is left alone); a request problem names a field.

// fuzzEndpoints are the endpoints that have rules, in a stable order.
func fuzzEndpoints() []string {
	var names []string
	for _, m := range []map[string][]Rule{replyRules, requestRules} {
		for name := range m {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// fuzzPick maps fuzzed numbers to an endpoint and a release.
func fuzzPick(ep uint16, rel uint8) (string, release.Release) {
	names := fuzzEndpoints()
	return names[int(ep)%len(names)], release.Release(int(rel) % len(release.All))
}

// fuzzSeeds adds, for every rule, its field in a document at the release
// before the rule and at the rule's release.
func fuzzSeeds(add func(ep uint16, rel uint8, doc []byte)) {
	index := map[string]uint16{}
	for i, name := range fuzzEndpoints() {
		index[name] = uint16(i)
	}
	for _, r := range Rules() {
		leaf := any(1)
		switch {
		case r.Old != nil && r.Change != Renamed:
			leaf = r.Old
		case r.New != nil:
			leaf = r.New
		}
		path := r.Path
		if r.Change == Renamed {
			path = path[:len(path)-len(lastSeg(path))] + r.Old.(string)
		}
		b, _ := json.Marshal(docAt(path, leaf))
		add(index[r.Endpoint], uint8(r.Release), b)
		if prev, ok := before(r.Release); ok {
			add(index[r.Endpoint], uint8(prev), b)
		}
	}
	add(0, 0, []byte(`{"a":[{"b":[[{"c":null}]]}],"x":{"y":[1,"2",{"z":{}}]}}`))
	add(1, 9, []byte(`{}`))
}

func lastSeg(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '.' {
			return path[i+1:]
		}
	}
	return path
}

// fuzzDecode decodes a JSON object as the wire does (numbers exact); nil
// when b is not one.
func fuzzDecode(b []byte) map[string]any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

func FuzzRequest(f *testing.F) {
	fuzzSeeds(func(ep uint16, rel uint8, doc []byte) {
		f.Add(ep, rel, doc, "")
		flat := url.Values{}
		for k, v := range fuzzDecode(doc) {
			if b, err := json.Marshal(v); err == nil {
				flat.Set(k, string(bytes.Trim(b, `"`)))
			}
		}
		f.Add(ep, rel, []byte(`{}`), flat.Encode())
	})
	f.Fuzz(func(t *testing.T, ep uint16, rel uint8, doc []byte, query string) {
		name, eff := fuzzPick(ep, rel)
		run := func() (map[string]any, url.Values, []Problem) {
			params := fuzzDecode(doc)
			flat, err := url.ParseQuery(query)
			if err != nil {
				flat = url.Values{}
			}
			ps := Request(name, eff, params, flat)
			return params, flat, ps
		}
		p1, f1, ps1 := run()
		p2, f2, ps2 := run()
		if !reflect.DeepEqual(p1, p2) || !reflect.DeepEqual(f1, f2) || !reflect.DeepEqual(ps1, ps2) {
			t.Fatalf("%s at %s: two runs differ: %v %v / %v %v", name, eff, p1, f1, p2, f2)
		}
		if _, err := json.Marshal(p1); err != nil {
			t.Fatalf("%s at %s: result is not JSON: %v", name, eff, err)
		}
		for _, p := range ps1 {
			if p.Path == "" || p.Msg == "" {
				t.Fatalf("%s at %s: problem without a field or message: %+v", name, eff, p)
			}
		}
		// Idempotence: the newest model goes through unchanged.
		p3 := deepCopy(p1)
		f3 := url.Values{}
		for k, v := range f1 {
			f3[k] = append([]string{}, v...)
		}
		Request(name, eff, p3, f3)
		if !reflect.DeepEqual(p1, p3) || !reflect.DeepEqual(f1, f3) {
			t.Fatalf("%s at %s: a second pass changed the request:\n%v %v\n%v %v", name, eff, p1, f1, p3, f3)
		}
	})
}

func FuzzReply(f *testing.F) {
	fuzzSeeds(func(ep uint16, rel uint8, doc []byte) { f.Add(ep, rel, doc, true) })
	f.Fuzz(func(t *testing.T, ep uint16, rel uint8, doc []byte, cookie bool) {
		name, eff := fuzzPick(ep, rel)
		run := func() (map[string]any, []*http.Cookie) {
			reply := fuzzDecode(doc)
			var cookies []*http.Cookie
			if cookie {
				cookies = []*http.Cookie{{Name: "SSO_COOKIE_KEY", Value: "v"}}
			}
			Reply(name, eff, reply, cookies)
			return reply, cookies
		}
		r1, c1 := run()
		r2, c2 := run()
		if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(c1, c2) {
			t.Fatalf("%s at %s: two runs differ: %v / %v", name, eff, r1, r2)
		}
		if _, err := json.Marshal(r1); err != nil {
			t.Fatalf("%s at %s: result is not JSON: %v", name, eff, err)
		}
	})
}

func deepCopy(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	return deepCopyAny(v).(map[string]any)
}

func deepCopyAny(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopyAny(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopyAny(e)
		}
		return l
	}
	return v
}
