package compat

import "github.com/confer-platform/confer/internal/release"

// a1Rules are the changes of reference A1-api-changes.md (5.0.0.4.1 to
// 6.0.0.3.0) that the seeds' history does not already state. Where A1 and
// the seeds disagree (call_mode on personal templates and creation,
// user_domain_moid and user_domain_name on conference info), the seeds'
// rules of rules.go stand and A1 adds nothing. Endpoint additions are the
// catalogue's Since, not rules.
func a1Rules() []Rule {
	var rs []Rule
	add := adder(&rs)
	src := func(rel release.Release, what string) string {
		return "reference A1 " + rel.String() + ": " + what
	}
	tg := func(endpoint string, prefixes ...string) []target {
		if len(prefixes) == 0 {
			return []target{t(endpoint, "")}
		}
		var ts []target
		for _, p := range prefixes {
			ts = append(ts, t(endpoint, p))
		}
		return ts
	}

	personal := personalTemplate // detail, create, modify
	public := publicTemplate
	simple := templateSimple
	bookedGet := tg("mc.booked_confs.get")
	vmpsAll := join(tg("vc.confs.vmps.get"), tg("vc.confs.vmps.create"), tg("vc.confs.vmps.update"), tg("vc.confs.vmps.update_put"))
	mtvmps := join(tg("vc.confs.mtvmps.create"), tg("vc.confs.mtvmps.get"), tg("vc.confs.mtvmps.update"), tg("vc.confs.mtvmps.list", "mts[]."))
	tplVMP := tg("mc.personal_templates.vmp.get")
	tplPoll := tg("mc.personal_templates.poll.get")

	// 5.0.0.4.1
	r := release.R5_0_0_4_1
	add(Both, on(join(tg("vc.confs.recorders.get"), tg("vc.confs.recorders.list", "recorders[].")), r, Retyped, "current_progress", "string", nil,
		src(r, "current_progress of recording status and list string to integer (no emulated release is older)")))

	// 5.1.0.1.0
	r = release.R5_1_0_1_0
	add(Both, on(join(personal, public, confCreate, confInfo, booked), r, Renamed, "preoccupy_resource", "preoccpuy_resouce", nil,
		src(r, "misspelt preoccpuy_resouce renamed preoccupy_resource")))
	add(Both, added(join(confInfo, personal, public, confCreate), r, src(r, "vacinterval (voice activation sensitivity) added"), "vacinterval"))
	add(Both, added(join(personal, confCreate, tplVMP), r, src(r, "mode added to the vmp object"), "vmp.mode"))
	add(Both, added(join(personal, confCreate, tplPoll), r, src(r, "mode added to the poll object"), "poll.mode"))
	add(Both, added(mtvmps, r, src(r, "voice_hint added to terminal self composition"), "voice_hint"))
	add(ToReply, on(join(tg("vc.confs.mtvmps.list", "mts[]."), tg("vc.confs.hduvmps.list", "hdus[].")), r, Renamed, "show_mt_name", "show_alias", nil,
		src(r, "show_alias renamed show_mt_name in the self composition lists")))
	add(ToReply, on(tg("vc.confs.cascades.mts.list", "mts[]."), r, Removed, "call_mode", nil, nil,
		src(r, "call_mode removed from the cascade terminal list")))
	add(Both, on(join(personal, confCreate), r, Removed, "poll.speaker", nil, nil, src(r, "speaker removed from the poll object")))
	add(Both, on(join(personal, simple, bookedGet, confCreate), r, Removed, "call_chase", nil, nil, src(r, "call_chase removed")))
	for _, f := range []string{"dual_formats", "satellite", "multicast", "record"} {
		add(Both, on(join(personal, public, simple, bookedGet, confCreate), r, Removed, f, nil, nil, src(r, f+" removed")))
	}
	add(ToReply, on(bookedGet, r, Removed, "audio_formats", nil, nil, src(r, "audio_formats removed from the scheduled conference")))
	add(ToReply, until(release.R6_0_0_3_0, on(simple, r, Removed, "audio_formats", nil, nil,
		src(r, "audio_formats removed from simple template detail; back at 6.0.0.3.0"))))
	add(ToReply, until(release.R5_2_0_2_0, on(simple, r, Removed, "duration", nil, nil,
		src(r, "duration removed from simple template detail; back at 5.2.0.2.0 as for templates"))))
	add(ToReply, anyDepth([]string{"mc.personal_templates.simple.get"}, r, ValueChanged, "resolution", 19, 16, src(r, "4K resolution 19 became 16")))
	add(ToReply, anyDepth([]string{"mc.personal_templates.simple.get"}, r, ValueChanged, "format", 7, 6, src(r, "H.265 format 7 became 6 (H.263+ removed)")))

	// 5.1.0.2.0
	r = release.R5_1_0_2_0
	add(ToReply, added(tg("vc.confs.recorders.create"), r, src(r, "rec_id added to the reply of starting a recording"), "rec_id"))
	add(ToReply, on(tg("mc.personal_templates.delete"), r, Removed, "template_id", nil, nil,
		src(r, "template_id removed from the success reply of deleting a personal template")))

	// 5.1.0.4.0
	r = release.R5_1_0_4_0
	add(Both, on(join(tg("vc.confs.hdus.get"), tg("vc.confs.hdus.create")), r, Retyped, "poll.mode", "string", nil,
		src(r, "the TV-wall poll object's mode string to integer")))
	add(ToRequest, added(confCreate, r, src(r, "one_reforming added on conference creation"), "one_reforming"))
	add(ToReply, added(tg("mc.personal_templates.invite_members.list", "invite_members[]."), r,
		src(r, "invite_members gains protocol in the template participants"), "protocol"))

	// 5.2.0.2.0
	r = release.R5_2_0_2_0
	add(ToRequest, added(tg("vc.confs.mts.add", "mts[]."), r, src(r, "call_mode parameter added to batch add local terminals"), "call_mode"))
	add(Both, added(vmpsAll, r, src(r, "VMP members gain the poll object (single-channel poll) and the batch-poll object poll"), "members[].poll", "poll"))
	add(Both, added(join(tg("vc.confs.playback.start"), tg("vc.confs.playback.start_put")), r, src(r, "vrs_id added to starting playback"), "vrs_id"))
	for _, v := range []int{61, 62, 63} {
		add(ToRequest, on(join(tg("vc.confs.mtvmps.create"), tg("vc.confs.mtvmps.update"), tg("vc.confs.hduvmps.create"), tg("vc.confs.hduvmps.update")),
			r, ValueAdded, "layout", nil, v, src(r, "layouts 61 to 63 added to terminal and TV-wall self composition")))
	}
	add(ToReply, added(join(tg("mc.personal_templates.list", "personal_templates[]."), tg("mc.public_templates.list", "public_templates[]."),
		tg("mc.booked_confs.list", "booked_confs[].")), r, src(r, "encrypted_auth added to the template and scheduled conference lists"), "encrypted_auth"))
	add(ToReply, added(join(bookedGet, simple), r, src(r, "scheduled conference and simple template detail gain encrypted_auth, fec_mode, mute_filter, doubleflow"),
		"encrypted_auth", "fec_mode", "mute_filter", "doubleflow"))
	add(Both, added(join(personal, confCreate), r, src(r, "vmp members gain the poll object"), "vmp.members[].poll"))
	add(Both, added(join(personal, confCreate), r, src(r, "recorder gains dual_stream and vrs_id"), "recorder.dual_stream", "recorder.vrs_id"))
	add(ToReply, added(tplVMP, r, src(r, "template VMP info gains mt_name_style, the members' poll object and the batch-poll object"),
		"vmp.mt_name_style", "vmp.members[].poll", "vmp.poll"))
	add(ToReply, added(join(tg("nms.platform_domains.physicals.list", "physicals[]."), tg("nms.physicals.logicals.list", "logicals[]."),
		tg("nms.platform_domains.logicals.list", "logicals[].")), r, src(r, "machine_room_moid added to the server lists"), "machine_room_moid"))
	add(ToReply, added(tg("nms.physicals.detail.get"), r, src(r, "physical server detail gains machine_room_moid, machine_room_name, domain_name"),
		"machine_room_moid", "machine_room_name", "domain_name"))
	add(ToReply, added(tg("nms.servers.unrepaired_warnings.list", "unrepaired_warnings[]."), r,
		src(r, "unrepaired server alarms gain machine_room_moid and machine_room_name"), "machine_room_moid", "machine_room_name"))
	add(ToRequest, added(tg("vrs.program_folder.list"), r, src(r, "folder list parameters prgtypemask, remoteprgtypemask, localvrs, prgencmask, prgauthmask added"),
		"prgtypemask", "remoteprgtypemask", "localvrs", "prgencmask", "prgauthmask"))
	add(ToReply, added(tg("vrs.program_folder.list", "folderinfo[]."), r, src(r, "folder list reply gains userdomainmoid"), "userdomainmoid"))
	add(ToRequest, added(tg("vrs.program.list"), r, src(r, "program list parameters remoteprgtypemask, localvrs, prgencmask, prgauthmask added"),
		"remoteprgtypemask", "localvrs", "prgencmask", "prgauthmask"))
	add(ToReply, added(tg("vrs.program.list", "prginfo[]."), r, src(r, "program list reply gains prgskid, vrsmoid, userdomainmoid"),
		"prgskid", "vrsmoid", "userdomainmoid"))
	add(ToRequest, added(tg("vrs.liveroom.list"), r, src(r, "live-room list parameter livetype added"), "livetype"))
	add(ToReply, added(tg("vrs.liveroom.list", "roomstate[]."), r, src(r, "live-room list reply gains roomidstr, encmode, authmode"),
		"roomidstr", "encmode", "authmode"))
	add(ToReply, added(tg("vrs.resroom.list", "liveinfo[]."), r, src(r, "reserved live-room list reply gains encmode"), "encmode"))
	add(ToReply, added(tg("vrs.recroom.list", "roomstate[]."), r, src(r, "recording-room list reply gains roompwd, encmode, authmode"),
		"roomcfg.roompwd", "encmode", "authmode"))
	add(ToRequest, added(join(tg("vrs.recroom.create"), tg("vrs.recroom.update"), tg("vrs.playroom.create"), tg("vrs.playroom.update")), r,
		src(r, "roompwd (E164 registration password) added to adding and modifying rooms"), "room.roompwd"))
	add(ToReply, added(tg("vrs.playroom.list", "roomstate[]."), r, src(r, "playback-room list reply gains streamjsonpath, roompwd, encmode, authmode"),
		"roomcfg.streamjsonpath", "roomcfg.roompwd", "encmode", "authmode"))

	// 5.2.0.4.0
	r = release.R5_2_0_4_0
	add(ToReply, added(simple, r, src(r, "e164 added to simple template detail"), "e164"))
	for _, v := range []int{2, 3} {
		add(ToRequest, on(confCreate, r, ValueAdded, "create_type", nil, v, src(r, "create_type gains 2 (public template) and 3 (personal template)")))
	}

	// 6.0.0.3.0
	r = release.R6_0_0_3_0
	add(ToReply, added(tg("vc.confs.mts.get", "v_snd_chn[].", "v_rcv_chn[].", "dv_snd_chn[].", "dv_rcv_chn[].", "a_snd_chn[].", "a_rcv_chn[]."), r,
		src(r, "chn_label added to the terminal's channels"), "chn_label"))
	add(Both, added(join(tg("vc.confs.chairman_poll.get"), tg("vc.confs.upload_poll.start"), tg("vc.confs.upload_poll.start_put"),
		tg("vc.confs.chairman_poll.start"), tg("vc.confs.chairman_poll.start_put")), r, src(r, "poll_index added to polls"), "poll_index"))
	add(Both, added(vmpsAll, r, src(r, "poll_index added to the VMP members' poll"), "members[].poll.poll_index"))
	add(Both, added(join(tg("vc.confs.hdus.get"), tg("vc.confs.hdus.create")), r, src(r, "poll_index added to the TV-wall poll"), "poll.poll_index"))
	add(Both, added(join(tg("vc.confs.poll.get"), tg("vc.confs.upload_poll.get"), tg("vc.confs.chairman_poll.get"), tg("vc.confs.mixs.get"),
		tg("vc.confs.hduvmps.get"), tg("vc.confs.vmps.get"), tg("vc.confs.mtvmps.get")), r, src(r, "members gain account"), "members[].account"))
	add(ToReply, added(tg("vc.confs.hdus.get"), r, src(r, "TV-wall members gain account"), "poll.members[].account", "spilt.members[].account"))
	add(Both, added(join(vmpsAll, tg("vc.confs.mtvmps.create"), tg("vc.confs.mtvmps.update"), tg("vc.confs.mtvmps.get"),
		tg("vc.confs.hduvmps.create"), tg("vc.confs.hduvmps.update")), r, src(r, "members gain mt_chn_idx"), "members[].mt_chn_idx"))
	add(Both, added(join(tg("vc.confs.hdus.get"), tg("vc.confs.hdus.create")), r, src(r, "specific gains mt_chn_idx"), "specific.mt_chn_idx"))
	add(ToReply, added(tg("vc.confs.recorders.list", "recorders[]."), r, src(r, "watermark added to the recording list"), "watermark"))
	add(Both, added(join(tg("vc.confs.monitors.list", "monitors[]."), tg("vc.confs.monitors.get"), tg("vc.confs.monitors.create")), r,
		src(r, "src gains mt_chn_idx"), "src.mt_chn_idx"))
	add(Both, added(room, r, src(r, "audio_formats added to virtual meeting rooms"), "audio_formats"))

	return rs
}
