package catalog

import "github.com/confer-platform/confer/internal/release"

// vcConfMtEndpoints are the terminal entries of conference control: local
// and cascade terminals, calling and hanging up, and per-terminal controls
// (seed 001 "Conference control (vc)"; reference 05-vc-conference-control.md).
func vcConfMtEndpoints() []Endpoint {
	return []Endpoint{
		{
			Name: "vc.confs.cascades.mts.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/cascades/{cascade_id}/mts",
			Summary: "Terminals of a cascaded conference (cascade_id 0 is the local conference)", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Fields: vcConfMtFields(false), Doc: "terminals (call_mode removed in 5.1.0.1.0)"},
			},
		},
		{
			Name: "vc.confs.cascades.mts.add", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/cascades/{cascade_id}/mts",
			Summary: "Add terminals to a local or subordinate conference (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Required: true, Doc: "terminals to add", Fields: []Param{
					vcConfAddAccount(), vcConfAddAccountType(), vcConfAddBitrate(), vcConfAddProtocol(),
					{Name: "forced_call", Kind: Int, Enum: []int{0, 1}, Doc: "seize the terminal, local conference only: 0 no (default), 1 yes"},
				}},
			},
			Reply: vcConfAddReply(true),
		},
		{
			Name: "vc.confs.mts.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mts",
			Summary: "Terminals of the local conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Fields: vcConfMtFields(true), Doc: "terminals"},
			},
		},
		{
			Name: "vc.confs.mts.add", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/mts",
			Summary: "Add terminals to the local conference (adding is synchronous, joining asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Required: true, Doc: "terminals to add", Fields: []Param{
					vcConfAddAccount(), vcConfAddAccountType(), vcConfAddBitrate(), vcConfAddProtocol(),
					{Name: "forced_call", Kind: Int, Enum: []int{0, 1}, Doc: "seize the terminal: 0 no (default), 1 yes"},
					{Name: "call_mode", Kind: Int, Enum: []int{0, 2, 3}, Doc: "call mode, default the conference's: 0 manual, 2 automatic, 3 chase (from 5.2.0.2.0)"},
				}},
			},
			Reply: vcConfAddReply(false),
		},
		{
			// Not in seed 001's table nor added in A1: baseline. The
			// reference sends the parameters of this DELETE in params.
			Name: "vc.confs.mts.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/mts",
			Summary: "Remove terminals (local: synchronous, subordinate: asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{vcConfMtIDArray("terminals to remove")},
		},
		{
			Name: "vc.confs.mts.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}",
			Summary: "Details of a terminal in the conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: vcConfMtInfoFields(),
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.online_mts.call", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/online_mts",
			Summary: "Call terminals of the conference (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Required: true, Doc: "terminals to call", Fields: []Param{
					{Name: "mt_id", Kind: String, Required: true, Doc: "terminal id, max 48 bytes"},
					{Name: "forced_call", Kind: Int, Enum: []int{0, 1}, Doc: "seize the terminal: 0 no (default), 1 yes"},
				}},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline. The
			// reference sends the parameters of this DELETE in params.
			Name: "vc.confs.online_mts.hangup", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/online_mts",
			Summary: "Hang up terminals of the conference", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{vcConfMtIDArray("terminals to hang up")},
		},
		{
			Name: "vc.confs.mts.call_mode.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}/call_mode",
			Summary: "Change the call mode of a terminal", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Params,
			Params: []Param{
				{Name: "value", Kind: Int, Required: true, Enum: []int{0, 2, 3}, Doc: "call mode: 0 manual, 2 automatic, 3 chase"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mts.silence.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}/silence",
			Summary: "Silence or unsilence a terminal", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "value", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "0 stop silence, 1 silence"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mts.mute.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}/mute",
			Summary: "Mute or unmute a terminal", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "value", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "0 stop mute, 1 mute"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mts.volume.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}/volume",
			Summary: "Change the volume of a terminal", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "vol_mode", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "device: 1 loudspeaker, 2 microphone"},
				{Name: "vol_value", Kind: Int, Required: true, Doc: "volume, 0-35"},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mts.camera.control", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}/camera",
			Summary: "Control the camera of a terminal (move, zoom, focus, brightness)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "state", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "0 start, 1 stop"},
				{Name: "type", Kind: Int, Required: true, Enum: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
					Doc: "1 up, 2 down, 3 left, 4 right, 5 up left, 6 up right, 7 down left, 8 down right, 9 zoom in (narrower view), 10 zoom out (wider view), 11 focus near, 12 focus far, 13 brighter, 14 darker, 15 auto focus"},
			},
		},
		{
			Name: "vc.confs.mts.videos.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}/videos",
			Summary: "Video sources of a terminal", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
			Reply: []Param{
				{Name: "cur_video_idx", Kind: Int, Doc: "current video source channel of the terminal"},
				{Name: "mt_videos", Kind: Array, Elem: Object, Doc: "video sources, at most 10", Fields: []Param{
					{Name: "video_idx", Kind: Int, Doc: "video source channel"},
					{Name: "video_alise", Kind: String, Doc: "video source alias (vendor's spelling)"},
				}},
			},
		},
		{
			Name: "vc.confs.mts.videos.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mts/{mt_id}/videos",
			Summary: "Set the current video source of a terminal", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Params,
			Params: []Param{
				{Name: "video_idx", Kind: Int, Required: true, Doc: "video source channel to use"},
			},
		},
	}
}

