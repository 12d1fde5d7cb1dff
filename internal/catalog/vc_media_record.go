package catalog

import "github.com/confer-platform/confer/internal/release"

// Recording (recorders) and playback of a conference.

// vcMediaRecordEndpoints are the recording and playback entries.
func vcMediaRecordEndpoints() []Endpoint {
	playStart := []Param{
		vcMediaFlag("play_dual_stream", true, "play the content stream too: 0 no, 1 yes"),
		vcMediaStr("file_name", true, "file to play, max 128 bytes"),
		vcMediaInt("file_id", true, "id of the file to play"),
		vcMediaStr("vrs_id", true, "id of the recording server (vrs) that plays the file"),
	}
	playReply := []Param{
		vcMediaStr("rec_id", false, "recorder id (from 5.1.0.2.0; a string since 5.1.0.2.1, an integer before)"),
	}
	return []Endpoint{
		{
			Name: "vc.confs.recorders.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/recorders",
			Summary: "Start recording (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				vcMediaStr("video_name", true, "file name of the recording, max 64 bytes; none of % : & * ^ ~ ' \" ? / \\ < > | ` $; "+
					"must not begin or end with _ - @ or ."),
				{Name: "recorder_type", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: vcMediaRecorderTypeDoc},
				vcMediaFlag("publish_mode", true, "publish: 0 no, 1 yes"),
				vcMediaFlag("watermark", true, "add a watermark: 0 no, 1 yes (from 6.0.0.3.0)"),
				vcMediaFlag("anonymous", true, "live viewing without login: 0 no, 1 yes"),
				{Name: "recorder_mode", Kind: Int, Required: true, Enum: []int{1, 2, 3}, Doc: vcMediaRecorderModeDoc},
				vcMediaFlag("main_stream", true, "record the main stream (video and audio): 0 no, 1 yes"),
				vcMediaFlag("dual_stream", true, "record the content stream (content sharing): 0 no, 1 yes (from 5.2.0.2.0)"),
				vcMediaStr("vrs_id", true, "id of the recording server (vrs) to record on (from 5.2.0.2.0)"),
				vcMediaMtArray("members", false, false, "terminals to record, only for terminal recording"),
				// Confer's extension (docs/live.md "RTMP push"): the
				// platform has no field for it.
				{Name: "x_confer_rtmp_url", Kind: String, Extension: true,
					Doc: "Confer extension: push the live broadcast (recorder_mode 2 or 3) to this rtmp:// or rtmps:// URL while it runs"},
			},
			Reply: []Param{
				vcMediaStr("rec_id", false, "recorder id, max 48 bytes (a string since 5.1.0.2.1, an integer before)"),
			},
		},
		{
			Name: "vc.confs.recorders.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/recorders",
			Summary: "Recordings of a conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "recorders", Kind: Array, Elem: Object, Doc: "recordings", Fields: append([]Param{
					vcMediaStr("rec_id", false, "recorder id, max 48 bytes (a string since 5.1.0.2.1, an integer before)"),
				}, vcMediaRecorderFields()...)},
			},
		},
		{
			Name: "vc.confs.recorders.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/recorders/{rec_id}",
			Summary: "Status of a recording", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: vcMediaRecorderFields(),
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.recorders.state.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/recorders/{rec_id}/state",
			Summary: "Pause or resume a recording (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "value", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "recording state: 1 pause, 2 resume"},
				{Name: "recorder_mode", Kind: Int, Required: true, Enum: []int{1, 2, 3}, Doc: vcMediaRecorderModeDoc},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline. The
			// reference sends recorder_mode in params although the method
			// is DELETE.
			Name: "vc.confs.recorders.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/recorders/{rec_id}",
			Summary: "Stop a recording (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "recorder_mode", Kind: Int, Required: true, Enum: []int{1, 2, 3}, Doc: vcMediaRecorderModeDoc},
			},
		},
		{
			// Seed 001: POST from 5.1.0.2.0 (A1 5.1.0.2.0 names its reply
			// field rec_id).
			Name: "vc.confs.playback.start", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/playback",
			Summary: "Start playback (asynchronous)", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Params,
			Params: playStart, Reply: playReply,
		},
		{
			// Seed 001: PUT from 5.0.0.4.1 (the reference's method).
			Name: "vc.confs.playback.start_put", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/playback",
			Summary: "Start playback with PUT (asynchronous)", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Params,
			Params: playStart, Reply: playReply,
		},
		{
			// Not in seed 001's table (which lists the status query under
			// PUT); A1 5.0.0.4.1 adds the status query: 5.0.0.4.1.
			Name: "vc.confs.playback.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/playback",
			Summary: "Playback status of a conference", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
			Reply: []Param{
				vcMediaStr("file_name", false, "file being played"),
				vcMediaInt("file_id", false, "id of the file being played"),
				{Name: "state", Kind: Int, Enum: []int{0, 1, 2, 3, 4},
					Doc: "playback state: 0 not playing, 1 paused, 2 playing, 3 preparing, 4 calling the entity"},
				vcMediaInt("current_progress", false, "current position in seconds (an integer since 5.0.0.4.1)"),
				vcMediaInt("total_time", false, "length of the file in seconds"),
			},
		},
		{
			Name: "vc.confs.playback.state.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/playback/state",
			Summary: "Pause, resume or stop playback (asynchronous)", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Params,
			Params: []Param{
				{Name: "value", Kind: Int, Required: true, Enum: []int{0, 1, 2}, Doc: "playback state: 0 stop, 1 pause, 2 play"},
			},
		},
		{
			Name: "vc.confs.playback.current_progress.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/playback/current_progress",
			Summary: "Move the playback position (asynchronous)", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Params,
			Params: []Param{
				vcMediaInt("current_progress", true, "new position in seconds (an integer since 5.0.0.4.1, a string before)"),
			},
		},
	}
}

// vcMediaRecorderTypeDoc describes recorder_type.
const vcMediaRecorderTypeDoc = "recording type: 1 conference recording, 2 terminal recording"

// vcMediaRecorderModeDoc describes recorder_mode.
const vcMediaRecorderModeDoc = "recorder mode: 1 recording, 2 live broadcast, 3 recording and live broadcast"

// vcMediaRecorderFields are the status fields of a recording.
func vcMediaRecorderFields() []Param {
	return []Param{
		vcMediaStr("video_name", false, "file name of the recording, max 128 bytes"),
		{Name: "recorder_type", Kind: Int, Enum: []int{1, 2}, Doc: vcMediaRecorderTypeDoc},
		{Name: "state", Kind: Int, Enum: []int{0, 1, 2, 3, 4},
			Doc: "recording state: 0 not recording, 1 recording, 2 paused, 3 calling the entity, 4 preparing"},
		vcMediaFlag("anonymous", false, "live viewing without login: 0 no, 1 yes"),
		{Name: "recorder_mode", Kind: Int, Enum: []int{1, 2, 3}, Doc: vcMediaRecorderModeDoc},
		vcMediaFlag("main_stream", false, "records the main stream (video and audio): 0 no, 1 yes"),
		vcMediaFlag("dual_stream", false, "records the content stream: 0 no, 1 yes"),
		vcMediaFlag("publish_mode", false, "published: 0 no, 1 yes"),
		vcMediaFlag("watermark", false, "watermark added: 0 no, 1 yes (from 6.0.0.3.0)"),
		vcMediaInt("current_progress", false, "current recording length in seconds"),
		vcMediaMtArray("members", false, false, "recorded terminals, for terminal recording"),
	}
}
