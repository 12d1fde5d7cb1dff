package server_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Issue 20 item 5: one rule for `_method` (docs/api.md "Requests"): PUT or
// DELETE in any case, around blanks, in the query or the form; an empty
// value is no override; anything else is 90400. POST /meeting_files/{id}
// is an upload (90400 naming the missing file part), DELETE a file
// deletion (24018 for an unknown file).
func TestMethodOverrideRule(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	const path = "/api/v1/mc/meeting_files/999"
	for _, tc := range []struct {
		query, form string
		want        string // "delete", "upload" or "refused"
	}{
		{"_method=DELETE", "", "delete"},
		{"_method=delete", "", "delete"},
		{"_method=%20Delete%20", "", "delete"},
		{"", "delete", "delete"},
		{"_method=", "", "upload"},
		{"_method=%20", "", "upload"},
		{"", "", "upload"},
		{"_method=", "DELETE", "delete"},
		{"_method=patch", "", "refused"},
		{"_method=GET", "", "refused"},
		{"", "POST", "refused"},
	} {
		form := url.Values{}
		if tc.form != "" {
			form.Set("_method", tc.form)
		}
		p := path
		if tc.query != "" {
			p += "?" + tc.query
		}
		r := c.Do("POST", p, form)
		desc, _ := r.Body["description"].(string)
		got := "?"
		switch {
		case r.Code() == mc.CodeFileNotFound:
			got = "delete"
		case r.Code() == wire.CodeInvalidParam && strings.HasPrefix(desc, "parameter file:"):
			got = "upload"
		case r.Code() == wire.CodeInvalidParam && strings.HasPrefix(desc, "parameter _method:"):
			got = "refused"
		}
		if got != tc.want {
			t.Errorf("query %q form %q: %s, want %s", tc.query, tc.form, r.Raw, tc.want)
		}
	}
}
