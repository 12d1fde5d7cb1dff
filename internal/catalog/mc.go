package catalog

import "github.com/confer-platform/confer/internal/release"

// Conference management (seed 001 "Conference management (mc)"; reference
// 04-mc-conference-management.md). Field schemas are in mc_fields.go.
var mcEndpoints = []Endpoint{
	// Personal templates.
	{
		Name: "mc.personal_templates.list", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates",
		Summary: "List personal templates", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: mcParams("count", "order", "start"),
		Reply: []Param{
			mcReply("total")[0],
			{Name: "personal_templates", Kind: Array, Elem: Object, Doc: "personal templates", Fields: mcReply(
				"template_id", "name", "bitrate", "closed_conf", "safe_conf", "encrypted_type", "encrypted_auth",
				"conf_type", "public_conf", "mute", "silence", "video_quality", "one_reforming", "encrypted_key",
				"dual_mode", "voice_activity_detection", "resolution", "max_join_mt", "e164", "enable_rtc", "conf_level")},
		},
	},
	{
		Name: "mc.personal_templates.get", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates/{id}",
		Summary: "Personal template detail", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: mcPersonalTemplateReply(),
	},
	{
		Name: "mc.personal_templates.create", Module: MC, Method: "POST", Path: "/api/v1/mc/personal_templates",
		Summary: "Create a personal template", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: mcPersonalTemplateParams(),
		Reply:  mcReply("template_id", "description"),
	},
	{
		Name: "mc.personal_templates.update", Module: MC, Method: "POST", Path: "/api/v1/mc/personal_templates/{id}",
		Summary: "Modify a personal template", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: mcPersonalTemplateParams(),
		Reply:  mcReply("template_id", "description"),
	},
	{
		Name: "mc.personal_templates.delete", Module: MC, Method: "DELETE", Path: "/api/v1/mc/personal_templates/{id}",
		Summary: "Delete a personal template", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: mcReply("description"),
	},
	{
		Name: "mc.personal_templates.simple.get", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates/{id}/simple",
		Summary: "Simple personal template detail", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: mcReply("template_id", "name", "bitrate", "duration", "e164", "closed_conf", "safe_conf", "password",
			"encrypted_type", "encrypted_auth", "conf_type", "call_mode", "call_times", "call_interval", "mute",
			"mute_filter", "fec_mode", "silence", "video_quality", "one_reforming", "encrypted_key", "dual_mode",
			"doubleflow", "voice_activity_detection", "cascade_mode", "cascade_upload", "cascade_return",
			"cascade_return_para", "public_conf", "max_join_mt", "invite_num", "mix_num", "vmp_num", "vip_num",
			"poll_num", "speaker", "chairman", "video_formats", "audio_formats", "enable_rtc", "conf_level"),
	},
	{
		Name: "mc.personal_templates.invite_members.list", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates/{id}/invite_members",
		Summary: "Participants of a personal template", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: mcParams("count", "order:reserved", "start"),
		Reply:  mcReply("template_id", "total", "invite_members:list"),
	},
	{
		Name: "mc.personal_templates.mix.get", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates/{id}/mix",
		Summary: "Mixing settings of a personal template", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: mcParams("count", "order:reserved", "start"),
		Reply:  mcReply("template_id", "total", "mix"),
	},
	{
		Name: "mc.personal_templates.vmp.get", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates/{id}/vmp",
		Summary: "Picture-composition settings of a personal template", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: mcParams("count", "order:reserved", "start"),
		Reply:  mcReply("template_id", "total", "vmp"),
	},
	{
		// The reference example spells the poll members "member"; its field
		// table and every other poll object say "members".
		Name: "mc.personal_templates.poll.get", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates/{id}/poll",
		Summary: "Poll settings of a personal template", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: mcParams("count", "order:reserved", "start"),
		Reply:  mcReply("template_id", "total", "poll"),
	},
	{
		Name: "mc.personal_templates.vip.get", Module: MC, Method: "GET", Path: "/api/v1/mc/personal_templates/{id}/vip",
		Summary: "VIP members of a personal template", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: mcParams("count", "order:reserved", "start"),
		Reply:  mcReply("template_id", "total", "vips"),
	},

	// Public templates (removed in 6.1.0.2.0, seed 001).
	{
		Name: "mc.public_templates.list", Module: MC, Method: "GET", Path: "/api/v1/mc/public_templates",
		Summary: "List public templates", MinLevel: 1, Since: release.Baseline, Removed: release.R6_1_0_2_0, Style: Query,
		Params: mcParams("count", "order", "start"),
		Reply: []Param{
			mcReply("total")[0],
			{Name: "public_templates", Kind: Array, Elem: Object, Doc: "public templates", Fields: mcReply(
				"template_id", "name", "bitrate", "closed_conf", "safe_conf", "encrypted_type", "encrypted_auth",
				"conf_type", "public_conf", "mute", "silence", "video_quality", "one_reforming", "encrypted_key",
				"dual_mode", "voice_activity_detection", "resolution", "max_join_mt")},
		},
	},
	{
		Name: "mc.public_templates.get", Module: MC, Method: "GET", Path: "/api/v1/mc/public_templates/{id}",
		Summary: "Public template detail", MinLevel: 1, Since: release.Baseline, Removed: release.R6_1_0_2_0, Style: Query,
		Reply: mcReply("template_id", "name", "bitrate", "closed_conf", "safe_conf", "encrypted_type", "encrypted_auth",
			"conf_type", "mute", "silence", "video_quality", "one_reforming", "encrypted_key", "dual_mode",
			"voice_activity_detection", "vacinterval", "cascade_mode", "cascade_upload", "cascade_return",
			"cascade_return_para", "public_conf", "max_join_mt", "auto_end", "preoccupy_resource", "call_mode",
			"call_times", "call_interval", "fec_mode", "mute_filter", "duration", "video_formats", "audio_formats",
			"dcs", "des", "mix:smart", "vmp:auto", "recorder:public"),
	},
	{
		Name: "mc.public_templates.create", Module: MC, Method: "POST", Path: "/api/v1/mc/public_templates",
		Summary: "Create a public template", MinLevel: 1, Since: release.Baseline, Removed: release.R6_1_0_2_0, Style: Params,
		Params: mcPublicTemplateParams("recorder:public_create"),
		Reply:  mcReply("template_id", "description"),
	},
	{
		Name: "mc.public_templates.update", Module: MC, Method: "POST", Path: "/api/v1/mc/public_templates/{id}",
		Summary: "Modify a public template", MinLevel: 1, Since: release.Baseline, Removed: release.R6_1_0_2_0, Style: Params,
		Params: mcPublicTemplateParams("recorder:public"),
		Reply:  mcReply("template_id", "description"),
	},
	{
		// template_id left the reply in 5.1.0.2.0 (seed 001).
		Name: "mc.public_templates.delete", Module: MC, Method: "DELETE", Path: "/api/v1/mc/public_templates/{id}",
		Summary: "Delete a public template", MinLevel: 1, Since: release.Baseline, Removed: release.R6_1_0_2_0, Style: Query,
		Reply: mcReply("description"),
	},

	// Scheduled conferences.
	{
		Name: "mc.booked_confs.list", Module: MC, Method: "GET", Path: "/api/v1/mc/booked_confs",
		Summary: "List scheduled conferences", MinLevel: 1, Since: release.Baseline, Style: Query,
		Params: mcParams("start", "count", "order:booked", "start_time", "end_time"),
		Reply: []Param{
			mcReply("total")[0],
			{Name: "booked_confs", Kind: Array, Elem: Object, Doc: "scheduled conferences", Fields: mcReply(
				"name", "conf_id", "meeting_id", "conf_type", "start_time", "end_time", "duration", "bitrate",
				"closed_conf", "safe_conf", "encrypted_type", "encrypted_auth", "password", "mute", "silence",
				"video_quality", "one_reforming", "encrypted_key", "dual_mode", "voice_activity_detection",
				"public_conf", "invited_mt_num", "max_join_mt", "creator")},
		},
	},
	{
		Name: "mc.booked_confs.get", Module: MC, Method: "GET", Path: "/api/v1/mc/booked_confs/{conf_id}",
		Summary: "Scheduled conference info", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: mcReply("name", "conf_id", "meeting_id", "conf_type", "start_time", "end_time", "duration", "bitrate",
			"closed_conf", "safe_conf", "password", "encrypted_type", "encrypted_auth", "encrypted_key", "call_times",
			"call_interval", "mute", "mute_filter", "fec_mode", "silence", "video_quality", "dual_mode", "doubleflow",
			"voice_activity_detection", "vacinterval", "cascade_mode", "cascade_upload", "cascade_return",
			"cascade_return_para", "public_conf", "vmp_enable", "mix_enable", "poll_enable", "invited_mt_num",
			"max_join_mt", "creator", "speaker", "chairman", "video_formats", "one_reforming", "auto_end",
			"preoccupy_resource"),
	},

	// Conferences.
	{
		Name: "mc.confs.create", Module: MC, Method: "POST", Path: "/api/v1/mc/confs",
		Aliases: []string{"/api/v1/mc/conf"}, // listed so in 5.1.0.4.0 (seed 001)
		Summary: "Create a conference", MinLevel: 1, Since: release.Baseline, Style: Params,
		Params: mcCreateConfParams(),
		Reply:  mcReply("conf_id", "meeting_id", "description"),
	},
	{
		// Not in seed 001's table nor among A1's additions: baseline.
		Name: "mc.confs.delete", Module: MC, Method: "DELETE", Path: "/api/v1/mc/confs/{conf_id}",
		Summary: "End a conference", MinLevel: 1, Since: release.Baseline, Style: Query,
		Reply: mcReply("description"),
	},

	// Virtual meeting rooms (from 5.2.0.2.0, seed 001).
	{
		Name: "mc.virtual_meeting_rooms.list", Module: MC, Method: "GET", Path: "/api/v1/mc/virtual_meeting_rooms",
		Summary: "List virtual meeting rooms", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
		Params: mcParams("count", "order", "start"),
		Reply: []Param{
			mcReply("total")[0],
			{Name: "virtual_meeting_rooms", Kind: Array, Elem: Object, Doc: "virtual meeting rooms", Fields: mcReply(
				"id", "name", "bitrate", "exclusive", "exclusive_users", "e164:vmr", "conf_name", "status",
				"max_join_mt", "resolution", "encrypted_key", "enable_rtc")},
		},
	},
	{
		Name: "mc.virtual_meeting_rooms.get", Module: MC, Method: "GET", Path: "/api/v1/mc/virtual_meeting_rooms/{id}",
		Summary: "Virtual meeting room detail", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
		Reply: mcReply("name", "e164:vmr", "bitrate", "video_formats", "audio_formats", "conf_name", "conf_type:vmr",
			"status", "max_join_mt", "cascade_mode", "cascade_upload", "cascade_return", "cascade_return_para", "mute",
			"mute_filter", "mix:smart", "vmp:auto", "recorder", "preoccupy_resource", "encrypted_type",
			"encrypted_auth", "encrypted_key", "dual_mode", "call_mode", "call_times", "call_interval",
			"voice_activity_detection", "vacinterval", "one_reforming", "fec_mode", "exclusive", "exclusive_users",
			"enable_rtc", "public_conf:vmr", "multi_stream"),
	},
	{
		Name: "mc.virtual_meeting_rooms.create", Module: MC, Method: "POST", Path: "/api/v1/mc/virtual_meeting_rooms",
		Summary: "Create a virtual meeting room", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Params,
		Params: mcVirtualRoomParams(false),
		Reply:  mcReply("id", "description"),
	},
	{
		Name: "mc.virtual_meeting_rooms.update", Module: MC, Method: "POST", Path: "/api/v1/mc/virtual_meeting_rooms/{id}",
		Summary: "Modify a virtual meeting room", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Params,
		Params: mcVirtualRoomParams(true),
		Reply:  mcReply("description"),
	},
	{
		Name: "mc.virtual_meeting_rooms.delete", Module: MC, Method: "DELETE", Path: "/api/v1/mc/virtual_meeting_rooms/{id}",
		Summary: "Delete a virtual meeting room", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
		Reply: mcReply("description"),
	},

	// Resources and platforms (from 5.2.0.2.0, seed 001).
	{
		Name: "mc.resources.list", Module: MC, Method: "GET", Path: "/api/v1/mc/resources",
		Summary: "Resource usage", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
		Reply: []Param{
			// The field table says int, the example sends the string "2".
			{Name: "resource_type", Kind: Int, Enum: []int{1, 2}, Doc: "1 limited by participants only, 2 by participants and resolution"},
			{Name: "resources", Kind: Array, Elem: Object, Doc: "resources", Fields: []Param{
				{Name: "name", Kind: String, Doc: "resource name, e.g. large conference, or 8-party 720P when resource_type is 2"},
				{Name: "resolution", Kind: Int, Doc: "main video resolution; only when resource_type is 2"},
				{Name: "max_join_mt", Kind: Int, Doc: "maximum joining terminals: 8, 32, 64 or 192"},
				{Name: "total", Kind: Int, Doc: "total resources"},
				{Name: "used", Kind: Int, Doc: "resources in use"},
			}},
		},
	},
	{
		Name: "mc.platforms.list", Module: MC, Method: "GET", Path: "/api/v1/mc/platforms",
		Summary: "Conference platforms usable by the user domain", MinLevel: 1, Since: release.R5_2_0_2_0, Style: Query,
		Reply: []Param{
			{Name: "platforms", Kind: Array, Elem: Object, Doc: "platforms", Fields: []Param{
				{Name: "name", Kind: String, Doc: "platform name"},
				{Name: "platform_id", Kind: String, Doc: "platform moid"},
				{Name: "type", Kind: Int, Doc: "1 private cloud, 2 public cloud"},
			}},
		},
	},

	// Meeting-room areas (from 5.2.0.4.0, seed 001; administrators only).
	{
		Name: "mc.meeting_room_areas.list", Module: MC, Method: "GET", Path: "/api/v1/mc/meeting_room_areas",
		Summary: "List meeting-room areas", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Query,
		Params: mcParams("count", "order:reserved", "start"),
		Reply: []Param{
			mcReply("total")[0],
			{Name: "meeting_room_areas", Kind: Array, Elem: Object, Doc: "meeting-room areas", Fields: mcAreaFields(false)},
		},
	},
	{
		Name: "mc.meeting_room_areas.create", Module: MC, Method: "POST", Path: "/api/v1/mc/meeting_room_areas",
		Summary: "Create a meeting-room area", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Params,
		Params: mcAreaFields(true)[1:],
		Reply:  []Param{mcAreaFields(false)[0], mcReply("description")[0]},
	},
	{
		Name: "mc.meeting_room_areas.update", Module: MC, Method: "POST", Path: "/api/v1/mc/meeting_room_areas/{id}",
		Summary: "Modify a meeting-room area", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Params,
		Params: mcAreaFields(true)[1:],
		Reply:  mcReply("description"),
	},
	{
		Name: "mc.meeting_room_areas.delete", Module: MC, Method: "DELETE", Path: "/api/v1/mc/meeting_room_areas/{id}",
		Summary: "Delete a meeting-room area", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Query,
		Reply: mcReply("description"),
	},

	// Meeting files (from 5.2.0.4.0, seed 001). Uploading and listing use
	// {meeting_id}, deleting {file_id}, at the same path position.
	{
		// multipart/form-data; one file of at most 20 MB per request, at
		// most 10 files per meeting.
		Name: "mc.meeting_files.upload", Module: MC, Method: "POST", Path: "/api/v1/mc/meeting_files/{meeting_id}",
		Summary: "Upload a meeting file", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Form,
		Params: []Param{{Name: "file", Kind: Any, Required: true, Doc: "the file, sent as multipart/form-data; max 20 MB, max 10 files per meeting"}},
		Reply: []Param{
			mcReply("description")[0],
			{Name: "meeting_file", Kind: Object, Fields: mcFileFields(), Doc: "the uploaded file"},
		},
	},
	{
		Name: "mc.meeting_files.delete", Module: MC, Method: "DELETE", Path: "/api/v1/mc/meeting_files/{file_id}",
		Summary: "Delete a meeting file", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Query,
		Reply: mcReply("description"),
	},
	{
		Name: "mc.meeting_files.list", Module: MC, Method: "GET", Path: "/api/v1/mc/meeting_files/{meeting_id}",
		Summary: "List the files of a meeting (kept 7 days)", MinLevel: 1, Since: release.R5_2_0_4_0, Style: Query,
		Reply: []Param{
			mcReply("total")[0],
			{Name: "meeting_files", Kind: Array, Elem: Object, Fields: mcFileFields(), Doc: "meeting files"},
		},
	},
}

