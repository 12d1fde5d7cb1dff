package catalog

import "github.com/confer-platform/confer/internal/release"

// Monitoring (monitors, monitors_heartbeat, neediframe) and selective
// viewing (inspections, inspection_channels).

// vcMediaMonitorEndpoints are the monitoring and selective-viewing entries.
func vcMediaMonitorEndpoints() []Endpoint {
	return []Endpoint{
		{
			Name: "vc.confs.monitors.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/monitors",
			Summary: "Monitors of a conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "monitors", Kind: Array, Elem: Object, Doc: "monitors", Fields: vcMediaMonitorFields()},
			},
		},
		{
			Name: "vc.confs.monitors.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/monitors/{dst_ip}/{dst_port}",
			Summary: "Monitor sending to a destination", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
			Reply: vcMediaMonitorFields(),
		},
		{
			Name: "vc.confs.monitors.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/monitors",
			Summary: "Send a source's RTP stream to an address; keep it with heartbeats (synchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mode", Kind: Int, Required: true, Enum: []int{0, 1}, Doc: "monitor mode: 0 video, 1 audio"},
				{Name: "src", Kind: Object, Required: true, Doc: "monitored source", Fields: []Param{
					{Name: "type", Kind: Int, Required: true, Enum: []int{1, 2, 3, 4}, Doc: vcMediaMonitorTypeDoc},
					vcMediaMtID(false, "monitored terminal, required for type 1"),
					vcMediaInt("mt_chn_idx", false, "terminal channel, for type 1; default 1 (from 6.0.0.3.0)"),
				}},
				{Name: "video_format", Kind: Object, Doc: "video format, only when monitoring a picture composition", Fields: []Param{
					// The values of format and resolution changed in
					// 5.1.0.1.0 (seed 001): no closed set is enforced.
					vcMediaInt("format", true, "video format: 1 MPEG, 2 H.261, 3 H.263, 4 H.264 HP, 5 H.264 BP, 6 H.265 "+
						"(7 before 5.1.0.1.0, when H.263+ was removed)"),
					vcMediaInt("resolution", true, "resolution: 1 QCIF, 2 CIF, 3 4CIF, 12 720P, 13 1080P, 14 WCIF, 15 W4CIF, "+
						"16 4K (19 before 5.1.0.1.0)"),
					vcMediaInt("frame", true, "frame rate"),
					vcMediaInt("bitrate", true, "bit rate"),
				}},
				{Name: "audio_format", Kind: Object, Doc: "audio format, only when monitoring the mixer", Fields: []Param{
					{Name: "format", Kind: Int, Required: true, Enum: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14},
						Doc: "audio format: 1 MP3, 2 G.722.1.C, 3 G.719, 4 G.711 A-law, 5 G.711 u-law, 6 G.721, 7 G.722, " +
							"8 G.723.1, 9 G.728, 10 G.729, 11 G.722.1, 12 OPUS, 13 MPEG-4 AAC LC, 14 MPEG-4 AAC LD"},
					{Name: "chn_num", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "channels: 1 mono, 2 stereo"},
				}},
				vcMediaDst("dst", true, "destination of the RTP stream"),
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.monitors.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/monitors/{dst_ip}/{dst_port}",
			Summary: "Stop a monitor (synchronous)", MinLevel: 1, Since: release.Baseline, Style: Query,
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.monitors_heartbeat.send", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/monitors_heartbeat",
			Summary: "Keep monitors alive: send every 10 s; a monitor stops after 30 s without (synchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "monitors", Kind: Array, Elem: Object, Required: true, Doc: "destinations of the monitors to keep", Fields: []Param{
					vcMediaStr("ip", true, "destination IP address"),
					vcMediaInt("port", true, "destination RTP port"),
				}},
			},
		},
		{
			Name: "vc.confs.neediframe.monitors.request", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/neediframe/monitors",
			Summary: "Request a video key frame for a monitor (synchronous)", MinLevel: 1,
			Since: release.R5_0_0_4_1, Style: Params,
			Params: []Param{vcMediaDst("dst", true, "destination of the monitor")},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.inspections.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/inspections",
			Summary: "Selective viewing of terminals", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "inspections", Kind: Array, Elem: Object, Doc: "selective viewings", Fields: vcMediaInspectionFields(false, false)},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.inspections.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/inspections",
			Summary: "Let a terminal view a terminal or a non-broadcast composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaInspectionFields(true, false),
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.inspections.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/inspections/{mt_id}/{mode}",
			Summary: "Stop a terminal's selective viewing (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Query,
		},
		{
			Name: "vc.confs.inspection_channels.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/inspection_channels",
			Summary: "Single-channel selective viewing of terminals", MinLevel: 1, Since: release.R6_0_0_3_0, Style: Query,
			Reply: []Param{
				{Name: "inspections", Kind: Array, Elem: Object, Doc: "selective viewings", Fields: vcMediaInspectionFields(false, true)},
			},
		},
		{
			Name: "vc.confs.inspection_channels.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/inspection_channels",
			Summary:  "Let one channel of a terminal view a terminal channel or a non-broadcast composition (asynchronous)",
			MinLevel: 1, Since: release.R6_0_0_3_0, Style: Params,
			Params: vcMediaInspectionFields(true, true),
		},
		{
			Name: "vc.confs.inspection_channels.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/inspection_channels/{mt_id}/{mode}/{mt_chn_idx}",
			Summary: "Stop a single-channel selective viewing (asynchronous)", MinLevel: 1,
			Since: release.R6_0_0_3_0, Style: Query,
		},
	}
}

