package sessions

// The parts of the session that depend most on the release: templates,
// virtual meeting rooms, and the operations each release adds.

// templates creates, reads, lists and deletes a personal template in the
// client's shapes: old names and old values (4K resolution 19, H.265
// format 7) before 5.1.0.1.0, fields by the release that added them.
func (s *session) templates() {
	p := s.confParams("template-a", true, nil)
	for _, k := range []string{"cascade_return_para", "call_times"} {
		p[k] = 0
	}
	format, resolution := 6, 16
	if !s.at(r5_1_0_1) {
		format, resolution = 7, 19
	}
	p["video_formats"] = []any{map[string]any{"format": format, "resolution": resolution, "frame": 30, "bitrate": 2048}}
	if s.at(r5_1_0_4) {
		p["one_reforming"] = 0
	}
	if s.at(r5_2_0_4) {
		p["bind_e164"] = 0
	}
	id, _ := s.call("template", "POST", "/api/v1/mc/personal_templates", p, has("template_id:s"))["template_id"].(string)
	path := "/api/v1/mc/personal_templates/" + id
	names := []check{equals("name", "template-a"), equals("video_formats.format", format), equals("video_formats.resolution", resolution),
		s.before(r5_1_0_1, "voice_inspire_enable:i", "preoccpuy_resouce:i"), s.since(r5_1_0_1, "voice_activity_detection:i", "preoccupy_resource:i"),
		s.since(r5_1_0_4, "one_reforming:i"), s.since(r5_2_0_2, "call_mode:i"), s.since(r5_2_0_4, "e164"), s.since(r6_1_0_4, "enable_rtc:i")}
	s.call("template?", "GET", path, nil, names...)
	s.call("templates", "GET", "/api/v1/mc/personal_templates", nil, has("personal_templates.template_id:s", "personal_templates.name:s"),
		s.since(r5_2_0_4, "personal_templates.e164"))
	s.call("template simple?", "GET", path+"/simple", nil, equals("name", "template-a"), s.since(r5_1_0_2, "call_mode:i"))
	s.call("template off", "DELETE", path, nil, s.before(r5_1_0_2, "template_id"))
}

// room creates a virtual meeting room with only its required fields
// (5.2.0.2.0 on), holds a conference from it and adds a terminal: with no
// call_mode anywhere, the terminal is called at once (issue 21 item 2).
func (s *session) room() {
	if !s.at(r5_2_0_2) {
		s.fail(90505, "room (too new)", "GET", "/api/v1/mc/virtual_meeting_rooms", nil)
		return
	}
	id, _ := s.call("room", "POST", "/api/v1/mc/virtual_meeting_rooms", map[string]any{"name": "room-1", "max_join_mt": 8,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 3, "frame": 30, "bitrate": 1024}}}, has("id:s"))["id"].(string)
	conf, _ := s.call("conference of the room", "POST", "/api/v1/mc/confs", map[string]any{"create_type": 4, "template_id": id},
		has("conf_id:s"))["conf_id"].(string)
	path := "/api/v1/vc/confs/" + conf
	s.call("room info", "GET", path, nil, equals("bitrate", 1024), equals("call_interval", 20), equals("call_mode", 2), equals("meeting_room_name", "room-1"))
	s.call("terminal of the room", "POST", path+"/mts", map[string]any{"mts": []any{mtEntry(terminals[3])}}, equals("error_code", 0))
	s.call("room terminals", "GET", path+"/mts", nil, count("mts", 1))
	s.call("room terminals", "GET", path+"/mts", nil, count("mts", 1))
	s.call("room terminal online", "GET", path+"/mts", nil, equals("mts.online", 1), equals("mts.e164", terminals[3]))
	s.call("room end", "DELETE", "/api/v1/mc/confs/"+conf, nil)
	s.call("room off", "DELETE", "/api/v1/mc/virtual_meeting_rooms/"+id, nil)
}

