package catalog

import "github.com/confer-platform/confer/internal/release"

// Unified presence (upu): besides the version query (seed 001, 6.1.0.4.0),
// the seeds and the reference show no upu endpoint. Presence of the user
// domain's terminals and accounts is Confer's own (docs/upu.md).
var upuEndpoints = []Endpoint{
	{
		Name: "upu.terminals.list", Module: UPU, Method: "GET", Path: "/api/v1/upu/terminals",
		Summary:  "Presence of the user domain's terminals: online, calling or offline, in which conference, since when",
		MinLevel: 1, Since: release.Baseline, Style: Query, Extension: true,
		Params: upuListParams("terminal account (E.164 number, alias or IP) to show alone"),
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "number of terminals"},
			{Name: "terminals", Kind: Array, Elem: Object, Doc: "terminals, by account", Fields: []Param{
				{Name: "account", Kind: String, Doc: "what calls name the terminal by: E.164 number, alias or IP"},
				{Name: "alias", Kind: String, Doc: "alias"},
				{Name: "e164", Kind: String, Doc: "E.164 number"},
				{Name: "ip", Kind: String, Doc: "IP address"},
				{Name: "in_directory", Kind: Int, Doc: "1 when the terminal directory lists it, 0 when it is known only from a conference"},
				{Name: "state", Kind: String, EnumS: []string{"online", "calling", "offline"}, Doc: "online: in a conference's call; calling: being called; offline: neither"},
				{Name: "online", Kind: Int, Doc: "1 online, 0 otherwise"},
				{Name: "conf_id", Kind: String, Doc: "conference it is online in or being called into; empty when offline"},
				{Name: "conf_name", Kind: String, Doc: "that conference's name"},
				{Name: "mt_id", Kind: String, Doc: "its terminal id in that conference"},
				{Name: "since", Kind: String, Doc: "ISO 8601: when it joined (online), when the calling began (calling), when it left a conference that still runs (offline); empty when not known"},
			}},
		},
	},
	{
		Name: "upu.accounts.list", Module: UPU, Method: "GET", Path: "/api/v1/upu/accounts",
		Summary:  "Presence of the user domain's accounts: logged in or not, since when",
		MinLevel: 1, Since: release.Baseline, Style: Query, Extension: true,
		Params: upuListParams("user name to show alone"),
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "number of accounts"},
			{Name: "accounts", Kind: Array, Elem: Object, Doc: "accounts, oldest first", Fields: []Param{
				{Name: "account_moid", Kind: String, Doc: "account moid"},
				{Name: "account", Kind: String, Doc: "user name"},
				{Name: "name", Kind: String, Doc: "real name"},
				{Name: "enable", Kind: Int, Doc: "0 disabled, 1 enabled"},
				{Name: "online", Kind: Int, Doc: "1 when the account has a live login session"},
				{Name: "sessions", Kind: Int, Doc: "number of live login sessions"},
				{Name: "since", Kind: String, Doc: "ISO 8601 login time of its oldest live session; empty when offline"},
				{Name: "last_active", Kind: String, Doc: "ISO 8601 time of its latest request (within a thirtieth of the session lifetime); empty when offline"},
			}},
		},
	},
}

func upuListParams(account string) []Param {
	return []Param{
		{Name: "start", Kind: Int, Doc: "first row, 0-based; default 0"},
		{Name: "count", Kind: Int, Doc: "number of rows from start; default 10, 0 for all"},
		{Name: "account", Kind: String, Doc: account},
	}
}