// vcMediaMonitorTypeDoc describes the type of a monitored source.
const vcMediaMonitorTypeDoc = "source type: 1 terminal, 2 picture composition, 3 mixer, 4 content stream"

// vcMediaMonitorFields describe a running monitor.
func vcMediaMonitorFields() []Param {
	return []Param{
		{Name: "mode", Kind: Int, Enum: []int{0, 1}, Doc: "monitor mode: 0 video, 1 audio"},
		{Name: "src", Kind: Object, Doc: "monitored source", Fields: []Param{
			{Name: "type", Kind: Int, Enum: []int{1, 2, 3, 4}, Doc: vcMediaMonitorTypeDoc},
			vcMediaMtID(false, "source terminal, for type 1"),
			vcMediaInt("mt_chn_idx", false, "terminal channel, for type 1 (from 6.0.0.3.0)"),
			{Name: "encrypt", Kind: Object, Doc: "stream encryption", Fields: []Param{
				{Name: "mode", Kind: Int, Enum: []int{0, 2}, Doc: "encryption: 0 none, 2 AES"},
				vcMediaStr("key", false, "AES key, max 32 bytes"),
			}},
			{Name: "payload_formats", Kind: Object, Doc: "payload types", Fields: []Param{
				vcMediaStr("real_payload", false, "original payload type"),
				vcMediaStr("active_payload", false, "dynamic payload type"),
			}},
			{Name: "media_formats", Kind: Object, Doc: "stream format", Fields: []Param{
				vcMediaInt("sampling", false, "sampling rate, audio only: 1 8000, 2 11025, 3 12000, 4 16000, 5 22050, "+
					"6 24000, 7 32000, 8 44100, 9 48000, 10 64000, 11 88200, 12 96000 Hz"),
				vcMediaInt("chn_num", false, "audio channels, audio only"),
				vcMediaInt("bitrate", false, "bit rate, video only"),
				vcMediaInt("max_frame", false, "maximum frame rate, video only"),
			}},
			{Name: "rtcp", Kind: Object, Doc: "RTCP address", Fields: []Param{
				vcMediaStr("ip", false, "RTCP IP address"),
				vcMediaInt("port", false, "RTCP port"),
			}},
		}},
		vcMediaDst("dst", false, "destination of the RTP stream"),
		{Name: "whep_url", Kind: String, Extension: true, Doc: "WHEP link watching the monitored source while the " +
			"monitor lives (docs/live.md \"Monitors\"); empty without real media"},
	}
}

// vcMediaInspectionFields are the parameters (request true) or the list
// elements of a selective viewing; channel adds the terminal channels of
// inspection_channels.
func vcMediaInspectionFields(request, channel bool) []Param {
	src := []Param{
		{Name: "type", Kind: Int, Required: request, Enum: []int{1, 2}, Doc: "source type: 1 terminal, 2 picture composition"},
		vcMediaMtID(request, "source terminal (type 1) or, in replies, composition id (type 2)"),
	}
	dst := []Param{
		vcMediaMtID(request, "viewing terminal; the chairman when the source is a composition"),
	}
	if channel {
		src = append(src, vcMediaInt("mt_chn_idx", false, "source terminal channel, for type 1; 0 chooses automatically; default 0"))
		dst = append(dst, vcMediaInt("mt_chn_idx", false, "viewing terminal channel; 0 chooses automatically; default 0"))
	}
	return []Param{
		{Name: "mode", Kind: Int, Required: request, Enum: []int{1, 2}, Doc: "viewing mode: 1 video, 2 audio"},
		{Name: "src", Kind: Object, Required: request, Doc: "viewed source", Fields: src},
		{Name: "dst", Kind: Object, Required: request, Doc: "viewing terminal", Fields: dst},
	}
}