// controls uses the operations of each release: an operation the
// client's release lacks is refused as not supported (90505), one it has
// works.
func (s *session) controls(A, mt1, mt2 string) {
	// From the baseline.
	s.call("upload", "PUT", A+"/upload", map[string]any{"mt_id": mt1})
	s.call("upload?", "GET", A+"/upload", nil, equals("mt_id", mt1))
	s.call("inspect", "POST", A+"/inspections", map[string]any{"mode": 1, "src": map[string]any{"type": 1, "mt_id": mt1}, "dst": map[string]any{"mt_id": mt2}})
	s.call("inspections", "GET", A+"/inspections", nil, count("inspections", 1))
	s.call("domains", "GET", "/api/v1/nms/domains", nil, has("domains.moid:s", "domains.name:s"))

	// 5.1.0.2.0: forced broadcast, VIP list.
	if s.at(r5_1_0_2) {
		s.call("forced broadcast", "PUT", A+"/forcebroadcast", map[string]any{"force_broadcast": 1})
		s.call("info A", "GET", A, nil, equals("force_broadcast", 1))
		s.call("forced broadcast off", "PUT", A+"/forcebroadcast", map[string]any{"force_broadcast": 0})
		s.call("VIPs", "PUT", A+"/viplist", map[string]any{"mts": mts(mt1)["mts"]})
		s.call("VIPs?", "GET", A+"/viplist", nil, count("mts", 1), equals("mts.mt_id", mt1))
	} else {
		s.fail(90505, "forced broadcast (too new)", "PUT", A+"/forcebroadcast", map[string]any{"force_broadcast": 1})
		s.fail(90505, "VIPs (too new)", "GET", A+"/viplist", nil)
	}

	// 5.2.0.2.0: terminal call mode, video sources, renaming, upload poll.
	if s.at(r5_2_0_2) {
		s.call("call mode", "PUT", A+"/mts/"+mt2+"/call_mode", map[string]any{"value": 3})
		s.call("terminal info", "GET", A+"/mts/"+mt2, nil, equals("call_mode", 3))
		s.call("videos?", "GET", A+"/mts/"+mt1+"/videos", nil, has("cur_video_idx:i", "mt_videos:a"))
		s.call("rename", "POST", A+"/name", map[string]any{"value": "session-a2"})
		s.call("info A", "GET", A, nil, equals("name", "session-a2"))
		s.call("upload poll", "POST", A+"/upload_poll", map[string]any{"num": 0, "keep_time": 10, "members": mts(mt1, mt2)["mts"]})
		s.call("upload poll?", "GET", A+"/upload_poll", nil, equals("keep_time", 10), count("members", 2), s.since(r6_0_0_3, "poll_index:i"))
		s.call("upload poll stop", "PUT", A+"/upload_poll/state", map[string]any{"value": 0})
	} else {
		s.fail(90505, "call mode (too new)", "PUT", A+"/mts/"+mt2+"/call_mode", map[string]any{"value": 2})
		s.fail(90505, "rename (too new)", "POST", A+"/name", map[string]any{"value": "session-a2"})
	}

	// 5.2.0.4.0: chairman poll.
	if s.at(r5_2_0_4) {
		s.call("chairman poll", "POST", A+"/chairman_poll", map[string]any{"mode": 10, "num": 0, "keep_time": 10, "members": mts(mt1, mt2)["mts"]})
		s.call("chairman poll?", "GET", A+"/chairman_poll", nil, equals("mode", 10), count("members", 2))
		s.call("chairman poll stop", "PUT", A+"/chairman_poll/state", map[string]any{"value": 0, "mode": 10})
	} else {
		s.fail(90505, "chairman poll (too new)", "GET", A+"/chairman_poll", nil)
	}

	// 6.0.0.3.0: version queries, single-channel inspection.
	if s.at(r6_0_0_3) {
		s.call("mc version", "GET", "/api/mc/version", nil, has("version:s", "api_level:i"))
		s.call("channel inspection", "POST", A+"/inspection_channels", map[string]any{"mode": 1,
			"src": map[string]any{"type": 1, "mt_id": mt2, "mt_chn_idx": 0}, "dst": map[string]any{"mt_id": mt1, "mt_chn_idx": 0}})
		s.call("channel inspections", "GET", A+"/inspection_channels", nil, has("inspections:a"))
	} else {
		s.fail(90505, "mc version (too new)", "GET", "/api/mc/version", nil)
	}

	// 6.1.0.2.0: forced speaker, forced mute.
	if s.at(r6_1_0_2) {
		s.call("forced speaker", "PUT", A+"/speaker", map[string]any{"mt_id": mt1, "force_broadcast": 1})
		s.call("forced mute", "PUT", A+"/mute", map[string]any{"value": 1, "force_mute": 1})
		s.call("info A", "GET", A, nil, equals("force_mute", 1))
		s.call("unmute", "PUT", A+"/mute", map[string]any{"value": 0, "force_mute": 0})
	}

	// 6.1.0.4.0: dual-stream mode.
	if s.at(r6_1_0_4) {
		s.call("dual mode", "PUT", A+"/dualmode", map[string]any{"dual_mode": 0})
		s.call("info A", "GET", A, nil, equals("dual_mode", 0))
	} else {
		s.fail(90505, "dual mode (too new)", "PUT", A+"/dualmode", map[string]any{"dual_mode": 0})
	}
}
