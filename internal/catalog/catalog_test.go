package catalog

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/release"
)

// paramName normalises a path for comparison: parameter names differ
// between the documents, so every {name} becomes {}.
var paramRE = regexp.MustCompile(`\{[^}]*\}`)

func shape(path string) string { return paramRE.ReplaceAllString(strings.TrimSuffix(path, "/"), "{}") }

// served maps "METHOD shape" to the entry serving it.
func served() map[string]*Endpoint {
	m := map[string]*Endpoint{}
	for i := range All() {
		e := &All()[i]
		for _, p := range e.Paths() {
			m[e.Method+" "+shape(p)] = e
		}
	}
	return m
}

func readList(t *testing.T, name string) [][2]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, p, ok := strings.Cut(strings.TrimSpace(sc.Text()), " "); ok {
			out = append(out, [2]string{m, p})
		}
	}
	return out
}

// Every endpoint of the vendor's reference (endpoints.tsv, 204 lines) and of
// seed 001's inventory is in the catalogue. A seed row with method "?" needs
// the path under any method.
func TestCoversReferenceAndSeeds(t *testing.T) {
	s := served()
	anyMethod := map[string]bool{}
	for k := range s {
		_, p, _ := strings.Cut(k, " ")
		anyMethod[p] = true
	}
	for _, list := range []string{"reference-6.0.0.3.0.txt", "seed-001.txt"} {
		rows := readList(t, list)
		for _, r := range rows {
			method, path := r[0], r[1]
			if strings.Contains(path, "/vrs/") && strings.HasPrefix(path, "/api/v2/") {
				path = "/api/v1/" + strings.TrimPrefix(path, "/api/v2/")
			}
			if method == "?" {
				if !anyMethod[shape(path)] {
					t.Errorf("%s: %s %s is not in the catalogue", list, method, path)
				}
				continue
			}
			if s[method+" "+shape(path)] == nil {
				t.Errorf("%s: %s %s is not in the catalogue", list, method, path)
			}
		}
		t.Logf("%s: %d rows checked", list, len(rows))
	}
}

// vrs is served under both /api/v1/vrs (seeds) and /api/v2/vrs (reference).
func TestVRSBothPrefixes(t *testing.T) {
	for _, e := range All() {
		if e.Module != VRS || strings.HasSuffix(e.Path, "/version") {
			continue
		}
		ps := strings.Join(e.Paths(), " ")
		if !strings.Contains(ps, "/api/v1/vrs/") || !strings.Contains(ps, "/api/v2/vrs/") {
			t.Errorf("%s serves %s, want both /api/v1/vrs and /api/v2/vrs", e.Name, ps)
		}
	}
}

// The krtc operations of seed 000, and one version entry per module.
func TestKRTCAndVersions(t *testing.T) {
	s := served()
	for _, k := range []string{
		"GET /api/v1/krtc/rooms", "POST /api/v1/krtc/rooms", "DELETE /api/v1/krtc/rooms/{}",
		"GET /api/v1/krtc/rooms/{}", "PUT /api/v1/krtc/rooms/{}",
	} {
		e := s[k]
		if e == nil {
			t.Errorf("%s missing", k)
			continue
		}
		if (e.Method == "POST" || e.Method == "PUT") && e.Style != JSON {
			t.Errorf("%s: style %v, want JSON", k, e.Style)
		}
	}
	for _, m := range Modules {
		for _, p := range []string{"/api/" + string(m) + "/version", "/api/v1/" + string(m) + "/version"} {
			if e := s["GET "+p]; e == nil || !e.Public {
				t.Errorf("GET %s: %+v", p, e)
			}
		}
	}
}