// Members of an element of mts when adding terminals (seed 000 "Terminal
// entry": bitrate is required).
func vcConfAddAccount() Param {
	return Param{Name: "account", Kind: String, Required: true, Doc: "E164 number, IP address or telephone number of the terminal"}
}

func vcConfAddAccountType() Param {
	// Left open: 6.1 releases may accept further account types.
	return Param{Name: "account_type", Kind: Int, Required: true, Doc: "5 E164, 6 telephone, 7 IP address, 8 alias@ip (monitoring front end, from 5.1.0.4.0)"}
}

func vcConfAddBitrate() Param {
	return Param{Name: "bitrate", Kind: Int, Required: true, Doc: "call bitrate"}
}

func vcConfAddProtocol() Param {
	return Param{Name: "protocol", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "call protocol: 0 H.323, 1 SIP"}
}

// vcConfAddReply is the reply of adding terminals; cascade adds cascades_id.
func vcConfAddReply(cascade bool) []Param {
	mt := []Param{
		{Name: "account", Kind: String, Doc: "E164 number, IP address or telephone number of the terminal"},
		{Name: "account_type", Kind: Int, Doc: "5 E164, 6 telephone, 7 IP address, 8 alias@ip (monitoring front end)"},
		{Name: "protocol", Kind: Int, Doc: "call protocol, meaningful for IP addresses: 0 H.323, 1 SIP"},
		{Name: "mt_id", Kind: Int, Doc: "terminal id"},
	}
	if cascade {
		mt = append(mt, Param{Name: "cascades_id", Kind: Int, Doc: "MCU index of the terminal's conference"})
	}
	return []Param{
		{Name: "error_code", Kind: Int, Doc: "0 on success (seed 000 Response envelope)"},
		{Name: "mts", Kind: Array, Elem: Object, Fields: mt, Doc: "added terminals, local conference only (from 5.1.0.2.0)"},
	}
}

// vcConfMtFields are the fields of a terminal in the terminal lists; local
// adds inspection, protocol and call_mode, which the cascade list lacks.
func vcConfMtFields(local bool) []Param {
	ps := []Param{
		{Name: "alias", Kind: String, Doc: "terminal alias, max 128 bytes"},
		{Name: "mt_id", Kind: String, Doc: "terminal id, max 48 bytes"},
		{Name: "ip", Kind: String, Doc: "terminal IP address"},
		{Name: "online", Kind: Int, Doc: "online: 0 no, 1 yes"},
		{Name: "e164", Kind: String, Doc: "terminal E164 number"},
		{Name: "type", Kind: Int, Doc: "1 ordinary terminal, 3 telephone, 5 satellite, 7 subordinate conference, 8 superior conference"},
		{Name: "bitrate", Kind: Int, Doc: "call bitrate"},
		{Name: "silence", Kind: Int, Doc: "silenced: 0 no, 1 yes"},
		{Name: "mute", Kind: Int, Doc: "muted: 0 no, 1 yes"},
		{Name: "dual", Kind: Int, Doc: "sending the dual stream: 0 no, 1 yes"},
		{Name: "mix", Kind: Int, Doc: "in the mix: 0 no, 1 yes"},
		{Name: "vmp", Kind: Int, Doc: "in picture composition: 0 no, 1 yes"},
	}
	if local {
		ps = append(ps, Param{Name: "inspection", Kind: Int, Doc: "selectively viewing: 0 no, 1 yes"})
	}
	ps = append(ps,
		Param{Name: "rec", Kind: Int, Doc: "recording: 0 no, 1 yes"},
		Param{Name: "poll", Kind: Int, Doc: "in a poll: 0 no, 1 yes"},
		Param{Name: "upload", Kind: Int, Doc: "uploading: 0 no, 1 yes"},
	)
	if local {
		ps = append(ps,
			Param{Name: "protocol", Kind: Int, Doc: "call protocol: 0 H.323, 1 SIP"},
			Param{Name: "call_mode", Kind: Int, Doc: "call mode: 0 manual, 2 automatic, 3 chase (3 from 5.2.0.2.0)"},
		)
	}
	return append(ps, vcConfMtAccountFields()...)
}

