package catalog

import "github.com/confer-platform/confer/internal/release"

// Conference history and call records (Confer's extension, issue 41;
// docs/conferences.md "History"): the platform keeps no ended conference,
// Confer keeps each one with its calls for --history-days.
var mcHistoryEndpoints = []Endpoint{
	{
		Name: "mc.history.list", Module: MC, Method: "GET", Path: "/api/v1/mc/history",
		Summary:  "Ended conferences, newest first (administrators see the domain's, others their own)",
		MinLevel: 1, Since: release.Baseline, Style: Query, Extension: true,
		Params: append(mcParams("start", "count"),
			Param{Name: "keyword", Kind: String, Doc: "part of the conference's name or number"},
			Param{Name: "start_time", Kind: String, Doc: "ended at or after this time (ISO 8601 or YYYY-MM-DD HH:MM:SS)"},
			Param{Name: "end_time", Kind: String, Doc: "ended before this time"}),
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "ended conferences that match"},
			{Name: "confs", Kind: Array, Elem: Object, Doc: "ended conferences", Fields: historyFields(false)},
		},
	},
	{
		Name: "mc.history.get", Module: MC, Method: "GET", Path: "/api/v1/mc/history/{history_id}",
		Summary:  "An ended conference with its call records",
		MinLevel: 1, Since: release.Baseline, Style: Query, Extension: true,
		Reply: historyFields(true),
	},
}

func historyFields(calls bool) []Param {
	ps := []Param{
		{Name: "history_id", Kind: String, Doc: "the ended conference's id in the history"},
		{Name: "conf_id", Kind: String, Doc: "conference number it had"},
		{Name: "name", Kind: String, Doc: "conference name"},
		{Name: "creator", Kind: Object, Doc: "the creating account", Fields: []Param{
			{Name: "name", Kind: String, Doc: "user name"},
			{Name: "account", Kind: String, Doc: "account moid"},
		}},
		{Name: "start_time", Kind: String, Doc: "start, ISO 8601 with offset"},
		{Name: "end_time", Kind: String, Doc: "end, ISO 8601 with offset"},
		{Name: "duration", Kind: Int, Doc: "minutes from start to end"},
		{Name: "participants", Kind: Int, Doc: "distinct terminals that took part"},
		{Name: "calls_count", Kind: Int, Doc: "calls (a terminal that rejoined has one per join)"},
	}
	if !calls {
		return ps
	}
	return append(ps, Param{Name: "calls", Kind: Array, Elem: Object, Doc: "call records, in the order they began", Fields: []Param{
		{Name: "mt_id", Kind: String, Doc: "terminal number in the conference"},
		{Name: "alias", Kind: String, Doc: "terminal or participant name"},
		{Name: "account", Kind: String, Doc: "what it was called or joined as: E.164, alias, IP or participant name"},
		{Name: "protocol", Kind: Int, Doc: "0 H.323, 1 SIP, 2 WebRTC (as in a terminal's details)"},
		{Name: "e164", Kind: String, Doc: "E.164 number, when known"},
		{Name: "ip", Kind: String, Doc: "address, when known"},
		{Name: "join_type", Kind: String, Doc: "how it came: \"called\" (the conference called it), \"browser\", \"whip\", \"whep\", \"sip\" ..."},
		{Name: "join_time", Kind: String, Doc: "joined, ISO 8601 with offset"},
		{Name: "leave_time", Kind: String, Doc: "left, ISO 8601 with offset"},
		{Name: "duration", Kind: Int, Doc: "seconds in the call"},
		{Name: "lost", Kind: Int, Doc: "1: its connection was lost; 0: it hung up or was hung up"},
	}})
}
