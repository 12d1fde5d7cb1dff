// Package compat holds the compatibility rules between platform releases
// (DESIGN principle 2): handlers produce the newest model, and these rules
// reshape each reply for the release the caller sees. No handler tests a
// release itself.
package compat

import (
	"net/http"
	"time"

	"github.com/confer-platform/confer/internal/release"
)

// Change is the kind of a rule.
type Change int

const (
	// Added: the reply field exists from Release on.
	Added Change = iota
	// Removed: the reply field exists before Release only.
	Removed
	// CookieExpires: Set-Cookie carries an Expires date before Release only.
	CookieExpires
)

// Rule is one change of the wire between releases.
type Rule struct {
	Release  release.Release
	Endpoint string // catalogue endpoint name
	Field    string // reply field ("" for CookieExpires)
	Change   Change
	Source   string // where the rule comes from
}

// Rules is the rule table (docs/compatibility.md).
var Rules = []Rule{
	{release.R6_1_0_4_0, "system.login", "userdomainname", Added, "seed 001 6.1.0.4.0: login response gains userdomainname"},
	{release.R6_1_0_4_0, "system.login", "usermoid", Added, "seed 001 6.1.0.4.0: login response gains usermoid"},
	{release.R6_1_0_4_0, "system.login", "userdomainmoid", Added, "seed 001 6.1.0.4.0: login response gains userdomainmoid"},
	{release.R6_1_0_4_0, "system.login", "", CookieExpires, "seed 000 Login response: earlier releases add an Expires date"},
}

var byEndpoint = func() map[string][]Rule {
	m := map[string][]Rule{}
	for _, r := range Rules {
		m[r.Endpoint] = append(m[r.Endpoint], r)
	}
	return m
}()

// Reply reshapes a reply of endpoint for a caller that sees release eff.
func Reply(endpoint string, eff release.Release, reply map[string]any, cookies []*http.Cookie) {
	for _, r := range byEndpoint[endpoint] {
		switch r.Change {
		case Added:
			if eff < r.Release {
				delete(reply, r.Field)
			}
		case Removed:
			if eff >= r.Release {
				delete(reply, r.Field)
			}
		case CookieExpires:
			if eff >= r.Release {
				for _, c := range cookies {
					c.Expires = time.Time{}
				}
			}
		}
	}
}
