package catalog

import "github.com/confer-platform/confer/internal/release"

// TV walls of a conference (hdus) and TV-wall batch polls (hdupoll).

// vcMediaWallEndpoints are the TV-wall entries.
func vcMediaWallEndpoints() []Endpoint {
	return []Endpoint{
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.hdus.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/hdus",
			Summary: "TV walls that the conference occupies", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "hdus", Kind: Array, Elem: Object, Doc: "TV walls",
					Fields: []Param{vcMediaStr("hdu_id", false, "TV-wall id, max 48 bytes")}},
			},
		},
		{
			Name: "vc.confs.hdus.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/hdus/{hdu_id}",
			Summary: "Channel of a TV wall that the conference occupies", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: []Param{
				vcMediaStr("hdu_id", false, "TV-wall id, max 48 bytes"),
				{Name: "mode", Kind: Int, Enum: []int{1, 2, 3}, Doc: vcMediaWallModeDoc},
				vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes (from 6.1.0.2.0)"),
				{Name: "specific", Kind: Object, Doc: "selected-view parameters", Fields: []Param{
					vcMediaStr("member_type", false, vcMediaWallViewTypeDoc+", 7 batch poll"),
					vcMediaMtID(false, "viewed terminal, for view type 1"),
					vcMediaStr("account", false, "call alias of the viewed terminal, for view type 1"),
					vcMediaInt("mt_chn_idx", false, "terminal channel, for view type 1; 0 automatic (from 6.0.0.3.0)"),
					vcMediaStr("vmp_id", false, "viewed picture composition, for view type 6; max 48 bytes"),
				}},
				{Name: "poll", Kind: Object, Doc: "poll parameters", Fields: []Param{
					vcMediaInt("num", false, "number of poll rounds"),
					vcMediaInt("keep_time", false, "poll interval in seconds"),
					{Name: "mode", Kind: Int, Enum: []int{1, 3}, Doc: "poll mode: 1 video only, 3 audio and video (integer since 5.1.0.4.0, a string before)"},
					vcMediaInt("poll_index", false, "index of the terminal being polled; 0 means none is valid (from 6.0.0.3.0)"),
					{Name: "members", Kind: Array, Elem: Object, Doc: "polled terminals", Fields: []Param{
						vcMediaMtID(false, "polled terminal; empty when not in the conference"),
						vcMediaStr("account", false, "member's call alias (from 6.0.0.3.0)"),
					}},
				}},
				// The reply table types spilt as an array, its example as an
				// object: the example wins.
				{Name: "spilt", Kind: Object, Doc: "four-way split screen", Fields: []Param{
					{Name: "members", Kind: Array, Elem: Object, Doc: "split-screen members", Fields: []Param{
						vcMediaInt("chn_idx", false, "split-screen channel, 0 to 3"),
						vcMediaMtID(false, "terminal of the channel; empty when not in the conference"),
						vcMediaStr("account", false, "member's call alias (from 6.0.0.3.0)"),
					}},
				}},
			},
		},
		{
			Name: "vc.confs.hdus.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/hdus",
			Summary: "Start a TV wall (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				vcMediaStr("hdu_id", true, "TV-wall id: digits, underscore, digits; max 48 bytes"),
				{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 2, 3}, Doc: vcMediaWallModeDoc},
				vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes (from 6.1.0.2.0)"),
				{Name: "specific", Kind: Object, Doc: "selected-view parameters (mode 1)", Fields: []Param{
					// A string in the reference (its example even sends ""):
					// no closed set is enforced.
					vcMediaStr("member_type", true, vcMediaWallViewTypeDoc),
					vcMediaMtID(false, "viewed terminal, for view type 1"),
					vcMediaInt("mt_chn_idx", false, "terminal channel, for view type 1; 0 chooses automatically; default 0 (from 6.0.0.3.0)"),
					vcMediaStr("vmp_id", false, "viewed picture composition, for view type 6; max 48 bytes"),
				}},
				{Name: "poll", Kind: Object, Doc: "poll parameters (mode 3)", Fields: []Param{
					vcMediaInt("num", true, "number of poll rounds, 0 polls forever"),
					{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 3},
						Doc: "poll mode: 1 video only, 3 audio and video (integer since 5.1.0.4.0, a string before)"},
					vcMediaInt("keep_time", true, "poll interval in seconds"),
					vcMediaInt("poll_index", false, "index of the terminal to poll first; default 1 (from 6.0.0.3.0)"),
					vcMediaMtArray("members", true, false, "polled terminals"),
				}},
				// members is typed object in the table but is an array in the
				// example: the example wins.
				{Name: "spilt", Kind: Object, Doc: "four-way split screen (mode 2, traditional conferences only)", Fields: []Param{
					{Name: "members", Kind: Array, Elem: Object, Required: true, Doc: "split-screen members, not empty", Fields: []Param{
						vcMediaInt("chn_idx", true, "split-screen channel, 0 to 3"),
						vcMediaMtID(true, "terminal of the channel"),
					}},
				}},
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.hdus.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/hdus/{hdu_id}",
			Summary: "Stop a TV wall (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Query,
		},
		{
			// Seed 001: from 6.1.0.2.0 with its method not shown ("?"); the
			// reference (6.0.0.3.0) predates it. Confer serves it as PUT; the
			// parameters are not shown either, alias is Confer's reading.
			Name: "vc.confs.hdus.alias.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/hdus/{hdu_id}/alias",
			Summary: "TV-wall alias operation", MinLevel: 2, Since: release.R6_1_0_2_0, Style: Params,
			Params: []Param{vcMediaStr("alias", false, "alias of the TV wall")},
		},
		{
			// Seed 001 and A1 write the path without an id; the reference
			// writes /hdupoll/{hdupoll_id}: both are served.
			Name: "vc.confs.hdupoll.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/hdupoll",
			Aliases: []string{"/api/v1/vc/confs/{conf_id}/hdupoll/{hdupoll_id}"},
			Summary: "TV-wall batch poll", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
			Reply: []Param{
				{Name: "mode", Kind: Int, Enum: []int{1, 2}, Doc: "batch-poll mode: 1 automatic, 2 custom"},
				vcMediaPollState(),
				vcMediaInt("num", false, "number of poll rounds, 0 polls forever"),
				vcMediaInt("keep_time", false, "poll interval in seconds"),
				vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes"),
				{Name: "hdus", Kind: Array, Elem: Object, Doc: "TV walls of the batch poll",
					Fields: []Param{vcMediaStr("hdu_id", false, "TV-wall id, max 48 bytes")}},
				vcMediaMtArray("members", false, false, "terminals of the batch poll"),
			},
		},
		{
			Name: "vc.confs.hdupoll.start", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/hdupoll",
			Summary: "Start a TV-wall batch poll", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Params,
			Params: []Param{
				{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "batch-poll mode: 1 automatic, 2 custom"},
				vcMediaInt("num", false, "number of poll rounds, 0 polls forever"),
				vcMediaInt("keep_time", false, "poll interval in seconds"),
				vcMediaFlag("show_mt_name", true, "show terminal names: 0 no, 1 yes"),
				{Name: "hdus", Kind: Array, Elem: Object, Required: true, Doc: "TV walls of the batch poll",
					Fields: []Param{vcMediaStr("hdu_id", true, "TV-wall id: digits, underscore, digits; max 48 bytes")}},
				// Marked required by the reference, which also says that
				// automatic mode does not need it: optional here.
				vcMediaMtArray("members", false, true, "terminals of the batch poll; needed in custom mode, not in automatic mode"),
			},
			Reply: []Param{vcMediaInt("poll_id", false, "batch-poll id")},
		},
		{
			Name: "vc.confs.hdupoll.state.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/hdupoll/state",
			Summary: "Stop, pause or resume a TV-wall batch poll", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Params,
			Params: []Param{
				vcMediaInt("poll_id", true, "batch-poll id"),
				vcMediaStateValue("batch-poll state"),
			},
		},
	}
}

// vcMediaWallModeDoc describes the TV-wall mode.
const vcMediaWallModeDoc = "TV-wall mode: 1 selected view, 2 four-way split screen (traditional conferences only), 3 single-channel poll"

// vcMediaWallViewTypeDoc describes the view type of a TV-wall channel.
const vcMediaWallViewTypeDoc = "view type: 1 chosen terminal, 2 follows the speaker, 3 follows the chairman, " +
	"4 follows the conference poll, 6 picture composition, 10 content stream"
