package catalog

import "github.com/confer-platform/confer/internal/release"

// Unified login (seed 000 "Specified operations", "Authentication";
// reference 03-system-login.md).
var systemEndpoints = []Endpoint{
	{
		Name: "system.token", Module: System, Method: "POST", Path: "/api/v1/system/token",
		Summary: "Obtain an account_token with an API license", MinLevel: 1, Public: true, Style: Form,
		Params: []Param{
			{Name: "oauth_consumer_key", Kind: String, Required: true, Doc: "license key"},
			{Name: "oauth_consumer_secret", Kind: String, Required: true, Doc: "license secret"},
		},
		Reply: []Param{{Name: "account_token", Kind: String}},
	},
	{
		Name: "system.token.heartbeat", Module: System, Method: "POST", Path: "/api/v1/system/token/{account_token}/heartbeat",
		Summary: "Renew an account_token", MinLevel: 1, Public: true, Style: Form,
	},
	{
		Name: "system.login", Module: System, Method: "POST", Path: "/api/v1/system/login",
		Summary: "Log in; sets the SSO_COOKIE_KEY cookie", MinLevel: 1, Public: true, Style: Form,
		Params: []Param{
			{Name: "account_token", Kind: String, Required: true},
			{Name: "username", Kind: String, Required: true},
			{Name: "password", Kind: String, Required: true},
		},
		Reply: []Param{
			{Name: "username", Kind: String},
			{Name: "userdomainname", Kind: String},
			{Name: "usermoid", Kind: String},
			{Name: "userdomainmoid", Kind: String},
		},
	},
	{
		Name: "system.openapi", Module: System, Method: "GET", Path: "/api/openapi.json",
		Summary: "OpenAPI 3.1 description of the API at this release", MinLevel: 1, Public: true, Style: Query,
		Extension: true,
	},
	{
		Name: "system.heartbeat", Module: System, Method: "POST", Path: "/api/v1/system/heartbeat",
		Summary: "Renew the session and its token", MinLevel: 1, Style: Form,
		Params: []Param{{Name: "account_token", Kind: String, Required: true}},
	},
}

// versionEndpoints are the per-module version queries (seed 000
// "Versioning" 6; reference 01 3.5), served at /api/{app}/version and
// /api/v1/{app}/version without login. They exist from 6.0.0.3.0.
func versionEndpoints() []Endpoint {
	var es []Endpoint
	for _, m := range Modules {
		aliases := []string{"/api/v1/" + string(m) + "/version"}
		if m == VRS {
			// The reference's vrs version path is spelled "ver2sion"
			// (09-vrs-recording-system.md); clients copied from it use it.
			aliases = append(aliases, "/api/vrs/ver2sion", "/api/v2/vrs/version")
		}
		// A version query is how a client discovers the level, so it
		// answers at every level a request states (seed 000 "Versioning"
		// 6), also for a module that needs a higher level for the rest.
		since, level := release.R6_0_0_3_0, 1
		if m == UPU { // seed 001: /api/upu/version from 6.1.0.4.0
			since = release.R6_1_0_4_0
		}
		es = append(es, Endpoint{
			Name: string(m) + ".version", Module: m, Method: "GET",
			Path: "/api/" + string(m) + "/version", Aliases: aliases,
			Summary: "API-Level and version of the " + string(m) + " module", MinLevel: level,
			Since: since, Public: true, Style: Query,
			Reply: []Param{{Name: "version", Kind: String}, {Name: "api_level", Kind: Int}},
		})
	}
	return es
}
