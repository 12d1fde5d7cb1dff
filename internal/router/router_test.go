package router

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	var rt Router[string]
	for _, r := range []struct{ m, p, v string }{
		{"GET", "/api/v1/vc/confs", "list"},
		{"GET", "/api/v1/vc/confs/{conf_id}", "info"},
		{"GET", "/api/v1/vc/confs/{conf_id}/mts", "mts"},
		{"POST", "/api/v1/vc/confs/{conf_id}/mts", "add"},
		{"GET", "/api/v1/vc/confs/{conf_id}/mtvmps/{mt_id}", "mtvmp"},
		{"GET", "/api/v1/vc/confs/{conf_id}/mtvmps/{mt_id}/{mt_chn_idx}", "mtvmp-chn"},
		{"GET", "/api/{app}/version", "version"},
		{"GET", "/api/v1/vc/version", "static-version"},
	} {
		if err := rt.Add(r.m, r.p, r.v); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		m, path, want string
		params        map[string]string
		found, ok     bool
	}{
		{"GET", "/api/v1/vc/confs", "list", nil, true, true},
		{"GET", "/api/v1/vc/confs/", "list", nil, true, true},
		{"GET", "/api/v1/vc/confs/77", "info", map[string]string{"conf_id": "77"}, true, true},
		{"POST", "/api/v1/vc/confs/77/mts", "add", map[string]string{"conf_id": "77"}, true, true},
		{"DELETE", "/api/v1/vc/confs/77/mts", "", nil, true, false},
		{"GET", "/api/v1/vc/confs/77/mtvmps/3/1", "mtvmp-chn", map[string]string{"conf_id": "77", "mt_id": "3", "mt_chn_idx": "1"}, true, true},
		{"GET", "/api/mc/version", "version", map[string]string{"app": "mc"}, true, true},
		{"GET", "/api/v1/vc/version", "static-version", nil, true, true},
		{"GET", "/api/v1/vc/confs/77/nothing", "", nil, false, false},
		{"GET", "/api/v1/vc/confs//mts", "", nil, false, false},
	}
	for _, tc := range tests {
		v, params, found, ok := rt.Match(tc.m, tc.path)
		if v != tc.want || found != tc.found || ok != tc.ok || len(params) != len(tc.params) {
			t.Errorf("Match(%s %s) = %q %v %v %v, want %q %v %v %v", tc.m, tc.path, v, params, found, ok, tc.want, tc.params, tc.found, tc.ok)
			continue
		}
		for k, want := range tc.params {
			if params[k] != want {
				t.Errorf("Match(%s %s) param %s = %q, want %q", tc.m, tc.path, k, params[k], want)
			}
		}
	}
	if err := rt.Add("GET", "/api/v1/vc/confs/{id}/x", "other-name"); err != nil {
		t.Errorf("Add with another parameter name at a position: %v", err)
	}
	if _, p, _, ok := rt.Match("GET", "/api/v1/vc/confs/9/x"); !ok || p["id"] != "9" || p["conf_id"] != "" {
		t.Errorf("Match of the other-name route: params %v, ok %v", p, ok)
	}
	if err := rt.Add("GET", "/api/v1/vc/confs", "again"); err == nil {
		t.Error("Add of a duplicate route succeeded")
	}
}

// TestMethodsInNameOrder: the methods of a path come in name order on
// every call (a 90405 reply names them; a map's order made its bytes
// vary between calls).
func TestMethodsInNameOrder(t *testing.T) {
	var rt Router[string]
	for _, m := range []string{"PUT", "GET", "POST", "DELETE"} {
		if err := rt.Add(m, "/api/v1/mc/meeting_room_areas/{id}", m); err != nil {
			t.Fatal(err)
		}
	}
	for range 50 {
		if got := strings.Join(rt.Methods("/api/v1/mc/meeting_room_areas/7"), ", "); got != "DELETE, GET, POST, PUT" {
			t.Fatalf("Methods = %q, want DELETE, GET, POST, PUT", got)
		}
	}
}
