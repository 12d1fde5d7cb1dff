package router

import "testing"

// benchRouter holds a few of the catalogue's patterns around the list and
// the speaker change.
func benchRouter(b *testing.B) *Router[string] {
	var rt Router[string]
	for _, p := range []string{"/api/v1/vc/confs", "/api/v1/vc/confs/{conf_id}", "/api/v1/vc/confs/{conf_id}/mts",
		"/api/v1/vc/confs/{conf_id}/speaker", "/api/v1/vc/confs/{conf_id}/mtvmps/{mt_id}/{mt_chn_idx}", "/api/{app}/version"} {
		for _, m := range []string{"GET", "PUT", "POST"} {
			if err := rt.Add(m, p, m+p); err != nil {
				b.Fatal(err)
			}
		}
	}
	return &rt
}

// BenchmarkMatchStatic matches GET /api/v1/vc/confs (no parameter).
func BenchmarkMatchStatic(b *testing.B) {
	rt := benchRouter(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, _, ok := rt.Match("GET", "/api/v1/vc/confs"); !ok {
			b.Fatal("no match")
		}
	}
}

// BenchmarkMatchParam matches PUT /api/v1/vc/confs/{conf_id}/speaker.
func BenchmarkMatchParam(b *testing.B) {
	rt := benchRouter(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, p, _, ok := rt.Match("PUT", "/api/v1/vc/confs/1110000/speaker"); !ok || p["conf_id"] != "1110000" {
			b.Fatal("no match")
		}
	}
}

// Matching allocates only the parameters' map (two allocations for a
// small map): the path's segments are cut in place (a regression guard,
// docs/benchmarks.md).
func TestMatchAllocs(t *testing.T) {
	var rt Router[string]
	rt.Add("GET", "/api/v1/vc/confs", "list")
	rt.Add("PUT", "/api/v1/vc/confs/{conf_id}/speaker", "speaker")
	for _, c := range []struct {
		m, path string
		budget  float64
	}{{"GET", "/api/v1/vc/confs", 0}, {"PUT", "/api/v1/vc/confs/1110000/speaker", 2}} {
		if n := testing.AllocsPerRun(100, func() { rt.Match(c.m, c.path) }); n > c.budget {
			t.Errorf("Match(%s %s): %.0f allocations, budget %.0f", c.m, c.path, n, c.budget)
		}
	}
}
