package catalog

import "github.com/confer-platform/confer/internal/release"

// vrsRoomEndpoints: recording rooms and playback rooms of the recording
// system (reference 09-vrs-recording-system.md). The room actions
// (startrec, stoprec, ...) are PUTs with an empty params field; their names
// end in the action segment, which is itself the verb.
var vrsRoomEndpoints = []Endpoint{
	{
		Name: "vrs.recroom.list", Module: VRS, Method: "GET", Path: "/api/v1/vrs/recroom", Aliases: []string{"/api/v2/vrs/recroom"},
		Summary: "List recording rooms", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: vrsRoomListParams(),
		Reply: []Param{
			{Name: "roomcount", Kind: Int, Doc: "total number of recording rooms"},
			{Name: "pageid", Kind: Int, Doc: "page returned"},
			{Name: "roomstate", Kind: Array, Elem: Object, Doc: "recording rooms", Fields: vrsRecRoomStateFields()},
		},
	},
	{
		Name: "vrs.recroom.create", Module: VRS, Method: "POST", Path: "/api/v1/vrs/recroom", Aliases: []string{"/api/v2/vrs/recroom"},
		Summary: "Add a recording room", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "room", Kind: Object, Required: true, Doc: "recording room", Fields: vrsRecRoomParams()}},
		Reply:  []Param{{Name: "roomid", Kind: Int, Doc: "recording room id"}},
	},
	{
		Name: "vrs.recroom.delete", Module: VRS, Method: "DELETE", Path: "/api/v1/vrs/recroom/{id}", Aliases: []string{"/api/v2/vrs/recroom/{id}"},
		Summary: "Delete a recording room", MinLevel: 1, Since: release.Baseline, Style: Params,
	},
	{
		Name: "vrs.recroom.update", Module: VRS, Method: "PUT", Path: "/api/v1/vrs/recroom/{id}", Aliases: []string{"/api/v2/vrs/recroom/{id}"},
		Summary: "Modify a recording room", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "room", Kind: Object, Required: true, Doc: "recording room", Fields: vrsRecRoomParams()}},
	},
	vrsRoomAction("recroom", "startrec", "Start recording in a recording room"),
	vrsRoomAction("recroom", "stoprec", "Stop recording in a recording room"),
	vrsRoomAction("recroom", "pauserec", "Pause recording in a recording room"),
	vrsRoomAction("recroom", "resumerec", "Resume recording in a recording room"),
	vrsRoomAction("recroom", "startlive", "Start live streaming from a recording room"),
	vrsRoomAction("recroom", "stoplive", "Stop live streaming from a recording room"),
	{
		Name: "vrs.playroom.list", Module: VRS, Method: "GET", Path: "/api/v1/vrs/playroom", Aliases: []string{"/api/v2/vrs/playroom"},
		Summary: "List playback rooms", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: vrsRoomListParams(),
		Reply: []Param{
			{Name: "roomcount", Kind: Int, Doc: "total number of playback rooms"},
			{Name: "pageid", Kind: Int, Doc: "page returned"},
			{Name: "roomstate", Kind: Array, Elem: Object, Doc: "playback rooms", Fields: vrsPlayRoomStateFields()},
		},
	},
	{
		Name: "vrs.playroom.create", Module: VRS, Method: "POST", Path: "/api/v1/vrs/playroom", Aliases: []string{"/api/v2/vrs/playroom"},
		Summary: "Add a playback room", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "room", Kind: Object, Required: true, Doc: "playback room", Fields: vrsPlayRoomParams()}},
		Reply:  []Param{{Name: "roomid", Kind: Int, Doc: "playback room id"}},
	},
	{
		Name: "vrs.playroom.delete", Module: VRS, Method: "DELETE", Path: "/api/v1/vrs/playroom/{id}", Aliases: []string{"/api/v2/vrs/playroom/{id}"},
		Summary: "Delete a playback room", MinLevel: 1, Since: release.Baseline, Style: Params,
	},
	{
		Name: "vrs.playroom.update", Module: VRS, Method: "PUT", Path: "/api/v1/vrs/playroom/{id}", Aliases: []string{"/api/v2/vrs/playroom/{id}"},
		Summary: "Modify a playback room", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: []Param{{Name: "room", Kind: Object, Required: true, Doc: "playback room", Fields: vrsPlayRoomParams()}},
	},
	vrsRoomAction("playroom", "startplay", "Start playback in a playback room"),
	vrsRoomAction("playroom", "stopplay", "Stop playback in a playback room"),
	vrsRoomAction("playroom", "pauseplay", "Pause playback in a playback room"),
	vrsRoomAction("playroom", "resumeplay", "Resume playback in a playback room"),
}

