package catalog

// Conference control (vc), media features of a conference: mixing (mixs),
// picture composition (vmps, mtvmps, mt_channel_vmps, hduvmps), TV walls
// (hdus, hdupoll), polls (poll, upload_poll, chairman_poll), recording
// (recorders), playback, monitoring (monitors, monitors_heartbeat,
// neediframe) and selective viewing (inspections, inspection_channels).
// Sources: seed 001 "Conference control (vc)", "Picture composition",
// "Polling, recording, playback, monitoring" and "Versioning"; reference
// 05-vc-conference-control.md.
//
// Endpoints that seed 001's table does not list and that A1-api-changes.md
// does not name as added ("新增") in any release carry Since Baseline.
//
// Field names follow the wire: the reference's examples and tables spell the
// member type of picture-composition members "member_type", while seed 001
// (after the change notes of A1) writes "members_type". Both spellings are
// accepted in requests; neither is marked required, because the catalogue
// cannot express "one of the two" (the handler enforces it).
var vcMediaEndpoints = vcMediaJoin(
	vcMediaMixEndpoints(),
	vcMediaVMPEndpoints(),
	vcMediaSelfVMPEndpoints(),
	vcMediaWallEndpoints(),
	vcMediaPollEndpoints(),
	vcMediaRecordEndpoints(),
	vcMediaMonitorEndpoints(),
)

// vcMediaJoin concatenates groups of entries.
func vcMediaJoin(groups ...[]Endpoint) []Endpoint {
	var all []Endpoint
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

// vcMediaLayouts are the picture-composition layout styles (A2 layout
// styles; 61, 62 and 63 from 5.2.0.2.0 per seed 001).
var vcMediaLayouts = []int{1, 2, 3, 61, 62, 63, 23, 4, 5, 35, 6, 13, 7, 8, 18, 38, 39, 19, 17, 20, 11, 46, 48, 51, 14, 54, 56, 59, 27}

// vcMediaLayoutDoc describes layout in short.
const vcMediaLayoutDoc = "layout style: 1 one picture; 2 two equal; 3/61/62/63 one large full screen and one small " +
	"bottom right/top right/top left/bottom left (61-63 from 5.2.0.2.0); 23, 4 three; 5 four; 35 five; 6 six; 13 seven; " +
	"7 eight; 8 nine; 18 ten; 38 eleven; 39 twelve; 19 thirteen; 17 fourteen; 20 fifteen; 11 sixteen; 46 seventeen; " +
	"48 eighteen; 51 nineteen; 14 twenty; 54 twenty-one; 56 twenty-two; 59 twenty-four; 27 twenty-five pictures"

// vcMediaLayout is the layout field.
func vcMediaLayout(required bool) Param {
	return Param{Name: "layout", Kind: Int, Required: required, Enum: vcMediaLayouts, Doc: vcMediaLayoutDoc}
}

// vcMediaFlag is an integer 0/1 switch.
func vcMediaFlag(name string, required bool, doc string) Param {
	return Param{Name: name, Kind: Int, Required: required, Enum: []int{0, 1}, Doc: doc}
}

// vcMediaInt is an integer field without a closed set of values.
func vcMediaInt(name string, required bool, doc string) Param {
	return Param{Name: name, Kind: Int, Required: required, Doc: doc}
}

// vcMediaStr is a string field.
func vcMediaStr(name string, required bool, doc string) Param {
	return Param{Name: name, Kind: String, Required: required, Doc: doc}
}

// vcMediaMtID is a terminal id.
func vcMediaMtID(required bool, doc string) Param {
	return Param{Name: "mt_id", Kind: String, Required: required, Doc: doc + ", max 48 bytes"}
}

// vcMediaMtArray is a request array of objects that each name a terminal by
// mt_id.
func vcMediaMtArray(name string, required, elemRequired bool, doc string) Param {
	return Param{Name: name, Kind: Array, Elem: Object, Required: required, Doc: doc,
		Fields: []Param{vcMediaMtID(elemRequired, "terminal id")}}
}

// vcMediaAccountMembers is a reply array of members given by call alias and
// terminal id (account from 6.0.0.3.0 per seed 001).
func vcMediaAccountMembers(doc string) Param {
	return Param{Name: "members", Kind: Array, Elem: Object, Doc: doc, Fields: []Param{
		vcMediaStr("account", false, "member's call alias (from 6.0.0.3.0)"),
		vcMediaMtID(false, "member's terminal id; empty when the member is not in the conference"),
	}}
}

// vcMediaNameStyle is the station-logo (terminal name) style object of a
// picture composition (from 5.2.0.2.0).
func vcMediaNameStyle(required bool) Param {
	return Param{Name: "mt_name_style", Kind: Object, Required: required,
		Doc: "terminal-name (station logo) style of the composition (from 5.2.0.2.0)", Fields: []Param{
			{Name: "font_size", Kind: Int, Enum: []int{0, 1, 2}, Doc: "font size: 0 small, 1 medium, 2 large; default 0"},
			vcMediaStr("font_color", false, "font colour as #RGB hexadecimal; default #FFFFFF (white)"),
			{Name: "position", Kind: Int, Enum: []int{0, 1, 2, 3, 4},
				Doc: "position: 0 top left, 1 bottom left, 2 top right, 3 bottom right, 4 bottom centre; default 1"},
		}}
}

// vcMediaPollState is the state of a running poll in replies.
func vcMediaPollState() Param {
	return Param{Name: "state", Kind: Int, Enum: []int{0, 1, 2}, Doc: "poll state: 0 not polling, 1 polling, 2 paused"}
}

// vcMediaStateValue is the value field of the poll-state updates.
func vcMediaStateValue(doc string) Param {
	return Param{Name: "value", Kind: Int, Required: true, Enum: []int{0, 1, 2}, Doc: doc + ": 0 stop, 1 pause, 2 resume"}
}

// vcMediaCurPollMt is the terminal being polled.
func vcMediaCurPollMt() Param {
	return Param{Name: "cur_poll_mt", Kind: Object, Doc: "terminal currently polled",
		Fields: []Param{vcMediaMtID(false, "terminal id")}}
}

// vcMediaDst is an RTP destination address (monitoring).
func vcMediaDst(name string, required bool, doc string) Param {
	return Param{Name: name, Kind: Object, Required: required, Doc: doc, Fields: []Param{
		vcMediaStr("ip", required, "destination IP address"),
		vcMediaInt("port", required, "destination RTP port"),
	}}
}
