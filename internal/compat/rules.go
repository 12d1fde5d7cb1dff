package compat

import "github.com/confer-platform/confer/internal/release"

// target is where a resource appears: an endpoint and the path prefix of
// the resource in its request or reply ("" for the top level, "confs[]."
// for the elements of a list).
type target struct{ endpoint, prefix string }

func t(endpoint, prefix string) target { return target{endpoint, prefix} }

// Resources: every place a record of one kind travels.
var (
	confInfo = []target{t("vc.confs.get", ""), t("vc.confs.list", "confs[].")}
	confList = []target{t("vc.confs.list", "confs[].")}
	mtInfo   = []target{t("vc.confs.mts.get", ""), t("vc.confs.mts.list", "mts[]."), t("vc.confs.cascades.mts.list", "mts[].")}
	// Personal template detail, create and modify (request and reply).
	personalTemplate = []target{t("mc.personal_templates.get", ""), t("mc.personal_templates.create", ""), t("mc.personal_templates.update", "")}
	publicTemplate   = []target{t("mc.public_templates.get", ""), t("mc.public_templates.create", ""), t("mc.public_templates.update", "")}
	templateLists    = []target{t("mc.personal_templates.list", "personal_templates[]."), t("mc.public_templates.list", "public_templates[].")}
	templateSimple   = []target{t("mc.personal_templates.simple.get", "")}
	room             = []target{t("mc.virtual_meeting_rooms.get", ""), t("mc.virtual_meeting_rooms.create", ""), t("mc.virtual_meeting_rooms.update", "")}
	roomList         = []target{t("mc.virtual_meeting_rooms.list", "virtual_meeting_rooms[].")}
	confCreate       = []target{t("mc.confs.create", "")}
	booked           = []target{t("mc.booked_confs.get", ""), t("mc.booked_confs.list", "booked_confs[].")}
	vmpStart         = []target{t("vc.confs.vmps.create", ""), t("vc.confs.vmps.update", ""), t("vc.confs.vmps.update_put", ""), t("vc.confs.vmps.get", "")}
)

func join(ts ...[]target) []target {
	var out []target
	for _, x := range ts {
		out = append(out, x...)
	}
	return out
}

// on expands one change of the history to every place it applies: each
// target whose catalogue schema has the field (a Removed field is not in the
// newest schema, so those rules apply to every target).
func on(ts []target, rel release.Release, change Change, field string, old, new any, source string) []Rule {
	var rs []Rule
	for _, tg := range ts {
		r := Rule{Release: rel, Endpoint: tg.endpoint, Path: tg.prefix + field, Change: change, Old: old, New: new, Source: source}
		if change == Removed || inSchema(r.Endpoint, r.Path) {
			rs = append(rs, r)
		}
	}
	return rs
}

func added(ts []target, rel release.Release, source string, fields ...string) []Rule {
	var rs []Rule
	for _, f := range fields {
		rs = append(rs, on(ts, rel, Added, f, nil, nil, source)...)
	}
	return rs
}

// anyDepth applies a change to a field name wherever it appears in the
// requests and replies of the given endpoints.
func anyDepth(endpoints []string, rel release.Release, change Change, field string, old, new any, source string) []Rule {
	var rs []Rule
	for _, e := range endpoints {
		r := Rule{Release: rel, Endpoint: e, Path: "**." + field, Change: change, Old: old, New: new, Source: source}
		if inSchema(r.Endpoint, r.Path) {
			rs = append(rs, r)
		}
	}
	return rs
}