// vrsRoomAction is a state change of a room: PUT /{room}/{id}/{action} with
// an empty params field and a bare success reply.
func vrsRoomAction(room, action, summary string) Endpoint {
	p := "/" + room + "/{id}/" + action
	return Endpoint{
		Name: "vrs." + room + "." + action, Module: VRS, Method: "PUT",
		Path: "/api/v1/vrs" + p, Aliases: []string{"/api/v2/vrs" + p},
		Summary: summary, MinLevel: 1, Since: release.Baseline, Style: Params,
	}
}

// vrsRoomListParams are the query parameters of the recording-room and
// playback-room lists.
func vrsRoomListParams() []Param {
	return append([]Param{
		vrsUserDomainParam(),
		{Name: "roomid", Kind: Int, Doc: "room number; default 0 returns all, a room number disables the parameters below"},
	}, vrsPaging(false)...)
}

// vrsAudioFormats are the audio format codes of the recording rooms.
var vrsAudioFormats = []int{102, 103, 99, 98, 96, 18, 15, 9, 8, 0, 127}

const vrsAudioFormatDoc = "audio format: 102 MPEG-4 AAC LC, 103 MPEG-4 AAC LD, 99 G.719, 98 G.722.1 C, 96 MP3, 18 G.729, 15 G.728, 9 G.722, 8 G.711 A, 0 G.711 U, 127 OPUS"

// vrsRecRoomParams are the members of room when adding or modifying a
// recording room.
func vrsRecRoomParams() []Param {
	return []Param{
		{Name: "roomname", Kind: String, Required: true, Doc: "recording room name"},
		{Name: "roomno", Kind: String, Required: true, Doc: "recording room E164"},
		{Name: "roompwd", Kind: String, Required: true, Doc: "recording-room E164 registration password (from 5.1.0.4.0)"},
		{Name: "roomtype", Kind: Int, Required: true, Enum: []int{0, 1, 2}, Doc: "room type: 0 recording only, 1 live only, 2 recording and live"},
		{Name: "opertype", Kind: Int, Doc: "reserved, not used"},
		{Name: "vtype", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "video format: 0 automatic (default), 1 custom"},
		// The reference lists 106 H.264 and 108 H.265 but its example sends
		// 0 with vtype 0 (automatic): the set stays open.
		{Name: "vformat", Kind: Int, Required: true, Doc: "video format: 106 H.264, 108 H.265"},
		{Name: "vwidth", Kind: Int, Required: true, Doc: "video width"},
		{Name: "vheight", Kind: Int, Required: true, Doc: "video height"},
		{Name: "vflag", Kind: Int, Enum: []int{0, 1}, Doc: "video profile: 0 BP (default), 1 HP"},
		{Name: "vframe", Kind: Int, Required: true, Doc: "video frame rate"},
		{Name: "atype", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "audio format: 0 automatic (default), 1 custom"},
		{Name: "aformat", Kind: Int, Required: true, Enum: vrsAudioFormats, Doc: vrsAudioFormatDoc},
		{Name: "aflag", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "audio: 1 mono, 2 stereo"},
		{Name: "confrate", Kind: Int, Required: true, Doc: "conference bit rate"},
		{Name: "preprgname", Kind: String, Required: true, Doc: "display name of the files"},
		{Name: "prgtype", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "file suffix: 1 asf, 2 wmv"},
		{Name: "bpublish", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "publish: 0 no, 1 yes"},
	}
}

