package catalog

import "github.com/confer-platform/confer/internal/release"

// Mixing and conference picture composition (vmps).

// vcMediaMixEndpoints are the conference mixer entries (mix_id 1 is the
// conference's main mixer).
func vcMediaMixEndpoints() []Endpoint {
	mixMembers := vcMediaMtArray("members", true, false, "mixing members")
	return []Endpoint{
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mixs.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/mixs/{mix_id}",
			Summary: "Mixing of a conference", MinLevel: 1, Since: release.Baseline, Style: Query,
			Reply: []Param{
				{Name: "mode", Kind: Int, Enum: []int{1, 2}, Doc: "mixing mode: 1 smart mixing, 2 custom mixing"},
				vcMediaAccountMembers("mixing members"),
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mixs.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/mixs",
			Summary: "Start conference mixing (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{
				{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "mixing mode: 1 smart mixing, 2 custom mixing"},
				mixMembers,
			},
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mixs.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/mixs/{mix_id}",
			Summary: "Stop conference mixing (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Query,
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.mixs.members.add", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/mixs/{mix_id}/members",
			Summary: "Add mixing members (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{mixMembers},
		},
		{
			// Not in seed 001's table nor added in A1: baseline. The members
			// travel in params although the method is DELETE (reference).
			Name: "vc.confs.mixs.members.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/mixs/{mix_id}/members",
			Summary: "Remove mixing members (asynchronous)", MinLevel: 1, Since: release.Baseline, Style: Params,
			Params: []Param{mixMembers},
		},
	}
}

// vcMediaVMPEndpoints are the conference picture-composition entries
// (vmp_id 1 is the conference's main composition).
func vcMediaVMPEndpoints() []Endpoint {
	return []Endpoint{
		{
			Name: "vc.confs.vmps.get", Module: VC, Method: "GET", Path: "/api/v1/vc/confs/{conf_id}/vmps/{vmp_id}",
			Summary: "Picture composition of a conference; an error when none runs", MinLevel: 1,
			Since: release.Baseline, Style: Query,
			Reply: vcMediaVMPReply(),
		},
		{
			Name: "vc.confs.vmps.create", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/vmps",
			Summary: "Start conference picture composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaVMPParams(false),
		},
		{
			// Seed 001 and the reference: modifying is a POST.
			Name: "vc.confs.vmps.update", Module: VC, Method: "POST", Path: "/api/v1/vc/confs/{conf_id}/vmps/{vmp_id}",
			Summary: "Modify conference picture composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaVMPParams(true),
		},
		{
			// Seed 001: the modification was listed as PUT in 5.1.0.1.0
			// (A1-api-changes.md, 5.1.0.1.0). It is served as POST (above)
			// and, with the same parameters, as PUT, so both methods work.
			Name: "vc.confs.vmps.update_put", Module: VC, Method: "PUT", Path: "/api/v1/vc/confs/{conf_id}/vmps/{vmp_id}",
			Summary: "Modify conference picture composition with PUT (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Params,
			Params: vcMediaVMPParams(true),
		},
		{
			// Not in seed 001's table nor added in A1: baseline.
			Name: "vc.confs.vmps.delete", Module: VC, Method: "DELETE", Path: "/api/v1/vc/confs/{conf_id}/vmps/{vmp_id}",
			Summary: "Stop conference picture composition (asynchronous)", MinLevel: 1,
			Since: release.Baseline, Style: Query,
		},
	}
}

// vcMediaVMPModeDoc describes the composition mode of vmps.
const vcMediaVMPModeDoc = "composition mode: 1 custom, 2 automatic, 3 automatic with batch poll, " +
	"4 custom with batch poll (3 and 4 from 5.2.0.2.0)"

// vcMediaMemberTypeDoc describes the member type of vmps members.
const vcMediaMemberTypeDoc = "member type: 0 an empty channel (before 6.0.0.3.0), 1 chosen by the conference control, 2 follows the speaker, " +
	"3 follows the chairman, 4 follows the conference poll, 5 voice activation, 6 single-channel poll " +
	"(from 5.2.0.2.0), 7 follows the content stream"

// vcMediaVMPMemberTypes are the member types of the conference
// composition's channels. 0 (an empty channel) is what the self
// compositions still call it in reference 05; the conference composition
// of 6.0.0.3.0 lists 1 to 7 only, so 0 is refused from then on
// (internal/compat).
var vcMediaVMPMemberTypes = []int{0, 1, 2, 3, 4, 5, 6, 7}