// mcPersonalTemplateParams are the parameters of creating and modifying a
// personal template.
func mcPersonalTemplateParams() []Param {
	return mcParams("name*", "bitrate*", "closed_conf*", "safe_conf*", "password", "encrypted_type*",
		"encrypted_auth", "conf_type*", "call_mode*", "call_times*", "call_interval*", "mute*", "silence*",
		"video_quality*", "one_reforming*", "encrypted_key", "dual_mode*", "doubleflow",
		"voice_activity_detection*", "vacinterval", "cascade_mode*", "cascade_upload*", "cascade_return*",
		"cascade_return_para*", "public_conf*", "max_join_mt*", "auto_end*", "preoccupy_resource*", "fec_mode",
		"mute_filter", "duration", "bind_e164*", "speaker", "chairman", "mix", "video_formats*", "audio_formats",
		"invite_members", "vmp", "vips", "poll", "recorder", "keep_calling_members", "dcs", "des",
		"enable_rtc", "multi_stream", "conf_level")
}

// mcPersonalTemplateReply is the reply of the personal template detail.
func mcPersonalTemplateReply() []Param {
	return mcReply("template_id", "name", "bitrate", "closed_conf", "safe_conf", "password", "encrypted_type",
		"encrypted_auth", "conf_type", "call_mode", "call_times", "call_interval", "mute", "silence",
		"video_quality", "one_reforming", "encrypted_key", "dual_mode", "doubleflow", "voice_activity_detection",
		"vacinterval", "cascade_mode", "cascade_upload", "cascade_return", "cascade_return_para", "max_join_mt",
		"auto_end", "preoccupy_resource", "fec_mode", "mute_filter", "duration", "e164", "speaker", "chairman",
		"public_conf", "mix", "video_formats", "audio_formats", "invite_members", "vmp", "vips", "poll", "recorder",
		"keep_calling_members", "dcs", "des", "enable_rtc", "multi_stream", "conf_level")
}