// vrsRecRoomStateFields is one recording room of the list.
func vrsRecRoomStateFields() []Param {
	return []Param{
		{Name: "roomcfg", Kind: Object, Doc: "recording room configuration", Fields: []Param{
			{Name: "roomid", Kind: Int, Doc: "recording room id"},
			{Name: "userdomainmoid", Kind: String, Doc: "user domain of the room"},
			{Name: "roomname", Kind: String, Doc: "recording room name"},
			{Name: "roomno", Kind: String, Doc: "recording room E164"},
			{Name: "roompwd", Kind: String, Doc: "recording-room E164 registration password (from 5.1.0.4.0)"},
			{Name: "roomtype", Kind: Int, Enum: []int{0, 1, 2}, Doc: "room type: 0 recording only, 1 live only, 2 recording and live"},
			{Name: "opertype", Kind: Int, Enum: []int{0, 1}, Doc: "operation: 0 automatic, 1 manual"},
			{Name: "vflag", Kind: Int, Enum: []int{0, 1}, Doc: "video profile: 0 BP, 1 HP"},
			{Name: "vformat", Kind: Int, Doc: "video format: 31 H.261, 34 H.263, 97 MPEG4, 106 H.264, 108 H.265"},
			{Name: "vwidth", Kind: Int, Doc: "video width"},
			{Name: "vheight", Kind: Int, Doc: "video height"},
			{Name: "vtype", Kind: Int, Enum: []int{0, 1}, Doc: "video format: 0 automatic, 1 custom"},
			{Name: "vframe", Kind: Int, Doc: "video frame rate"},
			{Name: "atype", Kind: Int, Enum: []int{0, 1}, Doc: "audio format: 0 automatic, 1 custom"},
			{Name: "aformat", Kind: Int, Enum: vrsAudioFormats, Doc: vrsAudioFormatDoc},
			{Name: "aflag", Kind: Int, Enum: []int{1, 2}, Doc: "audio: 1 mono, 2 stereo"},
			{Name: "confrate", Kind: Int, Doc: "conference bit rate, 0 adaptive"},
			{Name: "preprgname", Kind: String, Doc: "display name of the files"},
			{Name: "prgtype", Kind: Int, Enum: []int{1, 2}, Doc: "file suffix: 1 asf, 2 wmv"},
			{Name: "bpublish", Kind: Int, Enum: []int{0, 1}, Doc: "publish: 0 no, 1 yes"},
			{Name: "livetype", Kind: Int, Doc: "reserved, not used"},
			{Name: "createtime", Kind: Int, Doc: "creation time of the room"},
		}},
		{Name: "roomstate", Kind: Int, Enum: []int{0, 1}, Doc: "room state: 0 idle, 1 occupied"},
		{Name: "recstate", Kind: Int, Enum: []int{0, 1, 2}, Doc: "recording state: 0 not recording, 1 recording, 2 paused"},
		{Name: "lcaststate", Kind: Int, Enum: []int{0, 1}, Doc: "live state: 0 not live, 1 live"},
		{Name: "gkstate", Kind: Int, Enum: []int{0, 1, 2}, Doc: "GK registration: 0 not configured, 1 registered, 2 failed"},
		{Name: "sipstate", Kind: Int, Enum: []int{0, 1, 2}, Doc: "SIP registration: 0 not configured, 1 registered, 2 failed"},
		{Name: "recelapse", Kind: Int, Doc: "recording time (s) since recording (or, for a live-only room, live) started"},
		{Name: "lcastelapse", Kind: Int, Doc: "live time (s) since the live started"},
		{Name: "recobj", Kind: String, Doc: "device being recorded"},
		{Name: "prgname", Kind: String, Doc: "full program name"},
		{Name: "lcastname", Kind: String, Doc: "live name"},
		{Name: "livestreampath", Kind: String, Doc: "live description file"},
		{Name: "livesnapshotpath", Kind: String, Doc: "path of the live snapshot picture"},
		{Name: "mte164", Kind: String, Doc: "conference E164, or terminal E164 for a terminal call"},
		{Name: "livestarttime", Kind: Int, Doc: "live start time"},
		{Name: "encmode", Kind: Int, Enum: []int{0, 1, 2, 4}, Doc: "file encryption: 0 room not occupied, 1 none, 2 standard, 4 national (SM); always 1 on a non-commercial-crypto VRS (from 5.1.0.4.0)"},
		{Name: "authmode", Kind: Int, Enum: []int{0, 1, 2}, Doc: "authentication: 0 room not occupied, 1 normal, 2 strong; always 1 on a non-commercial-crypto VRS (from 5.1.0.4.0)"},
		{Name: "detail", Kind: Array, Elem: Object, Doc: "state after the room started", Fields: []Param{
			{Name: "vformat", Kind: Int, Doc: "video format: 31 H.261, 34 H.263, 97 MPEG4, 106 H.264"},
			{Name: "vwidth", Kind: Int, Doc: "video width"},
			{Name: "vheight", Kind: Int, Doc: "video height"},
			{Name: "vframe", Kind: Int, Doc: "video frame rate"},
		}},
	}
}

