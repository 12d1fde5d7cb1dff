package server_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

func params(t *testing.T, v any) url.Values {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return url.Values{"params": {string(b)}}
}

// The seeds' debug example: an mts element without bitrate is reported
// under mts, one array element per element of the request's list.
func TestDebugMode(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	r := c.Do("POST", "/api/v1/vc/confs/1118986/mts?debug=1", params(t, map[string]any{
		"mts": []map[string]any{{"account_type": 5, "account": "2322231", "protocol": 0}},
	}))
	if r.Raw != `{"success":1,"debug_list":{"mts":[{"bitrate":"required parameter is missing"}]}}` {
		t.Fatalf("debug reply = %s", r.Raw)
	}
	r = c.Do("POST", "/api/v1/vc/confs/1118986/mts?debug=1", params(t, map[string]any{
		"mts": []map[string]any{
			{"account_type": 5, "account": "2322231", "bitrate": 2048, "protocol": 0},
			{"account_type": 5, "account": "2322232", "protocol": 0},
			{"account": 7, "account_type": 5, "protocol": 0, "bitrate": "fast"},
		},
	}))
	want := `{"success":1,"debug_list":{"mts":[{},{"bitrate":"required parameter is missing"},{"bitrate":"must be an integer"}]}}`
	if r.Raw != want {
		t.Fatalf("debug reply = %s\nwant %s", r.Raw, want)
	}
	// Valid parameters: an empty debug_list, and nothing executed: the
	// conference gains no terminal.
	conf := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", params(t, map[string]any{"create_type": 1, "name": "debug"})))
	id := conf["conf_id"].(string)
	r = c.Do("POST", "/api/v1/vc/confs/"+id+"/mts?debug=1", params(t, map[string]any{
		"mts": []map[string]any{{"account": "2322231", "account_type": 5, "protocol": 0, "bitrate": 2048}},
	}))
	if r.Raw != `{"success":1,"debug_list":{}}` {
		t.Fatalf("debug reply = %s", r.Raw)
	}
	if mts := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any); len(mts) != 0 {
		t.Fatalf("debug mode added terminals: %v", mts)
	}
	// Debug mode needs a login like everything else.
	anon := env.Client(t)
	anon.Token = c.Token
	wantCode(t, anon.Do("POST", "/api/v1/vc/confs/1/mts?debug=1", nil), wire.CodeNotLoggedIn)
}

func TestValidationErrors(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	for _, tc := range []struct {
		name, method, path string
		args               url.Values
		wantPath           string
	}{
		{"missing required list", "POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{}), "mts"},
		{"missing nested field", "POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": []any{map[string]any{"account": "1", "bitrate": 1}, map[string]any{"account": "2"}}}), "mts[1].bitrate"},
		{"wrong type", "POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": []any{map[string]any{"account": "1", "bitrate": true}}}), "mts[0].bitrate"},
		{"list not a list", "POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": "all"}), "mts"},
		{"element not an object", "POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": []any{3}}), "mts[0]"},
		{"value outside the enumeration", "POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": []any{map[string]any{"account": "1", "bitrate": 1, "call_mode": 9}}}), "mts[0].call_mode"},
		{"query integer", "GET", "/api/v1/mc/personal_templates", url.Values{"count": {"ten"}}, "count"},
		{"query enumeration", "GET", "/api/v1/mc/personal_templates", url.Values{"order": {"7"}}, "order"},
	} {
		r := c.Do(tc.method, tc.path, tc.args)
		wantCode(t, r, wire.CodeInvalidParam)
		if d := r.Body["description"].(string); !strings.Contains(d, "parameter "+tc.wantPath+":") {
			t.Errorf("%s: description %q does not name %s", tc.name, d, tc.wantPath)
		}
	}
	// Lenient coercion: an integer written as a string passes validation
	// and reaches the handler, which finds no conference 1.
	r := c.Do("POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": []any{map[string]any{"account": 1234, "account_type": "5", "protocol": 0, "bitrate": "2048"}}}))
	wantCode(t, r, wire.CodeConfNotFound)
}

// The _method overrides reach the DELETE and PUT entries of a path: each
// row's answer is one that only the intended entry gives.
func TestMethodOverrideRouting(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	empty := params(t, map[string]any{})
	for _, tc := range []struct {
		method, path string
		args         url.Values
		code         int
		want         string
	}{
		// Only the delete handler answers that the template is missing
		// (the POST to the item is the update, which needs a name).
		{"POST", "/api/v1/mc/personal_templates/9?_method=DELETE", nil, 99998, "personal template 9 does not exist"},
		{"DELETE", "/api/v1/mc/personal_templates/9", nil, 99998, "personal template 9 does not exist"},
		// Only the speaker update requires mt_id; the get answers 12103.
		{"POST", "/api/v1/vc/confs/9/speaker?_method=PUT", empty, wire.CodeInvalidParam, "parameter mt_id"},
		{"PUT", "/api/v1/vc/confs/9/speaker", empty, wire.CodeInvalidParam, "parameter mt_id"},
		{"GET", "/api/v1/vc/confs/9/speaker", nil, wire.CodeConfNotFound, "conference 9 does not exist"},
	} {
		r := c.Do(tc.method, tc.path, tc.args)
		if r.Code() != tc.code || !strings.Contains(r.Raw, tc.want) {
			t.Errorf("%s %s = %s, want %d %q", tc.method, tc.path, r.Raw, tc.code, tc.want)
		}
	}
}

// Requests are parsed as the caller's release defines (seed 000
// "Versioning" 4): a value the release lacks is refused.
func TestRequestShapedByRelease(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.1.0.2.0"})
	c := env.LoggedIn(t)
	mt := map[string]any{"account": "a@1.2.3.4", "account_type": 8, "bitrate": 2048, "protocol": 0}
	r := c.Do("POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": []any{mt}}))
	wantCode(t, r, wire.CodeInvalidParam)
	if !strings.Contains(r.Raw, "not allowed before release 5.1.0.4.0") {
		t.Fatalf("reply %s does not explain the release", r.Raw)
	}
	latest := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c = latest.LoggedIn(t)
	wantCode(t, c.Do("POST", "/api/v1/vc/confs/1/mts", params(t, map[string]any{"mts": []any{mt}})), wire.CodeConfNotFound)
}
