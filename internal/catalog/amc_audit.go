package catalog

import "github.com/confer-platform/confer/internal/release"

// The stored audit trail of operators' actions (Confer's extension,
// issue 41; docs/operations.md "Audit trail").
var amcAuditEndpoints = []Endpoint{
	{
		Name: "amc.audit.list", Module: AMC, Method: "GET", Path: "/api/v1/amc/audit",
		Summary:  "The audit trail of the user domain: who changed what, from where, with what outcome, newest first (administrators only)",
		MinLevel: 1, Since: release.Baseline, Style: Query, Extension: true,
		Params: append(amcPaging(),
			Param{Name: "account", Kind: String, Doc: "only the actions of this user name"},
			Param{Name: "action", Kind: String, Doc: "part of the action's name, e.g. mute or mc.confs"},
			Param{Name: "conf_id", Kind: String, Doc: "only the actions on this conference"},
			Param{Name: "failed", Kind: Int, Enum: []int{0, 1}, Doc: "1: only refused actions"},
			Param{Name: "start_time", Kind: String, Doc: "at or after this time (ISO 8601 or YYYY-MM-DD HH:MM:SS)"},
			Param{Name: "end_time", Kind: String, Doc: "before this time"}),
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "entries that match"},
			{Name: "entries", Kind: Array, Elem: Object, Doc: "audit entries", Fields: []Param{
				{Name: "time", Kind: String, Doc: "when, ISO 8601 with offset (milliseconds)"},
				{Name: "account", Kind: String, Doc: "who: the account's user name"},
				{Name: "account_moid", Kind: String, Doc: "the account's moid"},
				{Name: "action", Kind: String, Doc: "what: the API endpoint's name (vc.confs.mts.mute.update, mc.confs.delete, ...)"},
				{Name: "conf_id", Kind: String, Doc: "the conference acted on, when any"},
				{Name: "mt_id", Kind: String, Doc: "the terminal acted on, when any"},
				{Name: "target", Kind: String, Doc: "every path parameter of the request, name=value separated by spaces"},
				{Name: "client", Kind: String, Doc: "from where: the connection's peer address"},
				{Name: "error_code", Kind: Int, Doc: "the outcome: 0 done, else the code of the refusal"},
			}},
		},
	},
}
