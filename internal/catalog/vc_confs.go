package catalog

import "github.com/confer-platform/confer/internal/release"

// Conference control (vc): conferences, cascades, conference-wide controls
// and the platform lists (seed 001 "Conference control (vc)"; reference
// 05-vc-conference-control.md). Terminal endpoints are in vc_confs_mts.go;
// the media features (picture composition, polls, recording, playback,
// monitoring, inspection, mixing, TV walls of a conference) are elsewhere.
//
// Endpoints that seed 001's table does not list and that A1-api-changes.md
// does not name as added ("新增") in any release carry Since Baseline.
var vcConfEndpoints = append(vcConfConfEndpoints(), vcConfMtEndpoints()...)

// vcConfConfEndpoints are the conference-level entries.
func vcConfConfEndpoints() []Endpoint {
	return []Endpoint{
		{
			Name: "vc.confs.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs",
			Summary: "List the running video conferences", MinLevel: 1, Since: release.Baseline, Style: Query,
			Params: []Param{
				{Name: "start", Kind: Int, Doc: "index of the first conference to return, 0 is the first; default 0"},
				{Name: "count", Kind: Int, Doc: "number of conferences to return from start, 0 returns all; default 10"},
				{Name: "own_conf", Kind: Int, Doc: "only conferences related to the caller (from 6.1.0.2.0)"},
			},
			Reply: []Param{
				{Name: "total", Kind: Int, Doc: "total number of conferences"},
				{Name: "confs", Kind: Array, Elem: Object, Fields: vcConfConferenceFields(), Doc: "conferences"},
			},
		},
		{
			Name: "vc.confs.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}",
			Summary: "Details of a video conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: append(vcConfConferenceFields(), vcConfInfoFields()...),
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.cascades.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/cascades",
			Summary: "Cascade tree of a conference (cascade_id 0 is the local conference)", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "conf_id", Kind: String, Doc: "conference number, max 48 bytes"},
				{Name: "name", Kind: String, Doc: "conference name, max 64 bytes"},
				{Name: "cascade_id", Kind: String, Doc: "cascade id, max 48 bytes"},
				{Name: "mt_id", Kind: String, Doc: "terminal id of the cascade, max 48 bytes"},
				{Name: "cascades", Kind: Array, Elem: Object, Fields: vcConfCascadeFields(), Doc: "subordinate cascades, nested the same way"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.upload.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/upload",
			Summary: "Terminal whose streams this conference uploads to its superior conference", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: []Param{{Name: "mt_id", Kind: String, Doc: "terminal id, max 48 bytes"}},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.upload.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/upload",
			Summary: "Choose the terminal uploaded to the superior conference", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mt_id", Kind: String, Required: true, Doc: "terminal to upload; empty cancels the upload; max 48 bytes"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.chairman.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/chairman",
			Summary: "Chairman of a conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{{Name: "mt_id", Kind: String, Doc: "chairman terminal id, max 48 bytes"}},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.chairman.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/chairman",
			Summary: "Set or cancel the chairman (local terminals only)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mt_id", Kind: String, Required: true, Doc: "terminal to make chairman; empty cancels the chairman; max 48 bytes"},
			},
		},
		{
			Name: "vc.confs.speaker.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/speaker",
			Summary: "Speaker of a conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{{Name: "mt_id", Kind: String, Doc: "speaker terminal id, max 48 bytes"}},
		},
		{
			Name: "vc.confs.speaker.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/speaker",
			Summary: "Set or cancel the speaker", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mt_id", Kind: String, Required: true, Doc: "terminal to make speaker; empty cancels the speaker; max 48 bytes"},
				{Name: "force_broadcast", Kind: Int, Enum: []int{0, 1}, Doc: "force broadcast of the speaker: 0 no, 1 yes (from 6.1.0.2.0)"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.dualstream.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/dualstream",
			Summary: "Dual-stream (content sharing) source of a conference", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: []Param{{Name: "mt_id", Kind: String, Doc: "dual-stream source terminal id, max 48 bytes"}},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.dualstream.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/dualstream",
			Summary: "Set the dual-stream source (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mt_id", Kind: String, Required: true, Doc: "terminal sending the dual stream; empty cancels it; max 48 bytes"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline. The
			// reference sends the parameters of this DELETE in params.
			Name: "vc.confs.dualstream.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/dualstream",
			Summary: "Cancel the dual-stream source (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mt_id", Kind: String, Required: true, Doc: "terminal sending the dual stream, max 48 bytes"},
			},
		},
		{
			Name: "vc.confs.dualmode.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/dualmode",
			Summary: "Set the dual-stream mode (who may share content)", MinLevel: 3, Since: release.R6_1_0_4_0, Style: Params,
			// The sources name this endpoint only; its parameter is modelled
			// on the conference field dual_mode and left optional and open.
			Params: []Param{
				{Name: "dual_mode", Kind: Int, Doc: "dual-stream permission: 0 speaker, 1 any terminal, 2 designated terminal (from 6.1.0.4.0)"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.delay.update", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/delay",
			Summary: "Extend the conference", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "delay_time", Kind: Int, Required: true, Doc: "extension, in minutes"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.silence.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/silence",
			Summary: "Silence (mute the loudspeakers of) all terminals", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "value", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "0 stop silence, 1 silence"},
			},
		},
		{
			Name: "vc.confs.mute.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mute",
			Summary: "Mute (the microphones of) all terminals", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "value", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "0 stop mute, 1 mute"},
				{Name: "force_mute", Kind: Int, Enum: []int{0, 1}, Doc: "forced mute, terminals cannot unmute themselves: 0 no, 1 yes (from 6.1.0.2.0)"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline. Path spelled
			// as the vendor does.
			Name: "vc.confs.safty.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/safty",
			Summary: "Set the conference security (password, hidden, do not disturb)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "password", Kind: String, Required: true, Doc: "conference password: letters, digits, underscore and dot only; max 16 bytes"},
				{Name: "safe_conf", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "0 public conference, 1 hidden conference"},
				{Name: "closed_conf", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "do not disturb: 0 off, 1 on"},
			},
		},
		{
			Name: "vc.confs.name.update", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/name",
			Summary: "Rename the conference", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Params,
			Params: []Param{
				{Name: "value", Kind: String, Required: true, Doc: "new conference name: no % & * ^ ~ ' \" ? / \\ < > | ` $; _ - . @ not first or last; max 64 bytes"},
			},
		},
		{
			Name: "vc.confs.sms.send", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/sms",
			Summary: "Send a short message to terminals", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "message", Kind: String, Required: true, Doc: "message text; an empty message stops the message; max 1500 bytes"},
				{Name: "roll_num", Kind: Int, Required: true, Doc: "number of scrolls, 1-255; 255 scrolls without end on newer terminals (from 5.1.0.4.0)"},
				{Name: "roll_speed", Kind: Int, Required: true, Enum: []int{1, 2, 3}, Doc: "scroll speed: 1 slow, 2 medium, 3 fast"},
				{Name: "type", Kind: Int, Required: true, Enum: []int{0, 1, 2}, Doc: "0 scroll right to left, 1 page by page, 2 whole page"},
				vcConfMtIDArray("terminals that receive the message"),
			},
		},
		{
			Name: "vc.confs.forcebroadcast.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/forcebroadcast",
			Summary: "Enable or disable forced broadcast", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Params,
			Params: []Param{
				{Name: "force_broadcast", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "0 no forced broadcast, 1 forced broadcast"},
			},
		},
		{
			Name: "vc.confs.vad.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/vad",
			Summary: "Enable or disable voice activation (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "state", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "voice activation: 0 off, 1 on"},
				{Name: "vacinterval", Kind: Int, Required: true, Doc: "voice activation sensitivity in seconds, min 5 (named interval before 5.1.0.1.0)"},
			},
		},
		{
			Name: "vc.confs.vad.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/vad",
			Summary: "Voice activation state", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
			Reply: []Param{
				{Name: "voice_activity_detection", Kind: Int, Doc: "voice activation on: 0 no, 1 yes"},
				{Name: "vacinterval", Kind: Int, Doc: "voice activation sensitivity in seconds, min 5; meaningful when on"},
			},
		},
		{
			Name: "vc.confs.viplist.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/viplist",
			Summary: "Set the VIP terminal list", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Params,
			Params: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Required: true, Doc: "VIP terminals, at most 8", Fields: []Param{
					{Name: "mt_id", Kind: String, Doc: "terminal id"},
					{Name: "cascade_id", Kind: String, Doc: "MCU index of the terminal's conference"},
				}},
			},
		},
		{
			Name: "vc.confs.viplist.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/viplist",
			Summary: "VIP terminal list", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
			Reply: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Doc: "VIP terminals, at most 8", Fields: []Param{
					{Name: "mt_id", Kind: String, Doc: "terminal id"},
					{Name: "cascade_id", Kind: String, Doc: "MCU index of the terminal's conference"},
				}},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline. Top-level
			// path, not a conference's TV wall.
			Name: "vc.hdus.list", Module: VC, Method: "GET", Path: "/api/v1/vc/hdus",
			Summary: "TV walls of the platform", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "hdus", Kind: Array, Elem: Object, Doc: "TV walls", Fields: []Param{
					{Name: "hdu_id", Kind: String, Doc: "TV wall id, max 48 bytes"},
					{Name: "hdu_name", Kind: String, Doc: "TV wall name, max 16 bytes"},
					{Name: "occupy", Kind: Int, Doc: "occupied: 0 no, 1 yes"},
					{Name: "online", Kind: Int, Doc: "online: 0 no, 1 yes"},
				}},
			},
		},
		{
			Name: "vc.vrs.list", Module: VC, Method: "GET", Path: "/api/v1/vc/vrs",
			Summary: "Recording-server addresses of the user domain", MinLevel: 1, Since: release.R5_1_0_4_0, Style: Query,
			Reply: []Param{
				{Name: "vrs", Kind: Array, Elem: Object, Doc: "recording servers", Fields: []Param{
					{Name: "operator", Kind: String, Doc: "network operator"},
					{Name: "ip", Kind: String, Doc: "recording-server address"},
					{Name: "port", Kind: Int, Doc: "recording-server port"},
					{Name: "vrs_id", Kind: String, Doc: "recording-server id (from 5.2.0.2.0)"},
				}},
			},
		},
	}
}

