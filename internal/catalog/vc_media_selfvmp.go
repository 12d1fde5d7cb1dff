package catalog

import "github.com/confer-platform/confer/internal/release"

// Self composition: of a terminal (mtvmps), of one video channel of a
// terminal (mt_channel_vmps, 6.1.0.4.0) and of a TV wall (hduvmps).

// vcMediaSelfVMPEndpoints are the self-composition entries.
func vcMediaSelfVMPEndpoints() []Endpoint {
	return []Endpoint{
		{
			Name: "vc.confs.mtvmps.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/mtvmps",
			Summary: "Start a terminal's self composition (port conferences only; asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaSelfVMPParams(true, false),
		},
		{
			Name: "vc.confs.mtvmps.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mtvmps",
			Summary: "Terminals that run a self composition", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Doc: "terminals with a self composition",
					Fields: vcMediaSelfVMPSummary(false)},
			},
		},
		{
			Name: "vc.confs.mtvmps.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mtvmps/{mt_id}",
			Summary: "Self composition of a terminal; an error when none runs", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: vcMediaSelfVMPReply(false),
		},
		{
			Name: "vc.confs.mtvmps.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mtvmps/{mt_id}",
			Summary: "Modify a terminal's self composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaSelfVMPParams(false, false),
		},
		{
			Name: "vc.confs.mtvmps.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/mtvmps/{mt_id}",
			Summary: "Stop a terminal's self composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Query,
		},
		{
			// Seed 001: from 6.1.0.2.0, removed in 6.1.0.4.0 (replaced by
			// mt_channel_vmps). Reply modelled on the terminal self
			// composition plus the channel.
			Name: "vc.confs.mtvmps.channel.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mtvmps/{mt_id}/{mt_chn_idx}",
			Summary: "Self composition of one video channel of a terminal", MinLevel: 2,
			Since: release.R6_1_0_2_0, Removed: release.R6_1_0_4_0, Style: Query,
			Reply: vcMediaSelfVMPReply(true),
		},
		// mt_channel_vmps (seed 001, all from 6.1.0.4.0): the reference
		// (6.0.0.3.0) does not describe them; parameters and replies are
		// modelled on mtvmps plus the terminal channel mt_chn_idx.
		{
			Name: "vc.confs.mt_channel_vmps.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/mt_channel_vmps",
			Summary: "Start the self composition of one video channel of a terminal (asynchronous)", MinLevel: 3,
			Since: release.R6_1_0_4_0, Style: Params,
			Params: vcMediaSelfVMPParams(true, true),
		},
		{
			Name: "vc.confs.mt_channel_vmps.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mt_channel_vmps",
			Summary: "Terminal channels that run a single-channel self composition", MinLevel: 3,
			Since: release.R6_1_0_4_0, Style: Query,
			Reply: []Param{
				{Name: "mts", Kind: Array, Elem: Object, Doc: "terminal channels with a self composition",
					Fields: vcMediaSelfVMPSummary(true)},
			},
		},
		{
			Name: "vc.confs.mt_channel_vmps.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mt_channel_vmps/{mt_id}/{mt_chn_idx}",
			Summary: "Self composition of one video channel of a terminal", MinLevel: 3,
			Since: release.R6_1_0_4_0, Style: Query,
			Reply: vcMediaSelfVMPReply(true),
		},
		{
			Name: "vc.confs.mt_channel_vmps.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/mt_channel_vmps/{mt_id}/{mt_chn_idx}",
			Summary: "Modify the self composition of one video channel of a terminal (asynchronous)", MinLevel: 3,
			Since: release.R6_1_0_4_0, Style: Params,
			Params: vcMediaSelfVMPParams(false, false),
		},
		{
			Name: "vc.confs.mt_channel_vmps.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/mt_channel_vmps/{mt_id}/{mt_chn_idx}",
			Summary: "Stop the self composition of one video channel of a terminal (asynchronous)", MinLevel: 3,
			Since: release.R6_1_0_4_0, Style: Query,
		},
		{
			Name: "vc.confs.hduvmps.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/hduvmps",
			Summary: "Start a TV wall's self composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaWallVMPParams(true),
		},
		{
			Name: "vc.confs.hduvmps.list", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/hduvmps",
			Summary: "TV walls that run a self composition (port conferences only)", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "hdus", Kind: Array, Elem: Object, Doc: "TV walls with a self composition", Fields: []Param{
					vcMediaLayout(false),
					vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes"),
					vcMediaStr("hdu_id", false, "TV-wall id, max 48 bytes"),
				}},
			},
		},
		{
			Name: "vc.confs.hduvmps.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/hduvmps/{hdu_id}",
			Summary: "Self composition of a TV wall", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "mode", Kind: Int, Enum: []int{1, 2}, Doc: "composition mode: 1 custom, 2 automatic (from 6.0.0.3.0)"},
				vcMediaLayout(false),
				vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes"),
				{Name: "members", Kind: Array, Elem: Object, Doc: "composition channels", Fields: []Param{
					vcMediaInt("chn_idx", false, "composition channel index, from 0"),
					vcMediaInt("member_type", false, "member type: 0 empty, 1 chosen by the conference control"),
					vcMediaStr("account", false, "member's call alias (from 6.0.0.3.0)"),
					vcMediaMtID(false, "terminal of the channel, for member type 1; empty when not in the conference"),
				}},
			},
		},
		{
			Name: "vc.confs.hduvmps.update", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/hduvmps/{hdu_id}",
			Summary: "Modify a TV wall's self composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaWallVMPParams(false),
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.hduvmps.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/hduvmps/{hdu_id}",
			Summary: "Stop a TV wall's self composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Query,
		},
	}
}