// Rules returns the rule table (docs/compatibility.md): the seeds' release
// history (seed 001 "Versioning" and "Enumerations") and the changes of
// reference A1-api-changes.md.
func Rules() []Rule {
	var rs []Rule
	add := adder(&rs)
	templates := join(personalTemplate, publicTemplate)

	// Login (seed 000 "Login response"; seed 001 6.1.0.4.0).
	add(ToReply, added([]target{t("system.login", "")}, release.R6_1_0_4_0, "seed 001 6.1.0.4.0: login response gains userdomainname, usermoid, userdomainmoid",
		"userdomainname", "usermoid", "userdomainmoid"))
	rs = append(rs, Rule{Dir: ToReply, Release: release.R6_1_0_4_0, Endpoint: "system.login", Change: CookieExpires, Source: "seed 000 Login response: earlier releases add an Expires date"})

	// 5.0.0.4.1
	add(Both, on([]target{t("vc.confs.playback.get", ""), t("vc.confs.playback.current_progress.update", "")}, release.R5_0_0_4_1, Retyped, "current_progress", "string", nil,
		"seed 001 5.0.0.4.1: current_progress string to integer (no emulated release is older: accepted as a string in requests)"))

	// 5.1.0.1.0
	// A rename applies wherever the field travels (TestRenamesEverywhere).
	add(Both, on(join(confInfo, templates, confCreate, templateLists, templateSimple, booked, []target{t("vc.confs.vad.get", "")}),
		release.R5_1_0_1_0, Renamed, "voice_activity_detection", "voice_inspire_enable", nil,
		"seed 001 5.1.0.1.0: voice_inspire_enable renamed voice_activity_detection"))
	add(ToRequest, on([]target{t("vc.confs.vad.update", "")}, release.R5_1_0_1_0, Renamed, "vacinterval", "interval", nil,
		"seed 001 5.1.0.1.0: vad update field interval renamed vacinterval"))
	add(Both, on(join(vmpStart, []target{t("vc.confs.mtvmps.create", ""), t("vc.confs.mtvmps.get", ""), t("vc.confs.mtvmps.update", ""),
		t("vc.confs.hduvmps.create", ""), t("vc.confs.hduvmps.get", ""), t("vc.confs.hduvmps.update", "")}),
		release.R5_1_0_1_0, Renamed, "show_mt_name", "show_alias", nil, "seed 001 5.1.0.1.0: show_alias renamed show_mt_name"))
	add(Both, on(join(templates, confCreate, []target{t("mc.personal_templates.vmp.get", "")}), release.R5_1_0_1_0, Renamed, "vmp.show_mt_name", "show_alias", nil, "seed 001 5.1.0.1.0: show_alias renamed show_mt_name"))
	mediaEndpoints := []string{"mc.personal_templates.get", "mc.personal_templates.create", "mc.personal_templates.update",
		"mc.public_templates.get", "mc.public_templates.create", "mc.public_templates.update",
		"mc.virtual_meeting_rooms.get", "mc.virtual_meeting_rooms.create", "mc.virtual_meeting_rooms.update",
		"mc.confs.create", "mc.booked_confs.get", "vc.confs.get", "vc.confs.mts.get",
		"mc.personal_templates.list", "mc.public_templates.list",
		"krtc.rooms.create", "krtc.rooms.update", "krtc.rooms.get"}
	add(Both, anyDepth(mediaEndpoints, release.R5_1_0_1_0, ValueChanged, "resolution", 19, 16, "seed 001 5.1.0.1.0: 4K resolution 19 became 16"))
	add(Both, anyDepth(mediaEndpoints, release.R5_1_0_1_0, ValueChanged, "format", 7, 6, "seed 001 5.1.0.1.0: H.265 format 7 became 6 (H.263+ removed)"))
	// A monitor's video format only: its audio_format.format is another
	// enumeration (TestVideoValuesEverywhere).
	monitor := []target{t("vc.confs.monitors.create", "")}
	add(Both, on(monitor, release.R5_1_0_1_0, ValueChanged, "video_format.resolution", 19, 16, "reference A1 5.1.0.1.0: monitors' 4K resolution 19 became 16"))
	add(Both, on(monitor, release.R5_1_0_1_0, ValueChanged, "video_format.format", 7, 6, "reference A1 5.1.0.1.0: monitors' H.265 format 7 became 6"))
	accountEndpoints := []string{"vc.confs.mts.add", "vc.confs.cascades.mts.add", "vc.confs.online_mts.call",
		"mc.personal_templates.create", "mc.personal_templates.update", "mc.public_templates.create", "mc.public_templates.update",
		"mc.confs.create", "vc.confs.vmps.create", "vc.confs.vmps.update", "vc.confs.vmps.update_put", "vc.confs.poll.start"}
	add(ToRequest, anyDepth(accountEndpoints, release.R5_1_0_1_0, ValueRemoved, "account_type", nil, 3, "seed 001 5.1.0.1.0: account_type 3 (any account) removed"))
	add(ToRequest, anyDepth(accountEndpoints, release.R5_1_0_4_0, ValueAdded, "account_type", nil, 8, "seed 001 5.1.0.4.0: account_type 8 (alias@ip) added"))
	// "Removed from templates and creation" (not every resource lost every
	// field): Confer's choice is that templates and conference creation
	// lose duration (back at 5.2.0.2.0) and audio_formats (back at
	// 6.0.0.3.0); the other fields of that list are not in the newest model.
	add(Both, until(release.R5_2_0_2_0, on(join(templates, confCreate), release.R5_1_0_1_0, Removed, "duration", nil, nil,
		"seed 001 5.1.0.1.0: removed from templates and creation; back at 5.2.0.2.0")))
	add(Both, until(release.R6_0_0_3_0, on(join(templates, confCreate), release.R5_1_0_1_0, Removed, "audio_formats", nil, nil,
		"seed 001 5.1.0.1.0: removed from templates and creation; back at 6.0.0.3.0")))
	add(ToRequest, added(confCreate, release.R5_1_0_1_0, "seed 001 5.1.0.1.0: conf_level added on conference creation", "conf_level"))
	add(Both, added(vmpStart, release.R5_1_0_1_0, "seed 001 5.1.0.1.0: voice_hint and VMP mode added", "voice_hint", "mode"))
	// The poll's mode is a parameter from 5.1.0.1.0 (A1 names it in the
	// poll object of templates and creation); the query's reply carried a
	// mode before, 0 for a poll started without one (issue 42: the
	// 5.0.0.4.1 platform's reply).
	add(ToRequest, added([]target{t("vc.confs.poll.start", ""), t("vc.confs.poll.state.update", "")}, release.R5_1_0_1_0,
		"seed 001 5.1.0.1.0: poll mode added as a parameter", "mode"))

	// 5.1.0.2.0
	add(ToReply, added(confInfo, release.R5_1_0_2_0, "seed 001 5.1.0.2.0: force_broadcast, conf_level, call_mode added to conference info",
		"force_broadcast", "conf_level", "call_mode"))
	add(ToReply, on(confInfo, release.R5_1_0_2_0, Removed, "call_chase", 0, nil, "seed 001 5.1.0.2.0: call_chase removed from conference info (0 before)"))
	add(ToReply, added([]target{t("vc.confs.mts.add", ""), t("vc.confs.cascades.mts.add", "")}, release.R5_1_0_2_0, "seed 001 5.1.0.2.0: batch add terminals reply gains mts", "mts"))
	add(ToReply, added([]target{t("vc.confs.playback.start", ""), t("vc.confs.playback.start_put", "")}, release.R5_1_0_2_0, "seed 001 5.1.0.2.0: rec_id added to the playback reply", "rec_id"))
	add(ToReply, added(templateSimple, release.R5_1_0_2_0, "seed 001 5.1.0.2.0: call_mode added to simple template detail", "call_mode"))
	add(ToReply, on([]target{t("mc.public_templates.delete", "")}, release.R5_1_0_2_0, Removed, "template_id", nil, nil,
		"seed 001 5.1.0.2.0: template_id removed from the success reply of deleting a public template"))

	// 5.1.0.2.1
	recEndpoints := []string{"vc.confs.recorders.create", "vc.confs.recorders.list", "vc.confs.recorders.get", "vc.confs.playback.start", "vc.confs.playback.start_put"}
	add(Both, anyDepth(recEndpoints, release.R5_1_0_2_1, Retyped, "rec_id", "integer", nil, "seed 001 5.1.0.2.1: rec_id integer to string"))

	// 5.1.0.4.0
	add(ToReply, added(confInfo, release.R5_1_0_4_0, "seed 001 5.1.0.4.0: one_reforming added", "one_reforming"))
	add(Both, added(templates, release.R5_1_0_4_0, "seed 001 5.1.0.4.0: one_reforming added", "one_reforming"))
	add(Both, added(join(templates, confCreate), release.R5_1_0_4_0, "seed 001 5.1.0.4.0: invite_members gains protocol", "invite_members[].protocol"))
	add(Both, added(join(templates, confCreate), release.R5_1_0_4_0, "seed 001 5.1.0.4.0: recorder and des objects added", "recorder", "des"))
	add(ToRequest, until(release.R6_1_0_2_0, on(confCreate, release.R5_1_0_4_0, Removed, "conf_level", nil, nil,
		"seed 001 5.1.0.4.0: conf_level removed from conference creation; back at 6.1.0.2.0")))
	pollObj := append(append([]string{}, accountEndpoints...), "vc.confs.vmps.get")
	add(Both, anyDepth(pollObj, release.R5_1_0_4_0, Retyped, "poll.mode", "string", nil, "seed 001 5.1.0.4.0: the poll object's mode string to integer"))

	// 5.2.0.2.0
	add(Both, added(join(confInfo, templates, confCreate), release.R5_2_0_2_0, "seed 001 5.2.0.2.0: added to conferences and templates",
		"encrypted_auth", "meeting_room_name", "mute_filter", "fec_mode", "doubleflow", "mix", "vmp", "keep_calling_members"))
	// Each field is added once: conference info has shown call_mode since
	// 5.1.0.2.0, templates and creation have had recorder since 5.1.0.4.0
	// (above).
	add(Both, added(join(templates, confCreate), release.R5_2_0_2_0, "seed 001 5.2.0.2.0: added to conferences and templates", "call_mode"))
	add(Both, added(confInfo, release.R5_2_0_2_0, "seed 001 5.2.0.2.0: added to conferences and templates", "recorder"))
	add(ToRequest, added(confCreate, release.R5_2_0_2_0, "seed 001 5.2.0.2.0: create_type and template_id added", "create_type", "template_id"))
	vmpAll := []string{"vc.confs.vmps.create", "vc.confs.vmps.update", "vc.confs.vmps.update_put", "vc.confs.vmps.get",
		"mc.personal_templates.create", "mc.personal_templates.update", "mc.personal_templates.get", "mc.confs.create"}
	for _, v := range []int{3, 4} {
		add(ToRequest, on(vmpStart, release.R5_2_0_2_0, ValueAdded, "mode", nil, v, "seed 001 5.2.0.2.0: VMP mode 3 and 4 (batch poll) added"))
	}
	for _, v := range []int{61, 62, 63} {
		add(ToRequest, anyDepth(vmpAll, release.R5_2_0_2_0, ValueAdded, "layout", nil, v, "seed 001 5.2.0.2.0: layouts 61 to 63 added"))
	}
	add(ToRequest, anyDepth(vmpAll, release.R5_2_0_2_0, ValueAdded, "member_type", nil, 6, "seed 001 5.2.0.2.0: members_type 6 (single-channel poll) added"))
	add(ToRequest, anyDepth(vmpAll, release.R5_2_0_2_0, ValueAdded, "members_type", nil, 6, "seed 001 5.2.0.2.0: members_type 6 (single-channel poll) added"))
	add(Both, anyDepth(vmpAll, release.R5_2_0_2_0, Added, "mt_name_style", nil, nil, "seed 001 5.2.0.2.0: mt_name_style added"))
	add(ToRequest, anyDepth(accountEndpoints, release.R5_2_0_2_0, ValueAdded, "call_mode", nil, 3, "seed 001 5.2.0.2.0: call_mode 3 (chase-call) added"))
	for _, v := range []int{32, 64} {
		add(ToRequest, anyDepth([]string{"mc.personal_templates.create", "mc.personal_templates.update", "mc.public_templates.create", "mc.public_templates.update",
			"mc.confs.create", "mc.virtual_meeting_rooms.create", "mc.virtual_meeting_rooms.update"},
			release.R5_2_0_2_0, ValueAdded, "max_join_mt", nil, v, "seed 001 5.2.0.2.0: max_join_mt gains 32 and 64"))
	}
	for _, ch := range []string{"v_snd_chn", "v_rcv_chn", "dv_snd_chn", "dv_rcv_chn"} {
		add(ToReply, added([]target{t("vc.confs.mts.get", "")}, release.R5_2_0_2_0, "seed 001 5.2.0.2.0: terminal channels gain bitrate, resolution, format",
			ch+"[].bitrate", ch+"[].resolution", ch+"[].format"))
	}
	add(ToReply, added([]target{t("vc.confs.mts.get", "")}, release.R5_2_0_2_0, "seed 001 5.2.0.2.0: v_snd_chn gains cur_video_idx", "v_snd_chn[].cur_video_idx"))
	add(ToReply, added([]target{t("vc.vrs.list", "vrs[].")}, release.R5_2_0_2_0, "seed 001 5.2.0.2.0: vrs_id added to the vrs list", "vrs_id"))
	add(Both, added([]target{t("vc.confs.recorders.create", "")}, release.R5_2_0_2_0, "seed 001 5.2.0.2.0: vrs_id added to recorder", "vrs_id"))
	add(Both, added([]target{t("vc.confs.recorders.create", "")}, release.R5_2_0_2_0,
		"reference A1 5.2.0.2.0 (recorder objects gain dual_stream): Confer dates the recorder start's dual_stream the same", "dual_stream"))

	// 5.2.0.4.0
	add(ToReply, added(confInfo, release.R5_2_0_4_0, "seed 001 5.2.0.4.0: conference info gains domain, cascade and meeting fields",
		"user_domain_moid", "user_domain_name", "superior_cascade", "subordinate_cascade", "meeting_id"))
	add(Both, added(join(templates, templateLists), release.R5_2_0_4_0, "seed 001 5.2.0.4.0: templates gain e164 and bind_e164", "e164", "bind_e164"))
	add(Both, added(templates, release.R5_2_0_4_0, "seed 001 5.2.0.4.0: templates gain invite_members.bitrate", "invite_members[].bitrate"))

	// 6.0.0.3.0
	add(ToReply, added(confList, release.R6_0_0_3_0, "reference A1 6.0.0.3.0: encrypted_frequence added to the conference list", "encrypted_frequence"))
	add(ToReply, added([]target{t("vc.confs.get", "")}, release.R6_0_0_3_0, "reference A1 6.0.0.3.0: encrypted_frequence added to conference info", "encrypted_frequence"))
	add(Both, added([]target{t("vc.confs.upload_poll.get", ""), t("vc.confs.poll.get", ""), t("vc.confs.poll.start", "")}, release.R6_0_0_3_0,
		"seed 001 6.0.0.3.0: poll_index added", "poll_index"))
	add(Both, added([]target{t("vc.confs.recorders.create", ""), t("vc.confs.recorders.get", "")}, release.R6_0_0_3_0, "seed 001 6.0.0.3.0: watermark added", "watermark"))
	add(Both, added([]target{t("vc.confs.hduvmps.create", ""), t("vc.confs.hduvmps.update", ""), t("vc.confs.hduvmps.get", "")}, release.R6_0_0_3_0,
		"seed 001 6.0.0.3.0: mode added to TV-wall self composition", "mode"))
	add(ToReply, added([]target{t("mc.booked_confs.get", "")}, release.R6_0_0_3_0, "seed 001 6.0.0.3.0: meeting_id added to the scheduled conference", "meeting_id"))
	add(ToReply, added([]target{t("mc.booked_confs.list", "booked_confs[].")}, release.R6_0_0_3_0, "seed 001 6.0.0.3.0: meeting_id added to the scheduled conference", "meeting_id"))
	add(ToReply, added(confCreate, release.R6_0_0_3_0, "seed 001 6.0.0.3.0: meeting_id added to the reply of conference creation", "meeting_id"))
	// Member type 0 (an empty channel): reference 05 of 6.0.0.3.0 names it
	// for the self compositions (mtvmps, hduvmps) but lists 1 to 7 for the
	// conference composition, whose earlier releases accepted it.
	for _, f := range []string{"members[].member_type", "members[].members_type"} {
		add(ToRequest, on(vmpStart, release.R6_0_0_3_0, ValueRemoved, f, nil, 0,
			"reference 05 6.0.0.3.0: the conference composition's member types are 1 to 7; 0 (empty channel) accepted before"))
	}
	// Queries of a feature that is not running: reference 05 (6.0.0.3.0)
	// answers an error ("当未开启画面合成时返回错误"); the platform of
	// 5.0.0.4.1 answered success with mode or state 0. A1 records no
	// change in between: Confer dates it 6.0.0.3.0, the first release
	// whose reference states the error (docs/compatibility.md).
	notRunning := "reference 05 6.0.0.3.0: a query of a feature that is not running answers an error; the reply before was success with "
	rs = append(rs,
		answered("vc.confs.vmps.get", release.R6_0_0_3_0, 20823, `{"mode":0}`, notRunning+"mode 0"),
		answered("vc.confs.mixs.get", release.R6_0_0_3_0, 20812, `{"mode":0,"members":[]}`, notRunning+"mode 0 and no members"),
		answered("vc.confs.mtvmps.list", release.R6_0_0_3_0, 20823, `{"mts":[]}`, notRunning+"no terminals"),
		answered("vc.confs.mtvmps.get", release.R6_0_0_3_0, 20823, `{"mode":0,"members":[]}`, notRunning+"mode 0 and no members"),
		answered("vc.confs.hduvmps.get", release.R6_0_0_3_0, 20823, `{"layout":0,"members":[]}`, notRunning+"layout 0 and no members (the wall's composition has no mode before 6.0.0.3.0)"),
		answered("vc.confs.recorders.get", release.R6_0_0_3_0, 20802, `{"state":0}`, notRunning+"state 0 (not recording)"))

	// 6.1.0.2.0
	add(ToReply, added(confInfo, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: vc conference fields added",
		"conf_category", "force_mute", "anonymous_mt", "machine_room_moid"))
	add(ToRequest, added([]target{t("vc.confs.list", "")}, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: own_conf list parameter added", "own_conf"))
	add(ToReply, added(mtInfo, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: account and account_type added to terminals", "account", "account_type"))
	add(Both, added([]target{t("vc.confs.speaker.update", "")}, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: force_broadcast added to the speaker", "force_broadcast"))
	add(Both, added([]target{t("vc.confs.mute.update", "")}, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: force_mute added to mute", "force_mute"))
	add(Both, added(vmpStart, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: except_self added", "except_self"))
	add(Both, added([]target{t("vc.confs.mtvmps.create", "")}, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: mt_chn_idx added to terminal self composition", "mt_chn_idx"))
	add(Both, added([]target{t("vc.confs.hdus.create", ""), t("vc.confs.hdus.get", "")}, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: show_mt_name added to TV walls", "show_mt_name"))
	add(ToRequest, added(confCreate, release.R6_1_0_2_0, "seed 001 6.1.0.2.0: creation gains mt_supported_protocol, force_mute, anonymous_mt",
		"mt_supported_protocol", "force_mute", "anonymous_mt"))
	for _, v := range []int{2, 3} {
		add(ToRequest, anyDepth([]string{"mc.confs.create", "mc.virtual_meeting_rooms.create", "mc.virtual_meeting_rooms.update"}, release.R6_1_0_2_0, ValueAdded, "conf_type", nil, v,
			"seed 001 6.1.0.2.0: conf_type 2 (SFU) and 3 (mixed) added"))
	}
	add(ToRequest, anyDepth([]string{"mc.confs.create"}, release.R6_1_0_2_0, ValueAdded, "conf_type", nil, 4, "seed 001 6.1.0.2.0: conf_type 4 (auto) added on creation"))

	// 6.1.0.4.0
	add(ToReply, added(confInfo, release.R6_1_0_4_0, "seed 001 6.1.0.4.0: enable_rtc on conference list and info", "enable_rtc"))
	add(Both, added(personalTemplate, release.R6_1_0_4_0, "seed 001 6.1.0.4.0: personal template gains enable_rtc, multi_stream, conf_level",
		"enable_rtc", "multi_stream", "conf_level"))
	add(Both, added(room, release.R6_1_0_4_0, "seed 001 6.1.0.4.0: virtual rooms gain enable_rtc, public_conf, multi_stream", "enable_rtc", "public_conf", "multi_stream"))
	add(ToReply, added(roomList, release.R6_1_0_4_0, "seed 001 6.1.0.4.0: enable_rtc on the virtual room list", "enable_rtc"))
	add(ToRequest, added(confCreate, release.R6_1_0_4_0, "seed 001 6.1.0.4.0: creation gains enable_rtc and multi_stream", "enable_rtc", "multi_stream"))
	add(ToReply, added(join([]target{t("mc.personal_templates.list", "personal_templates[].")}, templateSimple), release.R6_1_0_4_0,
		"seed 001 6.1.0.4.0: enable_rtc and conf_level on the personal template list and simple detail", "enable_rtc", "conf_level"))
	add(ToRequest, anyDepth([]string{"mc.personal_templates.create", "mc.personal_templates.update", "mc.virtual_meeting_rooms.create", "mc.virtual_meeting_rooms.update", "mc.confs.create"},
		release.R6_1_0_4_0, ValueRemoved, "conf_type", nil, 3, "seed 001 6.1.0.4.0: conf_type 3 removed from templates, virtual rooms and creation"))

	return append(append(rs, a1Rules()...), krtcRules()...)
}

// adder returns the add function of a rule list: each group of rules is
// added with the direction its history entry states (a reply's change, a
// request's, or a resource's that travels both ways), narrowed to the
// sides where the catalogue has the field.
func adder(rs *[]Rule) func(d Dir, more ...[]Rule) {
	return func(d Dir, more ...[]Rule) {
		for _, m := range more {
			for _, r := range m {
				if r.Dir = sides(d, r); r.Dir != 0 {
					*rs = append(*rs, r)
				}
			}
		}
	}
}

// answered is an ErrorAnswered rule: before rel, error code of endpoint
// was a success with the fields of the JSON object body.
func answered(endpoint string, rel release.Release, code int, body, source string) Rule {
	return Rule{Dir: ToReply, Release: rel, Endpoint: endpoint, Path: "error_code", Change: ErrorAnswered, Old: body, New: code, Source: source}
}

// until sets the release at which Removed fields come back.
func until(u release.Release, rs []Rule) []Rule {
	for i := range rs {
		rs[i].Until = u
	}
	return rs
}