// vcConfCreatorFields is the creator object of a conference.
func vcConfCreatorFields() []Param {
	return []Param{
		{Name: "name", Kind: String, Doc: "name, max 128 bytes"},
		{Name: "account", Kind: String, Doc: "account, max 128 bytes"},
		{Name: "account_type", Kind: Int, Doc: "1 moid, 4 external e-mail, 5 E164, 6 telephone, 7 IP address, 8 alias@ip (monitoring front end)"},
		{Name: "telephone", Kind: String, Doc: "landline: area code 4, number 16, extension 10 characters"},
		{Name: "mobile", Kind: String, Doc: "mobile phone, max 15 bytes"},
	}
}

// vcConfConferenceFields are the fields of a conference in both the list
// and the details, newest model.
func vcConfConferenceFields() []Param {
	return []Param{
		{Name: "name", Kind: String, Doc: "conference name, max 64 bytes"},
		{Name: "user_domain_moid", Kind: String, Doc: "moid of the conference's user domain (from 5.2.0.4.0)"},
		{Name: "user_domain_name", Kind: String, Doc: "name of the conference's user domain (from 5.2.0.4.0)"},
		{Name: "meeting_room_name", Kind: String, Doc: "virtual meeting room name; empty when not a virtual room (from 5.2.0.2.0)"},
		{Name: "conf_id", Kind: String, Doc: "conference number, max 48 bytes"},
		{Name: "conf_level", Kind: Int, Doc: "conference level 1-16, smaller is higher (used to seize terminals in other conferences) (from 5.1.0.2.0)"},
		{Name: "voice_activity_detection", Kind: Int, Doc: "voice activation on: 0 no, 1 yes (named voice_inspire_enable before 5.1.0.1.0)"},
		{Name: "vacinterval", Kind: Int, Doc: "voice activation sensitivity in seconds, min 5; meaningful when on (from 5.1.0.1.0)"},
		{Name: "conf_type", Kind: Int, Doc: "0 traditional, 1 port; 2 pure forwarding (SFU) and 3 mixed from 6.1.0.2.0"},
		{Name: "start_time", Kind: String, Doc: "start time, ISO 8601"},
		{Name: "end_time", Kind: String, Doc: "end time, ISO 8601"},
		{Name: "duration", Kind: Int, Doc: "duration; 0 is a permanent conference"},
		{Name: "bitrate", Kind: Int, Doc: "conference bitrate"},
		{Name: "closed_conf", Kind: Int, Doc: "do not disturb: 0 off, 1 on"},
		{Name: "safe_conf", Kind: Int, Doc: "0 public conference, 1 hidden conference"},
		{Name: "auto_end", Kind: Int, Doc: "end automatically with fewer than two terminals: 0 no, 1 yes"},
		{Name: "preoccupy_resource", Kind: Int, Doc: "reserve audio and video adapters at creation: 0 no, 1 yes"},
		{Name: "encrypted_type", Kind: Int, Doc: "transport encryption: 0 none, 2 AES, 5 SM4_QT, 6 SM1_QT"},
		{Name: "encrypted_frequence", Kind: Int, Doc: "key frequency (quantum modes only): 0 not quantum, 1 per conference, 2 per hour, 3 per minute, 4 per second (from 6.0.0.3.0)"},
		{Name: "encrypted_auth", Kind: Int, Doc: "terminal two-way authentication: 0 off, 1 on (from 5.2.0.2.0)"},
		{Name: "mute", Kind: Int, Doc: "mute at start: 0 no, 1 yes"},
		{Name: "mute_filter", Kind: Int, Doc: "whole-conference mute spares chairman and speaker: 0 no, 1 yes (from 5.2.0.2.0)"},
		{Name: "silence", Kind: Int, Doc: "silence at start: 0 no, 1 yes"},
		{Name: "video_quality", Kind: Int, Doc: "0 quality first, 1 speed first"},
		{Name: "encrypted_key", Kind: String, Doc: "AES transport key, max 16 bytes"},
		{Name: "dual_mode", Kind: Int, Doc: "dual-stream permission: 0 speaker, 1 any terminal, 2 designated terminal"},
		{Name: "public_conf", Kind: Int, Doc: "guest (public) meeting room: 0 no, 1 yes"},
		{Name: "max_join_mt", Kind: Int, Doc: "maximum terminals: 8, 32, 64 or 192 (32 and 64 from 5.2.0.2.0)"},
		{Name: "force_broadcast", Kind: Int, Doc: "forced broadcast: 0 no, 1 yes (from 5.1.0.2.0)"},
		{Name: "fec_mode", Kind: Int, Doc: "forward error correction: 0 off, 1 on (from 5.2.0.2.0)"},
		{Name: "need_password", Kind: Int, Doc: "password required: 0 no, 1 yes"},
		{Name: "one_reforming", Kind: Int, Doc: "stream normalisation for third-party terminals (disables retransmission): 0 off, 1 on (from 5.1.0.4.0)"},
		{Name: "doubleflow", Kind: Int, Doc: "start content sharing on becoming speaker: 0 no, 1 yes (from 5.2.0.2.0)"},
		{Name: "platform_id", Kind: String, Doc: "moid of the platform that created the conference"},
		{Name: "superior_cascade", Kind: Int, Doc: "has a superior cascaded conference: 0 no, 1 yes (from 5.2.0.4.0)"},
		{Name: "subordinate_cascade", Kind: Int, Doc: "has subordinate cascaded conferences: 0 no, 1 yes (from 5.2.0.4.0)"},
		{Name: "meeting_id", Kind: String, Doc: "unique id of the conference (from 5.2.0.4.0)"},
		{Name: "creator", Kind: Object, Fields: vcConfCreatorFields(), Doc: "conference creator"},
		{Name: "conf_category", Kind: Int, Doc: "conference category (from 6.1.0.2.0)"},
		{Name: "force_mute", Kind: Int, Doc: "forced mute: 0 no, 1 yes (from 6.1.0.2.0)"},
		{Name: "anonymous_mt", Kind: Int, Doc: "anonymous joining allowed: 0 no, 1 yes (from 6.1.0.2.0)"},
		{Name: "machine_room_moid", Kind: String, Doc: "moid of the machine room hosting the conference (from 6.1.0.2.0)"},
		{Name: "enable_rtc", Kind: Int, Doc: "RTC-protocol terminals supported: 0 no, 1 yes (from 6.1.0.4.0)"},
	}
}

