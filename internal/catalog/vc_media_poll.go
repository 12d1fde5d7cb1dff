package catalog

import "github.com/confer-platform/confer/internal/release"

// Conference poll, upload-terminal poll and chairman poll.

// vcMediaPollEndpoints are the poll entries.
func vcMediaPollEndpoints() []Endpoint {
	pollModes := []int{1, 3}
	pollModeDoc := "poll mode: 1 video, 3 audio and video"
	chairModes := []int{10, 11}
	chairModeDoc := "poll mode: 10 chairman video poll, 11 chairman audio-and-video poll"
	uploadStart := vcMediaPollStartParams(nil, "")
	chairStart := vcMediaPollStartParams(chairModes, chairModeDoc)
	return []Endpoint{
		{
			Name: "vc.confs.poll.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/poll",
			Summary: "Conference poll", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: vcMediaPollReply(Param{Name: "mode", Kind: Int, Enum: []int{0, 1, 3, 6, 7, 8, 9},
				Doc: "poll mode: 0 no poll runs, 1 video, 3 audio and video, 6 video to the return channel only, " +
					"7 speaker to the return channel only, 8 video to the return channel and local broadcast, " +
					"9 speaker to the return channel and local broadcast"}),
		},
		{
			Name: "vc.confs.poll.start", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/poll",
			Summary: "Start the conference poll (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: vcMediaPollStartParams(pollModes, pollModeDoc),
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.poll.state.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/poll/state",
			Summary: "Stop, pause or resume the conference poll (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: []Param{
				vcMediaStateValue("poll state"),
				{Name: "mode", Kind: Int, Required: true, Enum: pollModes, Doc: pollModeDoc},
			},
		},
		{
			Name: "vc.confs.upload_poll.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/upload_poll",
			Summary: "Upload-terminal poll", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
			Reply: vcMediaPollReply(),
		},
		{
			// Seed 001: POST from 5.2.0.2.0 (also the reference's method).
			Name: "vc.confs.upload_poll.start", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/upload_poll",
			Summary: "Start polling the terminal uploaded to the superior conference (asynchronous)", MinLevel: 1,
			Since: release.R5_2_0_2_0, Style: Params,
			Params: uploadStart,
		},
		{
			// Seed 001: the start is also listed as PUT (in 6.0.0.3.0's change
			// notes); served with the row's Since so both methods work.
			Name: "vc.confs.upload_poll.start_put", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/upload_poll",
			Summary: "Start the upload-terminal poll with PUT (asynchronous)", MinLevel: 1,
			Since: release.R5_2_0_2_0, Style: Params,
			Params: uploadStart,
		},
		{
			Name: "vc.confs.upload_poll.state.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/upload_poll/state",
			Summary: "Stop, pause or resume the upload-terminal poll (asynchronous)", MinLevel: 1,
			Since: release.R5_2_0_2_0, Style: Params,
			Params: []Param{vcMediaStateValue("upload-poll state")},
		},
		{
			Name: "vc.confs.chairman_poll.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/chairman_poll",
			Summary: "Chairman poll", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Query,
			Reply: vcMediaPollReply(Param{Name: "mode", Kind: Int, Enum: append([]int{0}, chairModes...), Doc: chairModeDoc + "; 0 no poll runs"}),
		},
		{
			// Seed 001 and A1 (5.2.0.4.0, added): POST.
			Name: "vc.confs.chairman_poll.start", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/chairman_poll",
			Summary: "Start the chairman poll (asynchronous)", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Params,
			Params: chairStart,
		},
		{
			// Seed 001: also listed as PUT (in 6.0.0.3.0; the reference's
			// method); served with the row's Since so both methods work.
			Name: "vc.confs.chairman_poll.start_put", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/chairman_poll",
			Summary: "Start the chairman poll with PUT (asynchronous)", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Params,
			Params: chairStart,
		},
		{
			Name: "vc.confs.chairman_poll.state.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/chairman_poll/state",
			Summary: "Stop, pause or resume the chairman poll (asynchronous)", MinLevel: 1,
			Since: release.R5_2_0_4_0, Style: Params,
			Params: []Param{
				vcMediaStateValue("poll state"),
				{Name: "mode", Kind: Int, Required: true, Enum: chairModes, Doc: chairModeDoc},
			},
		},
	}
}

// vcMediaPollStartParams are the parameters that start a poll; modes is
// nil for the upload-terminal poll, which has no mode.
func vcMediaPollStartParams(modes []int, modeDoc string) []Param {
	var ps []Param
	if modes != nil {
		ps = append(ps, Param{Name: "mode", Kind: Int, Required: true, Enum: modes, Doc: modeDoc})
	}
	return append(ps,
		vcMediaInt("num", true, "number of poll rounds, 0 polls forever"),
		vcMediaInt("keep_time", true, "time on each terminal in seconds"),
		vcMediaInt("poll_index", false, "index of the terminal to poll first; default 1 (from 6.0.0.3.0)"),
		vcMediaMtArray("members", true, false, "polled terminals"),
	)
}

// vcMediaPollReply is the reply of the poll queries; mode is given for the
// polls that have one.
func vcMediaPollReply(mode ...Param) []Param {
	return append(mode,
		vcMediaPollState(),
		vcMediaInt("num", false, "number of poll rounds, 0 polls forever"),
		vcMediaInt("keep_time", false, "time on each terminal in seconds"),
		vcMediaInt("poll_index", false, "index of the terminal being polled; 0 means none is valid (from 6.0.0.3.0)"),
		vcMediaCurPollMt(),
		vcMediaAccountMembers("polled terminals"),
	)
}
