package compat

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/release"
)

func changeName(c Change) string {
	return map[Change]string{Added: "added", Removed: "removed", CookieExpires: "dropped"}[c]
}

// docs/compatibility.md lists exactly the rules of the table.
func TestDocMatchesRules(t *testing.T) {
	b, err := os.ReadFile("../../docs/compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start, end := strings.Index(doc, "<!-- rules:start -->"), strings.Index(doc, "<!-- rules:end -->")
	if start < 0 || end < start {
		t.Fatal("docs/compatibility.md lacks the rules markers")
	}
	var want []string
	want = append(want, "| release | endpoint | field | change | source |", "|---|---|---|---|---|")
	for _, r := range Rules {
		field := r.Field
		if r.Change == CookieExpires {
			field = "Set-Cookie Expires"
		}
		want = append(want, "| "+r.Release.String()+" | "+r.Endpoint+" | "+field+" | "+changeName(r.Change)+" | "+r.Source+" |")
	}
	got := strings.TrimSpace(doc[start+len("<!-- rules:start -->") : end])
	if got != strings.Join(want, "\n") {
		t.Fatalf("docs/compatibility.md rules table is out of date; want:\n%s", strings.Join(want, "\n"))
	}
}

func TestLoginReply(t *testing.T) {
	newest := func() (map[string]any, []*http.Cookie) {
		return map[string]any{"username": "u", "userdomainname": "d", "usermoid": "m", "userdomainmoid": "dm"},
			[]*http.Cookie{{Name: "SSO_COOKIE_KEY", Value: "v", Expires: time.Unix(1e9, 0)}}
	}
	for _, tc := range []struct {
		eff     release.Release
		fields  int
		expires bool
	}{
		{release.R5_0_0_4_1, 1, true},
		{release.R6_0_0_3_0, 1, true},
		{release.R6_1_0_2_0, 1, true},
		{release.R6_1_0_4_0, 4, false},
	} {
		reply, cookies := newest()
		Reply("system.login", tc.eff, reply, cookies)
		if len(reply) != tc.fields || cookies[0].Expires.IsZero() == tc.expires {
			t.Errorf("at %s: reply %v, cookie expires %v", tc.eff, reply, cookies[0].Expires)
		}
	}
}