// vcConfInfoFields are the fields that only the conference details carry.
func vcConfInfoFields() []Param {
	return []Param{
		{Name: "call_times", Kind: Int, Doc: "number of call attempts"},
		{Name: "call_interval", Kind: Int, Doc: "call interval in seconds"},
		{Name: "call_mode", Kind: Int, Doc: "call mode: 0 manual, 2 timed (from 5.1.0.2.0)"},
		{Name: "cascade_mode", Kind: Int, Doc: "cascade mode: 0 simple, 1 merged"},
		{Name: "cascade_upload", Kind: Int, Doc: "cascade upload: 0 no, 1 yes"},
		{Name: "cascade_return", Kind: Int, Doc: "cascade return: 0 no, 1 yes"},
		{Name: "cascade_return_para", Kind: Int, Doc: "cascade return bandwidth"},
		{Name: "vmp_enable", Kind: Int, Doc: "picture composition running: 0 no, 1 yes"},
		{Name: "mix_enable", Kind: Int, Doc: "mixing running: 0 no, 1 yes"},
		{Name: "poll_enable", Kind: Int, Doc: "poll running: 0 no, 1 yes"},
		{Name: "video_formats", Kind: Array, Elem: Object, Doc: "main video formats", Fields: []Param{
			{Name: "format", Kind: Int, Doc: "1 MPEG, 2 H.261, 3 H.263, 4 H.264 HP, 5 H.264 BP, 6 H.265 (7 before 5.1.0.1.0)"},
			{Name: "resolution", Kind: Int, Doc: "1 QCIF, 2 CIF, 3 4CIF, 12 720P, 13 1080P, 14 WCIF, 15 W4CIF, 16 4K (19 before 5.1.0.1.0)"},
			{Name: "frame", Kind: Int, Doc: "frame rate"},
			{Name: "bitrate", Kind: Int, Doc: "bitrate"},
		}},
	}
}

// vcConfCascadeFields are the members of a cascade; cascades nest
// recursively, described here to the second level.
func vcConfCascadeFields() []Param {
	node := []Param{
		{Name: "conf_id", Kind: String, Doc: "conference number, max 48 bytes"},
		{Name: "name", Kind: String, Doc: "conference name, max 64 bytes"},
		{Name: "cascade_id", Kind: String, Doc: "cascade id, max 48 bytes"},
		{Name: "mt_id", Kind: String, Doc: "terminal id of the cascade, max 48 bytes"},
	}
	inner := append(append([]Param{}, node...),
		Param{Name: "cascades", Kind: Array, Elem: Any, Doc: "subordinate cascades, nested the same way"})
	return append(append([]Param{}, node...),
		Param{Name: "cascades", Kind: Array, Elem: Object, Fields: inner, Doc: "subordinate cascades"})
}

// vcConfMtIDArray is a required array mts of {mt_id} elements.
func vcConfMtIDArray(doc string) Param {
	return Param{Name: "mts", Kind: Array, Elem: Object, Required: true, Doc: doc, Fields: []Param{
		{Name: "mt_id", Kind: String, Required: true, Doc: "terminal id, max 48 bytes"},
	}}
}