// vcConfMtAccountFields are the terminal account fields of 6.1.0.2.0.
func vcConfMtAccountFields() []Param {
	return []Param{
		{Name: "account", Kind: String, Doc: "terminal account (from 6.1.0.2.0)"},
		{Name: "account_type", Kind: Int, Doc: "account type: 1 moid, 5 E164, 6 telephone, 7 IP address, 8 alias@ip (from 6.1.0.2.0)"},
	}
}

// vcConfMtInfoFields are the fields of the terminal details.
func vcConfMtInfoFields() []Param {
	ps := vcConfMtFields(true)
	// protocol and call_mode are absent for terminals of subordinate
	// conferences; the field set is otherwise the local one.
	for i := range ps {
		switch ps[i].Name {
		case "protocol":
			ps[i].Doc = "call protocol, absent for subordinate terminals: 0 H.323, 1 SIP"
		case "call_mode":
			ps[i].Doc = "call mode, absent for subordinate terminals: 0 manual, 2 automatic, 3 chase (3 from 5.2.0.2.0)"
		}
	}
	return append(ps,
		Param{Name: "v_snd_chn", Kind: Array, Elem: Object, Fields: vcConfChannelFields(true, true), Doc: "video send channels"},
		Param{Name: "v_rcv_chn", Kind: Array, Elem: Object, Fields: vcConfChannelFields(true, false), Doc: "video receive channels"},
		Param{Name: "dv_snd_chn", Kind: Array, Elem: Object, Fields: vcConfChannelFields(true, false), Doc: "dual-stream send channels"},
		Param{Name: "dv_rcv_chn", Kind: Array, Elem: Object, Fields: vcConfChannelFields(true, false), Doc: "dual-stream receive channels"},
		Param{Name: "a_snd_chn", Kind: Array, Elem: Object, Fields: vcConfChannelFields(false, false), Doc: "audio send channels"},
		Param{Name: "a_rcv_chn", Kind: Array, Elem: Object, Fields: vcConfChannelFields(false, false), Doc: "audio receive channels"},
		Param{Name: "rcv_volume", Kind: Int, Doc: "receive volume"},
		Param{Name: "snd_volume", Kind: Int, Doc: "send volume"},
	)
}

// vcConfChannelFields are the members of a terminal channel; video channels
// carry bitrate, resolution and format, the video send channel also
// cur_video_idx.
func vcConfChannelFields(video, send bool) []Param {
	ps := []Param{
		{Name: "chn_id", Kind: Int, Doc: "channel number"},
		{Name: "chn_alias", Kind: String, Doc: "channel alias"},
	}
	if video {
		ps = append(ps,
			Param{Name: "bitrate", Kind: Int, Doc: "bitrate; absent for cascaded terminals (from 5.2.0.2.0)"},
			Param{Name: "resolution", Kind: Int, Doc: "resolution, terminal resolution values; absent for cascaded terminals (from 5.2.0.2.0)"},
			Param{Name: "format", Kind: Int, Doc: "1 MPEG, 2 H.261, 3 H.263, 4 H.264 HP, 5 H.264 BP, 6 H.265; absent for cascaded terminals (from 5.2.0.2.0)"},
		)
		if send {
			ps = append(ps, Param{Name: "cur_video_idx", Kind: Int, Doc: "video source channel the terminal sends; absent for cascaded terminals (from 5.2.0.2.0)"})
		}
	}
	return append(ps, Param{Name: "chn_label", Kind: Int, Doc: "channel label: 0 automatic or off, 1 left, 2 middle, 3 right, 4 mixing, 5 picture composition (from 6.0.0.3.0)"})
}