// mcPublicTemplateParams are the parameters of creating (recorder
// "recorder:public_create") and modifying ("recorder:public") a public
// template. silence is starred in the reference but cannot be set and
// defaults to 0; password appears only in the example.
func mcPublicTemplateParams(recorder string) []Param {
	return mcParams("name*", "bitrate*", "closed_conf*", "safe_conf*", "password", "encrypted_type*",
		"encrypted_auth", "conf_type*", "mute*", "silence", "video_quality*", "one_reforming*", "encrypted_key*",
		"dual_mode*", "voice_activity_detection*", "vacinterval*", "cascade_mode*", "cascade_upload*",
		"cascade_return*", "cascade_return_para*", "public_conf*", "max_join_mt*", "auto_end*",
		"preoccupy_resource*", "call_mode*", "call_times*", "call_interval*", "fec_mode", "mute_filter",
		"duration", "video_formats*", "audio_formats", "dcs", "des", "mix:smart", "vmp:auto", recorder)
}

// mcCreateConfParams are the parameters of creating a conference. The
// reference stars most of them, but only for an instant conference
// (create_type 1); otherwise template_id alone is required. A flat check
// cannot express that, so none is Required here and the Doc says when it is.
func mcCreateConfParams() []Param {
	ps := mcParams("create_type", "template_id:c", "name", "duration", "bitrate", "closed_conf", "safe_conf",
		"password", "encrypted_type", "encrypted_auth", "conf_type:create", "call_mode", "call_times",
		"call_interval", "fec_mode", "mute_filter", "mute", "silence", "video_quality", "encrypted_key",
		"dual_mode", "doubleflow", "voice_activity_detection", "vacinterval", "cascade_mode", "cascade_upload",
		"cascade_return", "cascade_return_para", "public_conf", "max_join_mt", "auto_end", "preoccupy_resource",
		"one_reforming", "platform_id", "speaker", "chairman", "mix", "video_formats", "invite_members",
		"audio_formats", "keep_calling_members", "vmp", "vips", "poll", "recorder", "dcs", "des",
		"conf_level:create", "mt_supported_protocol", "force_mute", "anonymous_mt", "enable_rtc", "multi_stream")
	// Confer's extension (docs/conferences.md "Booked conferences"): a
	// future x_confer_start_time books the conference instead of starting
	// it. The platform's creation has no start_time (reference 04 "创建会
	// 议"; seed 001): a client that sends one has it ignored (issue 21).
	ps = append(ps, Param{Name: "x_confer_start_time", Kind: String, Extension: true,
		Doc: "Confer extension: start time (ISO 8601, or YYYY-MM-DD HH:MM:SS in the platform's zone); a future time books the conference (absent: start now)"})
	return mcNote(ps, "required when create_type is 1", "name", "duration", "bitrate", "closed_conf", "safe_conf",
		"encrypted_type", "conf_type", "call_mode", "call_times", "call_interval", "mute", "silence",
		"video_quality", "encrypted_key", "dual_mode", "voice_activity_detection", "cascade_mode",
		"cascade_upload", "cascade_return", "cascade_return_para", "public_conf", "max_join_mt", "auto_end",
		"preoccupy_resource", "one_reforming", "video_formats")
}

// mcVirtualRoomParams are the parameters of creating and (with status)
// modifying a virtual meeting room; unset optional values default to 0.
func mcVirtualRoomParams(modify bool) []Param {
	names := []string{"name*", "bitrate", "video_formats*", "audio_formats", "conf_type:vmr"}
	if modify {
		names = append(names, "status")
	}
	names = append(names, "max_join_mt*", "cascade_mode", "cascade_upload", "cascade_return",
		"cascade_return_para", "mute", "mute_filter", "mix:smart", "vmp:auto", "recorder", "preoccupy_resource",
		"encrypted_type", "encrypted_auth", "encrypted_key", "dual_mode", "call_mode", "call_times",
		"call_interval", "voice_activity_detection", "vacinterval", "one_reforming", "fec_mode", "exclusive",
		"exclusive_users", "enable_rtc", "public_conf:vmr", "multi_stream")
	return mcParams(names...)
}

// mcAreaFields are id and area of a meeting-room area.
func mcAreaFields(req bool) []Param {
	return []Param{
		{Name: "id", Kind: String, Doc: "area id"},
		{Name: "area", Kind: String, Required: req, Doc: "area name, max 60 characters"},
	}
}
