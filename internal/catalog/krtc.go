package catalog

import "github.com/confer-platform/confer/internal/release"

// Room management (seed 000 "Specified operations", "Room record", "Room
// creation result"). Bodies are JSON objects with account_token in the
// query (JSON style); GET and DELETE carry no body (Query style). Seed 000
// does not show the list and single-room shapes, nor the allowed values of
// room_type, resolution, format and frame: Confer's are below and in
// docs/krtc.md (the platform's own enumerations where one exists: conf_type
// for room_type, reference 04's resolutions and formats).

// Allowed values of the room record (docs/krtc.md).
var (
	krtcRoomTypes   = []int{1, 2}               // 1 transcoding (conf_type 0), 2 forwarding/SFU (conf_type 2, from 6.1.0.2.0)
	krtcMaxJoinMts  = []int{8, 32, 64, 192}     // 32 and 64 from 5.2.0.2.0 (seed 000 "Limits" 2)
	krtcResolutions = []int{3, 12, 13, 16}      // 4CIF, 720P, 1080P, 4K (4K was 19 before 5.1.0.1.0)
	krtcFormats     = []int{4, 5, 6}            // H.264 HP, H.264 BP, H.265 (was 7 before 5.1.0.1.0)
	krtcFrames      = []int{15, 25, 30, 50, 60} // frames per second
)
var krtcEndpoints = []Endpoint{
	{
		Name: "krtc.rooms.list", Module: KRTC, Method: "GET", Path: "/api/v1/krtc/rooms",
		Summary: "List rooms", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: []Param{
			{Name: "start", Kind: Int, Doc: "first row, 0-based; default 0"},
			{Name: "count", Kind: Int, Doc: "number of rows from start; default 10, 0 for all"},
		},
		Reply: []Param{
			{Name: "total", Kind: Int, Doc: "number of rooms of the user domain"},
			{Name: "rooms", Kind: Array, Elem: Object, Fields: krtcRoomReply(),
				Doc: "rooms, oldest first (Confer's shape; seed 000 does not show the platform's)"},
		},
	},
	{
		// Fails with error 27506 when no idle conference resource is left.
		Name: "krtc.rooms.create", Module: KRTC, Method: "POST", Path: "/api/v1/krtc/rooms",
		Summary: "Create a room", MinLevel: 1, Since: release.Baseline, Style: JSON,
		Params: krtcRoomFields(true),
		Reply: []Param{
			{Name: "room_id", Kind: String, Doc: "id of the new room"},
			{Name: "meeting_id", Kind: String, Doc: "id of the meeting of the room"},
			{Name: "description", Kind: String, Doc: "result message"},
		},
	},
	{
		Name: "krtc.rooms.get", Module: KRTC, Method: "GET", Path: "/api/v1/krtc/rooms/{room_id}",
		Summary: "Room info", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: krtcRoomReply(),
	},
	{
		Name: "krtc.rooms.update", Module: KRTC, Method: "PUT", Path: "/api/v1/krtc/rooms/{room_id}",
		Summary: "Modify a room", MinLevel: 1, Since: release.Baseline, Style: JSON,
		Params: krtcRoomFields(false),
		Reply:  []Param{{Name: "description", Kind: String, Doc: "result message"}},
	},
	{
		Name: "krtc.rooms.delete", Module: KRTC, Method: "DELETE", Path: "/api/v1/krtc/rooms/{room_id}",
		Summary: "Delete a room", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: []Param{{Name: "description", Kind: String, Doc: "result message"}},
	},
}

// krtcRoomFields is the room record; room_name is required on creation,
// every other field has a default (docs/krtc.md).
func krtcRoomFields(create bool) []Param {
	return []Param{
		{Name: "room_name", Kind: String, Required: create, Doc: "room name, unique in the user domain, at most 64 bytes"},
		{Name: "max_join_mt", Kind: Int, Enum: krtcMaxJoinMts, Doc: "maximum joining terminals: 8, 32, 64 (32 and 64 from 5.2.0.2.0) or 192 (default)"},
		{Name: "room_type", Kind: Int, Enum: krtcRoomTypes, Doc: "1 transcoding room (default; conference conf_type 0), 2 forwarding (SFU) room (conf_type 2; from 6.1.0.2.0)"},
		{Name: "resolution", Kind: Int, Enum: krtcResolutions, Doc: "resolution: 3 4CIF, 12 720P (default), 13 1080P, 16 4K (was 19 before 5.1.0.1.0)"},
		{Name: "bitrate", Kind: Int, Doc: "bitrate in kbps, 64 to 8192; default 2048"},
		{Name: "format", Kind: Int, Enum: krtcFormats, Doc: "video format: 4 H.264 HP, 5 H.264 BP (default), 6 H.265 (was 7 before 5.1.0.1.0)"},
		{Name: "frame", Kind: Int, Enum: krtcFrames, Doc: "frame rate: 15, 25, 30 (default), 50 or 60"},
	}
}

// krtcRoomReply is a room as Confer returns it: its ids and its record.
func krtcRoomReply() []Param {
	return append([]Param{
		{Name: "room_id", Kind: String, Doc: "room id"},
		{Name: "meeting_id", Kind: String, Doc: "id of the meeting of the room"},
		{Name: "conf_id", Kind: String, Doc: "number of the room's conference (vc conf_id); a Confer addition"},
	}, krtcRoomFields(false)...)
}
