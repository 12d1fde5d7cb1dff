package push

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
)

// Wildcards (reference 02 "通道说明"): "*" matches one segment below,
// "**" any number (at least one); only in the last segment.
func TestWildcards(t *testing.T) {
	const d = "/userdomains/dom/confs"
	for _, tc := range []struct {
		pattern, ch string
		want        bool
	}{
		{d + "/1", d + "/1", true},
		{d + "/1", d + "/2", false},
		{d + "/*", d + "/1", true},
		{d + "/*", d, false},
		{d + "/*", d + "/1/speaker", false},
		{d + "/**", d + "/1", true},
		{d + "/**", d + "/1/speaker", true},
		{d + "/**", d + "/1/cascades/0/mts/3", true},
		{d + "/**", d, false},
		{d + "/1/cascades/0/mts/*", d + "/1/cascades/0/mts/3", true},
		{d + "/1/**", d + "/2/speaker", false},
		{"/**", d, true},
		{"/*", "/userdomains", true},
		{"/*", d, false},
	} {
		if got := matches(tc.pattern, tc.ch); got != tc.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tc.pattern, tc.ch, got, tc.want)
		}
	}
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"/a", true}, {"/a/*", true}, {"/a/**", true}, {"/*", true}, {"/**", true},
		{"", false}, {"/", false}, {"a", false}, {"/a/", false}, {"/a//b", false},
		{"/*/a", false}, {"/a/**/b", false}, {"/a*", false}, {"/a/b*", false}, {"/a/***", false},
	} {
		if got := validPattern(tc.p); got != tc.want {
			t.Errorf("validPattern(%q) = %v, want %v", tc.p, got, tc.want)
		}
	}
	for ch, want := range map[string]string{
		"/userdomains/x/confs/**": "x", "/userdomains/x": "x", "/userdomains/*/confs": "", "/userdomains/**": "",
		"/confs/x": "", "/userdomainsx/y": "",
	} {
		if got := domainOf(ch); got != want {
			t.Errorf("domainOf(%q) = %q, want %q", ch, got, want)
		}
	}
}

// The parts of the conference document that the channel table reads.
func TestParts(t *testing.T) {
	doc := storedDoc{}
	if err := json.Unmarshal([]byte(`{
		"speaker_mt_id": "2",
		"vc_poll": {"state": 0, "members": []},
		"vc_mix": {"mode": 1, "mt_ids": ["1"]},
		"vc_selfvmps": [{"mt_id": "1", "mt_chn_idx": 0}, {"mt_id": "1", "mt_chn_idx": 1}, {"mt_id": "3", "mt_chn_idx": 0}],
		"vc_inspections": [{"mode": 1, "src": {"type": 1, "mt_id": "2"}, "dst": {"mt_id": "1", "mt_chn_idx": 0}}],
		"vc_monitors": [{"dst": {"ip": "10.0.0.9", "port": 7000}}],
		"vc_hdus": {"2_0": {"mode": 1}}
	}`), &doc); err != nil {
		t.Fatal(err)
	}
	paths := func(cp confPart) []string {
		var out []string
		for _, k := range sortedKeys(cp.Parts(doc)) {
			out = append(out, expand(cp.Path, cp.Parts(doc)[k].params))
		}
		return out
	}
	byPath := map[string]confPart{}
	for _, cp := range confParts {
		byPath[cp.Path] = cp
	}
	for path, want := range map[string][]string{
		"/speaker":                     {"/speaker"},
		"/chairman":                    {"/chairman"},
		"/poll":                        nil, // stopped
		"/mixs/{mix_id}":               {"/mixs/1"},
		"/vmps/{vmp_id}":               nil,
		"/mtvmps/{mt_id}":              {"/mtvmps/1", "/mtvmps/3"},
		"/inspections/{mt_id}/{mode}":  {"/inspections/1/1"},
		"/monitor/{dst_ip}/{dst_port}": {"/monitor/10.0.0.9/7000"},
		"/hdus/{hdu_id}":               {"/hdus/2_0"},
		"/recorders/{rec_id}":          nil,
	} {
		cp, ok := byPath[path]
		if !ok {
			t.Fatalf("no channel %s in the table", path)
		}
		got := paths(cp)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s: parts %s, want %s", path, g, w)
		}
	}
	// A terminal's compositions on two channels are one part: changing
	// either changes it.
	before := byPath["/mtvmps/{mt_id}"].Parts(doc)
	doc["vc_selfvmps"] = json.RawMessage(`[{"mt_id": "1", "mt_chn_idx": 0}, {"mt_id": "1", "mt_chn_idx": 1, "layout": 2}, {"mt_id": "3", "mt_chn_idx": 0}]`)
	after := byPath["/mtvmps/{mt_id}"].Parts(doc)
	for k := range after {
		if changed := before[k].value != after[k].value; changed != (after[k].params["mt_id"] == "1") {
			t.Errorf("part %v changed = %v", after[k].params, changed)
		}
	}
	// Every row names a GET endpoint of the catalogue.
	for _, cp := range confParts {
		if ep, ok := catalog.Lookup(cp.Endpoint); !ok || ep.Method != "GET" {
			t.Errorf("%s: unknown endpoint %s", cp.Path, cp.Endpoint)
		}
	}
}

func TestParseBatch(t *testing.T) {
	for _, body := range []string{`{"channel":"/meta/connect"}`, `[{"channel":"/meta/connect"},{"channel":"/meta/subscribe"}]`} {
		if ms, err := parseBatch([]byte(body)); err != nil || len(ms) == 0 {
			t.Errorf("parseBatch(%s) = %v, %v", body, ms, err)
		}
	}
	for _, body := range []string{``, `[]`, `"x"`, `[1]`, `{`} {
		if _, err := parseBatch([]byte(body)); err == nil {
			t.Errorf("parseBatch(%s) accepted", body)
		}
	}
}
