package catalog

import "github.com/confer-platform/confer/internal/release"

// Room management (seed 000 "Specified operations", "Room record", "Room
// creation result"). Bodies are JSON objects with account_token in the
// query (JSON style); GET and DELETE carry no body (Query style). Seed 000
// does not show the list and single-room shapes, nor the allowed values of
// room_type, resolution, format and frame: Confer uses the room record for
// them and leaves the values open.
var krtcEndpoints = []Endpoint{
	{
		Name: "krtc.rooms.list", Module: KRTC, Method: "GET", Path: "/api/v1/krtc/rooms",
		Summary: "List rooms", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: []Param{
			{Name: "rooms", Kind: Array, Elem: Object, Fields: krtcRoomReply(),
				Doc: "rooms (Confer's shape; seed 000 does not show the platform's)"},
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

// krtcRoomFields is the room record; room_name is required on creation.
func krtcRoomFields(create bool) []Param {
	return []Param{
		{Name: "room_name", Kind: String, Required: create, Doc: "room name"},
		{Name: "max_join_mt", Kind: Int, Doc: "maximum joining terminals, e.g. 192"},
		{Name: "room_type", Kind: Int, Doc: "room type"},
		{Name: "resolution", Kind: Int, Doc: "resolution"},
		{Name: "bitrate", Kind: Int, Doc: "bitrate (kbps)"},
		{Name: "format", Kind: Int, Doc: "video format"},
		{Name: "frame", Kind: Int, Doc: "frame rate"},
	}
}

// krtcRoomReply is a room as Confer returns it: its ids and its record.
func krtcRoomReply() []Param {
	return append([]Param{
		{Name: "room_id", Kind: String, Doc: "room id"},
		{Name: "meeting_id", Kind: String, Doc: "id of the meeting of the room"},
	}, krtcRoomFields(false)...)
}
