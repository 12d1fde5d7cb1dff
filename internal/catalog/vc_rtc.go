package catalog

import "github.com/confer-platform/confer/internal/release"

// Real media (Confer's extension, docs/media.md "Getting in: `rtc_tokens`"): a token
// that lets a browser, a WHIP publisher or a WHEP viewer take part in a
// running conference's media. Not a platform endpoint.
var vcRTCEndpoints = []Endpoint{
	{
		Name: "vc.confs.rtc_tokens.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/rtc_tokens",
		Summary:  "A media token of the running conference with its WHIP, WHEP and join page URLs",
		MinLevel: 1, Since: release.Baseline, Style: Params, Extension: true,
		Params: []Param{
			{Name: "name", Kind: String, Doc: "participant's display name, shown as the terminal's alias; max 64 bytes; default \"guest\""},
			{Name: "role", Kind: String, EnumS: []string{"publish", "subscribe", "both"}, Doc: "what the token allows; default both"},
			{Name: "ttl", Kind: Int, Doc: "lifetime in seconds, 60 to 86400; default 3600"},
		},
		Reply: []Param{
			{Name: "token", Kind: String, Doc: "bearer token of WHIP and WHEP; dies with the conference"},
			{Name: "whip_url", Kind: String, Doc: "WHIP endpoint (RFC 9725) of the conference"},
			{Name: "whep_url", Kind: String, Doc: "WHEP endpoint of the conference's broadcast"},
			{Name: "join_url", Kind: String, Doc: "the browser join page, token included"},
			{Name: "expires_at", Kind: String, Doc: "expiry, ISO 8601 with offset"},
		},
	},
}