// vcMediaSelfMemberTypeDoc describes the member type of self-composition
// members. The reference names 0 and 1 but its own example sends 2, so the
// set stays open.
const vcMediaSelfMemberTypeDoc = "member type: 0 empty, 1 chosen by the conference control"

// vcMediaSelfMembers are the request members of a terminal or TV-wall self
// composition. mtRequired tells whether mt_id is unconditionally required.
func vcMediaSelfMembers(mtRequired bool) Param {
	mtDoc := "terminal of the channel"
	if !mtRequired {
		mtDoc += "; needed when the member type is 1"
	}
	return Param{Name: "members", Kind: Array, Elem: Object, Doc: "composition channels", Fields: []Param{
		vcMediaInt("chn_idx", true, "composition channel index, from 0"),
		vcMediaInt("member_type", false, vcMediaSelfMemberTypeDoc+"; required (the reference marks it so; also accepted as members_type)"),
		vcMediaInt("members_type", false, "seed 001's spelling of member_type, accepted as a synonym"),
		vcMediaMtID(mtRequired, mtDoc),
		vcMediaInt("mt_chn_idx", false, "terminal video channel; 0 chooses automatically; default 0 (from 6.0.0.3.0)"),
	}}
}

// vcMediaSelfVMPParams are the parameters of starting (create true) or
// modifying a terminal's self composition; channel adds the terminal
// channel of mt_channel_vmps.
func vcMediaSelfVMPParams(create, channel bool) []Param {
	var ps []Param
	ps = append(ps, Param{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "composition mode: 1 custom, 2 automatic"})
	ps = append(ps, vcMediaLayout(true))
	if create {
		ps = append(ps, vcMediaMtID(true, "terminal whose self composition starts"))
		if channel {
			ps = append(ps, vcMediaInt("mt_chn_idx", true, "video channel of the terminal that receives the composition"))
		} else {
			ps = append(ps, vcMediaInt("mt_chn_idx", false, "video channel of the terminal that receives the composition (from 6.1.0.2.0)"))
		}
	}
	ps = append(ps,
		vcMediaFlag("voice_hint", true, "identify the sound source: 0 no, 1 yes (from 5.1.0.1.0)"),
		vcMediaFlag("show_mt_name", true, "show terminal names: 0 no, 1 yes (renamed from show_alias in 5.1.0.1.0)"),
		vcMediaSelfMembers(true),
	)
	return ps
}

// vcMediaSelfVMPSummary are the elements of the self-composition lists.
func vcMediaSelfVMPSummary(channel bool) []Param {
	fs := []Param{
		{Name: "mode", Kind: Int, Enum: []int{1, 2}, Doc: "composition mode: 1 custom, 2 automatic"},
		vcMediaLayout(false),
		vcMediaFlag("voice_hint", false, "identify the sound source: 0 no, 1 yes"),
		vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes"),
		vcMediaMtID(false, "terminal with the self composition"),
	}
	if channel {
		fs = append(fs, vcMediaInt("mt_chn_idx", false, "video channel of the terminal"))
	}
	return fs
}

// vcMediaSelfVMPReply is the reply of a terminal's (channel: one channel's)
// self-composition query.
func vcMediaSelfVMPReply(channel bool) []Param {
	var fs []Param
	if channel {
		fs = append(fs,
			vcMediaMtID(false, "terminal with the self composition"),
			vcMediaInt("mt_chn_idx", false, "video channel of the terminal"),
		)
	}
	return append(fs,
		Param{Name: "mode", Kind: Int, Enum: []int{1, 2}, Doc: "composition mode: 1 custom, 2 automatic"},
		vcMediaLayout(false),
		vcMediaFlag("voice_hint", false, "identify the sound source: 0 no, 1 yes"),
		vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes"),
		Param{Name: "members", Kind: Array, Elem: Object, Doc: "composition channels", Fields: []Param{
			vcMediaInt("chn_idx", false, "composition channel index, from 0"),
			vcMediaInt("member_type", false, vcMediaSelfMemberTypeDoc),
			vcMediaMtID(false, "terminal of the channel, for member type 1; empty when not in the conference"),
			vcMediaInt("mt_chn_idx", false, "terminal video channel; 0 automatic (from 6.0.0.3.0)"),
			vcMediaStr("account", false, "member's call alias (from 6.0.0.3.0)"),
		}},
	)
}

// vcMediaWallVMPParams are the parameters of starting (create true) or
// modifying a TV wall's self composition. mode was added to both in
// 6.0.0.3.0 (A1-api-changes.md, seed 001); the reference marks it required
// only when starting.
func vcMediaWallVMPParams(create bool) []Param {
	var ps []Param
	ps = append(ps, vcMediaLayout(true))
	if create {
		ps = append(ps, vcMediaStr("hdu_id", true, "TV-wall id: digits, underscore, digits; max 48 bytes"))
	}
	ps = append(ps,
		vcMediaFlag("show_mt_name", true, "show terminal names: 0 no, 1 yes"),
		Param{Name: "mode", Kind: Int, Required: create, Enum: []int{1, 2}, Doc: "composition mode: 1 custom, 2 automatic (from 6.0.0.3.0)"},
		vcMediaSelfMembers(false),
	)
	return ps
}