// vcMediaVMPParams are the parameters of starting (update false) and
// modifying (update true) a conference picture composition.
func vcMediaVMPParams(update bool) []Param {
	pollIndexDoc := "index of the terminal to poll first; default 1"
	if update {
		pollIndexDoc = "index of the terminal to poll from now; 0 keeps the current position; default 0"
	}
	return []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 2, 3, 4}, Doc: vcMediaVMPModeDoc},
		vcMediaLayout(true),
		vcMediaFlag("broadcast", true, "broadcast the composition: 0 no, 1 yes"),
		vcMediaFlag("voice_hint", true, "identify the sound source: 0 no, 1 yes (from 5.1.0.1.0)"),
		vcMediaFlag("show_mt_name", true, "show terminal names: 0 no, 1 yes (renamed from show_alias in 5.1.0.1.0)"),
		vcMediaFlag("except_self", false, "automatic composition n-1, terminals do not see themselves: 0 no, 1 yes (from 6.1.0.2.0)"),
		vcMediaNameStyle(update),
		{Name: "members", Kind: Array, Elem: Object, Required: true, Doc: "composition channels", Fields: []Param{
			vcMediaInt("chn_idx", true, "composition channel index, from 0"),
			{Name: "member_type", Kind: Int, Enum: vcMediaVMPMemberTypes,
				Doc: vcMediaMemberTypeDoc + "; required (the reference marks it so; also accepted as members_type)"},
			{Name: "members_type", Kind: Int, Enum: vcMediaVMPMemberTypes,
				Doc: "seed 001's spelling of member_type, accepted as a synonym"},
			vcMediaMtID(false, "terminal of the channel; needed when the member type is 1"),
			vcMediaInt("mt_chn_idx", false, "terminal video channel, only for member type 1; 0 chooses automatically; default 0 (from 6.0.0.3.0)"),
			{Name: "poll", Kind: Object, Doc: "single-channel poll, only for member type 6 (from 5.2.0.2.0)", Fields: []Param{
				vcMediaInt("num", true, "number of poll rounds, 0 polls forever"),
				vcMediaInt("keep_time", true, "poll interval in seconds"),
				vcMediaInt("poll_index", false, pollIndexDoc+" (from 6.0.0.3.0)"),
				vcMediaMtArray("members", update, true, "terminals of the single-channel poll"),
			}},
		}},
		{Name: "poll", Kind: Object, Doc: "batch poll, only for modes 3 and 4 (from 5.2.0.2.0)", Fields: []Param{
			vcMediaInt("num", true, "number of batch-poll rounds, 0 polls forever"),
			vcMediaInt("keep_time", true, "batch-poll interval in seconds"),
			vcMediaMtArray("members", update, true, "terminals of the batch poll, only for mode 4"),
		}},
	}
}

// vcMediaVMPReply is the reply of the conference picture-composition query.
func vcMediaVMPReply() []Param {
	return []Param{
		{Name: "mode", Kind: Int, Enum: []int{1, 2, 3, 4}, Doc: vcMediaVMPModeDoc},
		vcMediaLayout(false),
		vcMediaFlag("broadcast", false, "broadcast: 0 no, 1 yes"),
		vcMediaFlag("voice_hint", false, "identify the sound source: 0 no, 1 yes"),
		vcMediaFlag("show_mt_name", false, "show terminal names: 0 no, 1 yes"),
		vcMediaFlag("except_self", false, "automatic composition n-1: 0 no, 1 yes (from 6.1.0.2.0)"),
		vcMediaNameStyle(false),
		{Name: "members", Kind: Array, Elem: Object, Doc: "composition channels", Fields: []Param{
			vcMediaInt("chn_idx", false, "composition channel index, from 0"),
			{Name: "member_type", Kind: Int, Enum: vcMediaVMPMemberTypes, Doc: vcMediaMemberTypeDoc},
			vcMediaStr("account", false, "member's call alias (from 6.0.0.3.0)"),
			vcMediaMtID(false, "member's terminal id; empty when the member is not in the conference"),
			vcMediaInt("mt_chn_idx", false, "terminal video channel, only for member type 1; 0 automatic (from 6.0.0.3.0)"),
			{Name: "poll", Kind: Object, Doc: "single-channel poll, only for member type 6", Fields: []Param{
				vcMediaInt("num", false, "number of poll rounds"),
				vcMediaInt("keep_time", false, "poll interval in seconds"),
				vcMediaInt("poll_index", false, "index of the terminal being polled; 0 means none is valid (from 6.0.0.3.0)"),
				vcMediaAccountMembers("terminals of the single-channel poll, in poll order"),
			}},
		}},
		{Name: "poll", Kind: Object, Doc: "batch poll, only for modes 3 and 4", Fields: []Param{
			vcMediaInt("num", false, "number of batch-poll rounds"),
			vcMediaInt("keep_time", false, "batch-poll interval in seconds"),
			vcMediaAccountMembers("terminals of the batch poll, only for mode 4"),
		}},
	}
}