// Every entry is well formed.
func TestEntriesWellFormed(t *testing.T) {
	names := map[string]bool{}
	for _, e := range All() {
		if names[e.Name] {
			t.Errorf("duplicate name %s", e.Name)
		}
		names[e.Name] = true
		if !regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+$`).MatchString(e.Name) {
			t.Errorf("%s: name is not of the form module.resource.verb", e.Name)
		}
		if !strings.HasPrefix(e.Name, string(e.Module)+".") {
			t.Errorf("%s: name does not start with its module %s", e.Name, e.Module)
		}
		for _, p := range e.Paths() {
			if !strings.HasPrefix(p, "/api/") {
				t.Errorf("%s: path %s", e.Name, p)
			}
		}
		switch e.Method {
		case "GET", "POST", "PUT", "DELETE":
		default:
			t.Errorf("%s: method %q", e.Name, e.Method)
		}
		if e.Method == "GET" && e.Style != Query {
			t.Errorf("%s: GET with style %v", e.Name, e.Style)
		}
		if e.MinLevel < 1 || e.MinLevel > release.Latest.Level() {
			t.Errorf("%s: MinLevel %d", e.Name, e.MinLevel)
		}
		if e.Removed != 0 && e.Removed <= e.Since {
			t.Errorf("%s: removed at %s, before or at its introduction %s", e.Name, e.Removed, e.Since)
		}
		// Public: the version queries, system (token, login, heartbeat of the
		// token, API description) and the recording system's own login.
		if e.Public != strings.HasSuffix(e.Name, ".version") && !strings.HasPrefix(e.Name, "system.") && !strings.HasPrefix(e.Name, "vrs.login") {
			t.Errorf("%s: Public = %v", e.Name, e.Public)
		}
		// Path parameters are not listed among the parameters.
		for _, m := range paramRE.FindAllString(e.Path, -1) {
			for _, p := range e.Params {
				if "{"+p.Name+"}" == m && e.Style == Query {
					t.Errorf("%s: path parameter %s listed in Params", e.Name, p.Name)
				}
			}
		}
		checkParams(t, e.Name, e.Params)
		checkParams(t, e.Name+" reply", e.Reply)
	}
}

func checkParams(t *testing.T, where string, ps []Param) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range ps {
		if p.Name == "" {
			t.Errorf("%s: a parameter without a name", where)
		}
		if seen[p.Name] {
			t.Errorf("%s: parameter %s twice", where, p.Name)
		}
		seen[p.Name] = true
		if p.Kind == Array && p.Elem == Object && len(p.Fields) == 0 {
			t.Errorf("%s: %s is an array of objects without fields", where, p.Name)
		}
		if (p.Kind == Object || (p.Kind == Array && p.Elem == Object)) && len(p.Fields) > 0 {
			checkParams(t, where+"."+p.Name, p.Fields)
		}
	}
}

// Endpoints exist exactly between their introduction and removal.
func TestPresenceByRelease(t *testing.T) {
	for _, e := range All() {
		for r := release.Baseline; r <= release.Latest; r++ {
			want := r >= e.Since && (e.Removed == 0 || r < e.Removed)
			if e.ExistsAt(r) != want {
				t.Errorf("%s at %s: ExistsAt = %v", e.Name, r, !want)
			}
		}
	}
	// Spot checks from seed 001.
	for _, tc := range []struct {
		name    string
		r       release.Release
		present bool
	}{
		{"mc.public_templates.list", release.R6_0_0_3_0, true},
		{"mc.public_templates.list", release.R6_1_0_2_0, false},
		{"mc.virtual_meeting_rooms.list", release.R5_2_0_2_0, true},
		{"mc.virtual_meeting_rooms.list", release.R5_1_0_4_0, false},
		{"vc.confs.mt_channel_vmps.create", release.R6_1_0_2_0, false},
		{"vc.confs.mt_channel_vmps.create", release.R6_1_0_4_0, true},
		{"vc.version", release.R5_2_0_4_0, false},
		{"vc.version", release.R6_0_0_3_0, true},
	} {
		e, ok := Lookup(tc.name)
		if !ok {
			t.Errorf("no endpoint %s", tc.name)
			continue
		}
		if e.ExistsAt(tc.r) != tc.present {
			t.Errorf("%s at %s: present = %v, want %v", tc.name, tc.r, !tc.present, tc.present)
		}
	}
}
