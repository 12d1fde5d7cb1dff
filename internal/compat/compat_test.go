package compat

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
)

var update = flag.Bool("update", false, "rewrite the rules table of docs/compatibility-rules.md")

const docPath = "../../docs/compatibility-rules.md"

func ruleTable() string {
	lines := []string{"| release | until | endpoint | direction | field | change | old | value | source |", "|---|---|---|---|---|---|---|---|---|"}
	for _, r := range Rules() {
		until, old, val := "", "", ""
		if r.Until != 0 {
			until = r.Until.String()
		}
		if r.Old != nil {
			old = fmt.Sprint(r.Old)
		}
		if r.New != nil {
			val = fmt.Sprint(r.New)
		}
		path := r.Path
		if r.Change == CookieExpires {
			path = "Set-Cookie"
		}
		lines = append(lines, fmt.Sprintf("| %s | %s | %s | %s | `%s` | %s | %s | %s | %s |", r.Release, until, r.Endpoint, r.Dir, path, r.Change, old, val, r.Source))
	}
	return strings.Join(lines, "\n")
}

// docs/compatibility-rules.md lists exactly the rules of the table; run
// `go test ./internal/compat -run TestDocMatchesRules -update` to rewrite it.
func TestDocMatchesRules(t *testing.T) {
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	const open, close = "<!-- rules:start -->", "<!-- rules:end -->"
	start, end := strings.Index(doc, open), strings.Index(doc, close)
	if start < 0 || end < start {
		t.Fatal("docs/compatibility-rules.md lacks the rules markers")
	}
	want := ruleTable()
	if *update {
		doc = doc[:start+len(open)] + "\n" + want + "\n" + doc[end:]
		if err := os.WriteFile(docPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if strings.TrimSpace(doc[start+len(open):end]) != want {
		t.Fatal("docs/compatibility-rules.md rules table is out of date: run go test ./internal/compat -run TestDocMatchesRules -update")
	}
}

// Every rule names a catalogue endpoint and, unless it concerns a field
// the newest model lacks, a field of that endpoint's schema.
func TestRulesNameCatalogue(t *testing.T) {
	for _, r := range Rules() {
		if _, ok := catalog.Lookup(r.Endpoint); !ok {
			t.Errorf("rule %q: no endpoint %s", r.Source, r.Endpoint)
			continue
		}
		if r.Change != CookieExpires && r.Change != Removed && r.Change != ErrorAnswered && !inSchema(r.Endpoint, r.Path) {
			t.Errorf("rule %q on %s: %s is not in the schema", r.Source, r.Endpoint, r.Path)
		}
	}
	if len(Rules()) < 100 {
		t.Errorf("only %d rules: the schema filter dropped too much", len(Rules()))
	}
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func canon(v any) string { b, _ := json.Marshal(v); return string(b) }

// Golden reply transforms, one per kind of rule.
func TestReplyGolden(t *testing.T) {
	tests := []struct {
		name, endpoint string
		eff            release.Release
		in, want       string
	}{
		{"added field dropped before its release", "vc.confs.list", release.R6_1_0_2_0,
			`{"total":1,"confs":[{"conf_id":"1","enable_rtc":1,"force_mute":0}]}`, `{"total":1,"confs":[{"conf_id":"1","force_mute":0}]}`},
		{"added field kept from its release", "vc.confs.list", release.R6_1_0_4_0,
			`{"confs":[{"conf_id":"1","enable_rtc":1}]}`, `{"confs":[{"conf_id":"1","enable_rtc":1}]}`},
		{"renamed back", "vc.confs.get", release.R5_0_0_4_1,
			`{"voice_activity_detection":1}`, `{"voice_inspire_enable":1,"call_chase":0}`},
		{"value changed back", "mc.personal_templates.get", release.R5_0_0_4_1,
			`{"video_formats":[{"format":6,"resolution":16},{"format":4,"resolution":3}]}`, `{"video_formats":[{"format":7,"resolution":19},{"format":4,"resolution":3}]}`},
		{"value unchanged from its release", "mc.personal_templates.get", release.R5_1_0_1_0,
			`{"video_formats":[{"format":6,"resolution":16}]}`, `{"video_formats":[{"format":6,"resolution":16}]}`},
		{"retyped back", "vc.confs.recorders.list", release.R5_1_0_2_0,
			`{"recorders":[{"rec_id":"12"}]}`, `{"recorders":[{"rec_id":12}]}`},
		{"removed field with its old default", "vc.confs.get", release.R5_1_0_1_0,
			`{"conf_id":"1"}`, `{"conf_id":"1","call_chase":0}`},
		{"removed field absent from its release", "vc.confs.get", release.R5_1_0_2_0,
			`{"conf_id":"1","call_chase":0}`, `{"conf_id":"1"}`},
		{"login fields", "system.login", release.R6_0_0_3_0,
			`{"username":"u","usermoid":"m","userdomainmoid":"d","userdomainname":"n"}`, `{"username":"u"}`},
	}
	for _, tc := range tests {
		reply := decode(t, tc.in)
		Reply(tc.endpoint, tc.eff, reply, nil)
		if got, want := canon(reply), canon(decode(t, tc.want)); got != want {
			t.Errorf("%s: Reply(%s at %s) = %s, want %s", tc.name, tc.endpoint, tc.eff, got, want)
		}
	}
	cookies := []*http.Cookie{{Name: "SSO_COOKIE_KEY", Expires: time.Unix(1e9, 0)}}
	Reply("system.login", release.R6_1_0_4_0, map[string]any{}, cookies)
	if !cookies[0].Expires.IsZero() {
		t.Error("6.1.0.4.0 login cookie kept Expires")
	}
}

// Golden request transforms, one per kind of rule.
func TestRequestGolden(t *testing.T) {
	tests := []struct {
		name, endpoint string
		eff            release.Release
		in, want       string
		problems       int
	}{
		{"old name renamed forward", "vc.confs.vad.update", release.R5_0_0_4_1, `{"state":1,"interval":5}`, `{"state":1,"vacinterval":5}`, 0},
		{"old value mapped forward", "mc.confs.create", release.R5_0_0_4_1, `{"video_formats":[{"format":7,"resolution":19}]}`, `{"video_formats":[{"format":6,"resolution":16}]}`, 0},
		{"old type accepted", "mc.personal_templates.create", release.R5_2_0_2_0, `{"vmp":{"members":[{"poll":{"mode":"3"}}]}}`, `{"vmp":{"members":[{"poll":{"mode":3}}]}}`, 0},
		{"field unknown to the release dropped", "mc.confs.create", release.R6_1_0_2_0, `{"name":"a","enable_rtc":1}`, `{"name":"a"}`, 0},
		{"value not yet allowed", "vc.confs.mts.add", release.R5_1_0_2_0, `{"mts":[{"account":"a","account_type":8}]}`, `{"mts":[{"account":"a","account_type":8}]}`, 1},
		{"value allowed from its release", "vc.confs.mts.add", release.R5_1_0_4_0, `{"mts":[{"account":"a","account_type":8}]}`, `{"mts":[{"account":"a","account_type":8}]}`, 0},
		{"value removed", "mc.confs.create", release.R6_1_0_4_0, `{"conf_type":3}`, `{"conf_type":3}`, 1},
		{"value before removal", "mc.confs.create", release.R6_1_0_2_0, `{"conf_type":3}`, `{"conf_type":3}`, 0},
		{"layout 61 before 5.2.0.2.0", "vc.confs.vmps.create", release.R5_1_0_4_0, `{"mode":1,"layout":61}`, `{"mode":1,"layout":61}`, 1},
	}
	for _, tc := range tests {
		params := decode(t, tc.in)
		ps := Request(tc.endpoint, tc.eff, params, nil)
		if got, want := canon(params), canon(decode(t, tc.want)); got != want || len(ps) != tc.problems {
			t.Errorf("%s: Request(%s at %s) = %s %v, want %s with %d problems", tc.name, tc.endpoint, tc.eff, got, ps, want, tc.problems)
		}
	}
	// Flat (query) parameters.
	q := url.Values{"own_conf": {"1"}, "count": {"5"}}
	Request("vc.confs.list", release.R6_0_0_3_0, nil, q)
	if !reflect.DeepEqual(q, url.Values{"count": {"5"}}) {
		t.Errorf("own_conf not dropped before 6.1.0.2.0: %v", q)
	}
}

func TestAbsent(t *testing.T) {
	old := Absent("mc.personal_templates.create", release.R5_1_0_1_0)
	for _, f := range []string{"call_mode", "bind_e164", "one_reforming", "enable_rtc"} {
		if !old(f) {
			t.Errorf("%s present at 5.1.0.1.0", f)
		}
	}
	if old("name") {
		t.Error("name absent at 5.1.0.1.0")
	}
	if Absent("mc.personal_templates.create", release.R6_1_0_4_0)("call_mode") {
		t.Error("call_mode absent at 6.1.0.4.0")
	}
}
