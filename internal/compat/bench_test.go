package compat

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strconv"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
)

// Benchmarks of the release transforms (docs/benchmarks.md, issue 11): the
// request transform and the reply transform of representative endpoints,
// at the oldest release (the most rules apply) and at the newest.
//
//	go test ./internal/compat -run '^$' -bench . -benchtime 2s
//
// The documents are generated from the catalogue schema: every field of
// the newest model present, lists of the given length (nested lists of 2),
// numbers as json.Number as the wire decodes them.

var benchReleases = []release.Release{release.R5_0_0_4_1, release.Latest}

// benchDoc fills every field of ps; lists named in lens get that many
// elements.
func benchDoc(ps []catalog.Param, lens map[string]int) map[string]any {
	m := make(map[string]any, len(ps))
	for _, p := range ps {
		n := lens[p.Name]
		if n == 0 {
			n = 2
		}
		m[p.Name] = benchValue(p, n)
	}
	return m
}

func benchValue(p catalog.Param, n int) any {
	switch p.Kind {
	case catalog.Int:
		if len(p.Enum) > 0 {
			return json.Number(strconv.Itoa(p.Enum[0]))
		}
		return json.Number("1")
	case catalog.Number:
		return json.Number("1.5")
	case catalog.Bool:
		return false
	case catalog.Object:
		return benchDoc(p.Fields, nil)
	case catalog.Array:
		l := make([]any, n)
		for i := range l {
			if p.Elem == catalog.Object {
				l[i] = benchDoc(p.Fields, nil)
			} else {
				l[i] = benchValue(catalog.Param{Kind: p.Elem, Enum: p.Enum}, 2)
			}
		}
		return l
	}
	if len(p.EnumS) > 0 {
		return p.EnumS[0]
	}
	return "sample " + p.Name
}

// benchTransform runs fn on a fresh copy of proto per op; the copies are
// made in small batches with the timer stopped (their time and
// allocations are not counted), so that they are still in the cache, as a
// reply built by its handler just before. A transform that leaves the document as it was (the
// reply at the newest release) runs on the same copy every op: copying
// would take far longer than the transform.
func benchTransform(b *testing.B, proto map[string]any, fn func(doc map[string]any)) {
	const batch = 16
	body, err := json.Marshal(proto)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body))) // the document's size, as JSON
	same := deepCopy(proto)
	if fn(same); reflect.DeepEqual(same, proto) {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			fn(same)
		}
		return
	}
	docs := make([]map[string]any, batch)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%batch == 0 {
			b.StopTimer()
			for j := range docs {
				docs[j] = deepCopy(proto)
			}
			b.StartTimer()
		}
		fn(docs[i%batch])
	}
}

func benchEndpoint(b *testing.B, name string) *catalog.Endpoint {
	e, ok := catalog.Lookup(name)
	if !ok {
		b.Fatalf("no endpoint %s", name)
	}
	return e
}

// BenchmarkRequest: a conference creation with 8 invited members (every
// creation field filled), a batch addition of 10 terminals, and a list's
// query parameters.
func BenchmarkRequest(b *testing.B) {
	cases := []struct {
		endpoint string
		lens     map[string]int
	}{
		{"mc.confs.create", map[string]int{"invite_members": 8}},
		{"vc.confs.mts.add", map[string]int{"mts": 10}},
	}
	for _, tc := range cases {
		proto := benchDoc(benchEndpoint(b, tc.endpoint).Params, tc.lens)
		for _, eff := range benchReleases {
			b.Run(tc.endpoint+"/"+eff.String(), func(b *testing.B) {
				benchTransform(b, proto, func(doc map[string]any) { Request(tc.endpoint, eff, doc, nil) })
			})
		}
	}
	// The list's query, with the building of its url.Values.
	for _, eff := range benchReleases {
		b.Run("vc.confs.list.query/"+eff.String(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				q := url.Values{"start": {"0"}, "count": {"20"}, "own_conf": {"1"}}
				Request("vc.confs.list", eff, nil, q)
			}
		})
	}
}

// BenchmarkReply: a conference's details, a list of 20 conferences and a
// list of 8 terminals, every reply field filled.
func BenchmarkReply(b *testing.B) {
	cases := []struct {
		endpoint string
		lens     map[string]int
	}{
		{"vc.confs.get", nil},
		{"vc.confs.list", map[string]int{"confs": 20}},
		{"vc.confs.mts.list", map[string]int{"mts": 8}},
	}
	for _, tc := range cases {
		proto := benchDoc(benchEndpoint(b, tc.endpoint).Reply, tc.lens)
		for _, eff := range benchReleases {
			b.Run(tc.endpoint+"/"+eff.String(), func(b *testing.B) {
				benchTransform(b, proto, func(doc map[string]any) { Reply(tc.endpoint, eff, doc, nil) })
			})
		}
	}
}