// vrsPlayRoomParams are the members of room when adding or modifying a
// playback room.
func vrsPlayRoomParams() []Param {
	return []Param{
		{Name: "roomname", Kind: String, Required: true, Doc: "playback room name"},
		{Name: "roomno", Kind: String, Required: true, Doc: "playback room E164"},
		{Name: "roompwd", Kind: String, Required: true, Doc: "playback-room E164 registration password (from 5.1.0.4.0)"},
		{Name: "autoplay", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "play automatically: 0 automatic, 1 manual"},
		{Name: "encrypt", Kind: Int, Required: true, Enum: []int{0, 1, 2}, Doc: "encryption: 0 adaptive, 1 none, 2 AES"},
		{Name: "encryptkey", Kind: String, Required: true, Doc: "key"},
		{Name: "cryptkeylen", Kind: Int, Required: true, Doc: "key length (maximum; a shorter key uses its own length)"},
		{Name: "prgalias", Kind: String, Required: true, Doc: "display name of the program to play"},
		{Name: "prgid", Kind: Int, Required: true, Doc: "program id"},
		{Name: "ip", Kind: Int, Required: true, Doc: "IP address as an integer"},
		{Name: "path", Kind: String, Required: true, Doc: "relative path"},
		{Name: "prgname", Kind: String, Required: true, Doc: "program name"},
	}
}

// vrsPlayRoomStateFields is one playback room of the list.
func vrsPlayRoomStateFields() []Param {
	return []Param{
		{Name: "roomcfg", Kind: Object, Doc: "playback room configuration", Fields: []Param{
			{Name: "roomid", Kind: Int, Doc: "playback room id"},
			{Name: "userdomainmoid", Kind: String, Doc: "user domain of the room"},
			{Name: "streamjsonpath", Kind: String, Doc: "location of the MP4-format JSON file of the played file (from 5.1.0.4.0)"},
			{Name: "roomname", Kind: String, Doc: "playback room name"},
			{Name: "roomno", Kind: String, Doc: "playback room E164"},
			{Name: "roompwd", Kind: String, Doc: "playback-room E164 registration password (from 5.1.0.4.0)"},
			{Name: "autoplay", Kind: Int, Doc: "reserved, not used"},
			{Name: "encrypt", Kind: Int, Enum: []int{0, 1, 2}, Doc: "encryption: 0 adaptive, 1 none, 2 AES"},
			{Name: "encryptkey", Kind: String, Doc: "key"},
			{Name: "cryptkeylen", Kind: Int, Doc: "key length"},
			{Name: "prgalias", Kind: String, Doc: "display name"},
			{Name: "prgid", Kind: Int, Doc: "program id"},
			{Name: "ip", Kind: Int, Doc: "IP address as an integer"},
			{Name: "path", Kind: String, Doc: "relative path"},
			{Name: "prgname", Kind: String, Doc: "program name"},
			{Name: "createtime", Kind: Int, Doc: "creation time of the room"},
		}},
		{Name: "roomstate", Kind: Int, Enum: []int{0, 1}, Doc: "room state: 0 idle, 1 occupied"},
		{Name: "playstate", Kind: Int, Enum: []int{0, 1, 2}, Doc: "playback state: 0 stopped, 1 playing, 2 paused"},
		{Name: "gkstate", Kind: Int, Enum: []int{0, 1, 2}, Doc: "GK registration: 0 not configured, 1 registered, 2 failed"},
		{Name: "sipstate", Kind: Int, Enum: []int{0, 1, 2}, Doc: "SIP registration: 0 not configured, 1 registered, 2 failed"},
		{Name: "encmode", Kind: Int, Enum: []int{0, 1, 2, 4}, Doc: "encryption: 0 room not occupied, 1 none, 2 standard, 4 national (SM); always 1 on a non-commercial-crypto VRS (from 5.1.0.4.0)"},
		{Name: "authmode", Kind: Int, Enum: []int{0, 1, 2}, Doc: "authentication: 0 room not occupied, 1 normal, 2 strong; always 1 on a non-commercial-crypto VRS (from 5.1.0.4.0)"},
		{Name: "elapse", Kind: Int, Doc: "time played (s)"},
		{Name: "duraion", Kind: Int, Doc: "total program duration (s) (the platform's spelling)"},
		{Name: "playobj", Kind: String, Doc: "conference played to"},
	}
}
