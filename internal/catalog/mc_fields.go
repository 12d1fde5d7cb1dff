package catalog

import "strings"

// Shared sub-schemas of the conference-management (mc) module: templates,
// virtual meeting rooms, scheduled conferences and conference creation use
// the same conference settings (reference 04; seed 001 "Field names by
// resource" and "Versioning" for the fields of newer releases).

// Closed value sets of mc fields.
var (
	mcFlag = []int{0, 1}
	// Every release's values: 3 is refused from 5.1.0.1.0 on, 8 before
	// 5.1.0.4.0, by the compatibility rules (seed 001).
	mcAccountTypes = []int{1, 3, 4, 5, 6, 7, 8}
	mcResolutions  = []int{1, 2, 3, 12, 13, 14, 15, 16}
	mcMaxJoinMts   = []int{8, 32, 64, 192}
	mcMemberTypes  = []int{1, 2, 3, 4, 6, 7}
	// mcLayouts are the picture-composition layouts (reference A2; 61-63
	// from 5.2.0.2.0).
	mcLayouts = []int{1, 2, 3, 61, 62, 63, 23, 4, 5, 35, 6, 13, 7, 8, 18, 38, 39, 19, 17, 20, 11, 46, 48, 51, 14, 54, 56, 59, 27}
)

// mcParams builds request parameters from names of mcFieldDefs. A trailing
// "*" marks a required parameter; "name:variant" selects a variant of a
// field whose wire name is name.
func mcParams(names ...string) []Param {
	ps := make([]Param, 0, len(names))
	for _, n := range names {
		req := strings.HasSuffix(n, "*")
		n = strings.TrimSuffix(n, "*")
		p, ok := mcFieldDefs[n]
		if !ok {
			panic("catalog: unknown mc field " + n)
		}
		if i := strings.IndexByte(n, ':'); i >= 0 {
			n = n[:i]
		}
		p.Name = n
		p.Required = req
		ps = append(ps, p)
	}
	return ps
}

// mcReply builds reply fields from names of mcFieldDefs; nothing in a reply
// is required.
func mcReply(names ...string) []Param {
	return mcOptional(mcParams(names...))
}

// mcOptional returns a deep copy of ps with every Required cleared.
func mcOptional(ps []Param) []Param {
	if ps == nil {
		return nil
	}
	out := make([]Param, len(ps))
	for i, p := range ps {
		p.Required = false
		p.Fields = mcOptional(p.Fields)
		out[i] = p
	}
	return out
}

// mcNote appends note to the Doc of the named top-level parameters.
func mcNote(ps []Param, note string, names ...string) []Param {
	for i := range ps {
		for _, n := range names {
			if ps[i].Name == n {
				ps[i].Doc += " (" + note + ")"
			}
		}
	}
	return ps
}

// mcMemberFields are name, account and account_type of a member.
func mcMemberFields(req bool) []Param {
	return []Param{
		{Name: "name", Kind: String, Required: req, Doc: "member name, max 128 bytes"},
		{Name: "account", Kind: String, Required: req, Doc: "account (moid, e164, IP, ...), max 128 bytes"},
		mcAccountType(req),
	}
}

func mcAccountType(req bool) Param {
	return Param{Name: "account_type", Kind: Int, Required: req, Enum: mcAccountTypes,
		Doc: "account type: 1 moid, 3 any account (before 5.1.0.1.0), 4 non-system e-mail, 5 e164, 6 telephone, 7 IP address, 8 alias@ip (monitoring front end, from 5.1.0.4.0)"}
}

// mcPollFields are the members of a poll object (conference poll, or the
// single-channel poll of a picture-composition member).
func mcPollFields() []Param {
	return []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 3}, Doc: "poll mode: 1 video, 3 audio and video"},
		{Name: "num", Kind: Int, Required: true, Doc: "number of poll rounds, 0 unlimited"},
		{Name: "keep_time", Kind: Int, Required: true, Doc: "poll interval (s)"},
		{Name: "members", Kind: Array, Elem: Object, Required: true, Fields: mcMemberFields(true), Doc: "poll members"},
	}
}

// mcVmpFields are the members of the vmp (picture composition) object.
func mcVmpFields() []Param {
	member := append(mcOptional(mcMemberFields(true)),
		Param{Name: "member_type", Kind: Int, Required: true, Enum: mcMemberTypes,
			Doc: "follow type: 1 chosen by conference control, 2 speaker, 3 chairman, 4 conference poll, 6 single-channel poll (from 5.2.0.2.0), 7 content sharing"},
		Param{Name: "chn_idx", Kind: Int, Required: true, Doc: "position in the composition"},
		Param{Name: "poll", Kind: Object, Fields: mcPollFields(), Doc: "single-channel poll settings (member_type 6; from 5.2.0.2.0)"},
	)
	member[0].Doc += "; needed only when member_type is 1"
	member[1].Doc += "; needed only when member_type is 1"
	return []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 2, 3, 4},
			Doc: "composition mode: 1 custom, 2 automatic; 3 automatic with batch poll, 4 custom with batch poll (from 5.2.0.2.0)"},
		{Name: "layout", Kind: Int, Required: true, Enum: mcLayouts, Doc: "layout style (61-63 from 5.2.0.2.0)"},
		{Name: "voice_hint", Kind: Int, Required: true, Enum: mcFlag, Doc: "identify the sound source: 0 no, 1 yes"},
		{Name: "broadcast", Kind: Int, Required: true, Enum: mcFlag, Doc: "broadcast to terminals: 0 no, 1 yes"},
		{Name: "show_mt_name", Kind: Int, Required: true, Enum: mcFlag, Doc: "show terminal names: 0 no, 1 yes"},
		{Name: "mt_name_style", Kind: Object, Doc: "station-logo style (from 5.2.0.2.0)", Fields: []Param{
			{Name: "font_size", Kind: Int, Enum: []int{0, 1, 2}, Doc: "font size: 0 small, 1 medium, 2 large; default 1"},
			{Name: "font_color", Kind: String, Doc: "font colour #RGB in hex, default #FFFFFF"},
			{Name: "position", Kind: Int, Enum: []int{0, 1, 2, 3, 4}, Doc: "position: 0 top left, 1 bottom left, 2 top right, 3 bottom right, 4 bottom centre; default 1"},
		}},
		{Name: "members", Kind: Array, Elem: Object, Required: true, Fields: member, Doc: "composition members"},
		{Name: "poll", Kind: Object, Fields: mcPollFields(), Doc: "batch-poll settings for modes 3 and 4 (from 5.2.0.2.0)"},
	}
}

func mcRecorderFields() []Param {
	return []Param{
		{Name: "publish_mode", Kind: Int, Required: true, Enum: mcFlag, Doc: "publish (video on demand): 0 no, 1 yes"},
		{Name: "dual_stream", Kind: Int, Required: true, Enum: mcFlag, Doc: "record content sharing: 0 no, 1 yes"},
		{Name: "anonymous", Kind: Int, Required: true, Enum: mcFlag, Doc: "live viewing without login: 0 no, 1 yes"},
		{Name: "recorder_mode", Kind: Int, Required: true, Enum: []int{0, 1, 2, 3}, Doc: "0 off, 1 record, 2 live, 3 record and live"},
		{Name: "vrs_id", Kind: String, Doc: "moid of the VRS"},
	}
}

func mcFileFields() []Param {
	return []Param{
		{Name: "file_id", Kind: String, Doc: "file id"},
		{Name: "meeting_id", Kind: String, Doc: "meeting id"},
		{Name: "file_name", Kind: String, Doc: "file name"},
		{Name: "file_type", Kind: String, Doc: "file type (txt, doc, docx, xls, xlsx, ppt, pptx, pdf, rar, zip, jpg, png, bmp)"},
		{Name: "extension_name", Kind: String, Doc: "file extension"},
		{Name: "file_url", Kind: String, Doc: "relative path of the file"},
		{Name: "file_size", Kind: String, Doc: "file size in MB"},
		{Name: "creator_moid", Kind: String, Doc: "moid of the uploader"},
		{Name: "creator_name", Kind: String, Doc: "name of the uploader"},
		{Name: "create_time", Kind: String, Doc: "upload time"},
	}
}

// mcFieldDefs are the mc fields by name; Name and Required are set by
// mcParams. Nested Required flags apply when the enclosing object is present.
var mcFieldDefs = map[string]Param{
	// Paging and filters.
	"start":          {Kind: Int, Doc: "first row, 0-based; default 0"},
	"count":          {Kind: Int, Doc: "number of rows from start; default 10, 0 for all"},
	"order":          {Kind: Int, Enum: mcFlag, Doc: "sort order: 0 ascending (default), 1 descending"},
	"order:reserved": {Kind: Int, Doc: "reserved"},
	"order:booked":   {Kind: Int, Doc: "sort by start time; default 0"},
	"start_time":     {Kind: String, Doc: "start time, ISO 8601; default now"},
	"end_time":       {Kind: String, Doc: "end time, ISO 8601; default unlimited"},
	"total":          {Kind: Int, Doc: "total number of items"},
	"description":    {Kind: String, Doc: "result message"},

	// Identification.
	"template_id":   {Kind: String, Doc: "template id"},
	"name":          {Kind: String, Doc: "name, max 64 bytes; no % & * ^ ~ ' \" ? / \\ < > | ` $, and no _ - . @ as first or last character"},
	"e164":          {Kind: String, Doc: "pre-allocated conference number"},
	"e164:vmr":      {Kind: String, Doc: "virtual meeting room number"},
	"bind_e164":     {Kind: Int, Enum: mcFlag, Doc: "pre-allocate a conference number: 0 off, 1 on (from 5.2.0.4.0)"},
	"conf_id":       {Kind: String, Doc: "conference number, max 48 bytes"},
	"meeting_id":    {Kind: String, Doc: "unique id of the video conference"},
	"id":            {Kind: String, Doc: "virtual meeting room id"},
	"conf_name":     {Kind: String, Doc: "subject of the conference held in the room; empty when idle"},
	"platform_id":   {Kind: String, Doc: "moid of the platform to create on; default by the user's rights"},
	"create_type":   {Kind: Int, Enum: []int{1, 2, 3, 4}, Doc: "creation type: 1 instant conference (default), 2 public template, 3 personal template, 4 virtual meeting room"},
	"template_id:c": {Kind: String, Doc: "template or virtual meeting room id; required when create_type is not 1"},

	// Conference settings.
	"bitrate":                  {Kind: Int, Doc: "conference bitrate (kbps)"},
	"closed_conf":              {Kind: Int, Enum: mcFlag, Doc: "do not disturb: 0 off, 1 on"},
	"safe_conf":                {Kind: Int, Enum: mcFlag, Doc: "conference security: 0 public, 1 hidden"},
	"password":                 {Kind: String, Doc: "conference password: letters, digits, _ and . only; max 32 bytes in templates, 16 in conferences"},
	"encrypted_type":           {Kind: Int, Enum: []int{0, 2, 3, 4}, Doc: "transport encryption: 0 none, 2 AES, 3 SM4, 4 SM1"},
	"encrypted_auth":           {Kind: Int, Enum: mcFlag, Doc: "terminal two-way authentication: 0 off (default), 1 on"},
	"encrypted_key":            {Kind: String, Doc: "AES transport key: letters, digits, _ and . only"},
	"conf_type":                {Kind: Int, Doc: "conference type: 0 traditional, 1 port; 2 pure forwarding (SFU) from 6.1.0.2.0"},
	"conf_type:vmr":            {Kind: Int, Doc: "conference type: 0 traditional, 1 port media; 2 pure forwarding (SFU) from 6.1.0.2.0; 3 mixed in 6.1.0.2.0 only"},
	"conf_type:create":         {Kind: Int, Doc: "conference type: 0 traditional, 1 port; from 6.1.0.2.0 2 pure forwarding (SFU) and 4 automatic; 3 mixed in 6.1.0.2.0 only"},
	"call_mode":                {Kind: Int, Enum: []int{0, 2, 3}, Doc: "call mode: 0 manual, 2 automatic, 3 chase call (from 5.2.0.2.0)"},
	"call_times":               {Kind: Int, Doc: "number of call attempts"},
	"call_interval":            {Kind: Int, Doc: "call interval (s)"},
	"mute":                     {Kind: Int, Enum: mcFlag, Doc: "initial mute: 0 no, 1 yes"},
	"silence":                  {Kind: Int, Enum: mcFlag, Doc: "initial silence: 0 no, 1 yes"},
	"video_quality":            {Kind: Int, Enum: mcFlag, Doc: "video quality: 0 quality first, 1 speed first"},
	"one_reforming":            {Kind: Int, Enum: mcFlag, Doc: "one reforming: 0 off, 1 on"},
	"dual_mode":                {Kind: Int, Enum: mcFlag, Doc: "content-sharing right: 0 speaker, 1 any site"},
	"doubleflow":               {Kind: Int, Enum: mcFlag, Doc: "start content sharing right after becoming speaker: 0 no (default), 1 yes"},
	"voice_activity_detection": {Kind: Int, Enum: mcFlag, Doc: "voice activation: 0 off, 1 on"},
	"vacinterval":              {Kind: Int, Doc: "voice activation sensitivity (s), e.g. 5, 15, 30, 60"},
	"cascade_mode":             {Kind: Int, Enum: mcFlag, Doc: "cascade mode: 0 simple, 1 merged"},
	"cascade_upload":           {Kind: Int, Enum: mcFlag, Doc: "cascade upload: 0 no, 1 yes"},
	"cascade_return":           {Kind: Int, Enum: mcFlag, Doc: "cascade return: 0 no, 1 yes"},
	"cascade_return_para":      {Kind: Int, Doc: "cascade return bandwidth"},
	"public_conf":              {Kind: Int, Enum: mcFlag, Doc: "guest room: 0 no, 1 yes"},
	"public_conf:vmr":          {Kind: Int, Enum: mcFlag, Doc: "guest room: 0 no, 1 yes (from 6.1.0.4.0)"},
	"max_join_mt":              {Kind: Int, Enum: mcMaxJoinMts, Doc: "maximum joining terminals: 8, 32, 64 (32 and 64 from 5.2.0.2.0) or 192"},
	"auto_end":                 {Kind: Int, Enum: mcFlag, Doc: "end automatically when no terminal is left: 0 no, 1 yes"},
	"preoccupy_resource":       {Kind: Int, Doc: "pre-occupy resources: 0 no, 1 yes"},
	"fec_mode":                 {Kind: Int, Enum: mcFlag, Doc: "FEC: 0 off (default), 1 on"},
	"mute_filter":              {Kind: Int, Enum: mcFlag, Doc: "exempt speaker and chairman from whole-conference mute: 0 no (default), 1 yes"},
	"duration":                 {Kind: Int, Doc: "duration (min), 0 permanent; default 0"},
	"resolution":               {Kind: Int, Enum: mcResolutions, Doc: "resolution: 1 QCIF, 2 CIF, 3 4CIF, 12 720P, 13 1080P, 14 WCIF, 15 W4CIF, 16 4K"},
	"enable_rtc":               {Kind: Int, Enum: mcFlag, Doc: "admit RTC-protocol terminals: 0 no, 1 yes (from 6.1.0.4.0)"},
	"multi_stream":             {Kind: Int, Enum: mcFlag, Doc: "multi-stream: 0 off, 1 on (from 6.1.0.4.0)"},
	"conf_level":               {Kind: Int, Doc: "conference level 1-16, smaller is higher (from 6.1.0.4.0)"},
	"conf_level:create":        {Kind: Int, Doc: "conference level 1-16, smaller is higher; default 0 (removed in 5.1.0.4.0, again from 6.1.0.2.0)"},
	"force_mute":               {Kind: Int, Enum: mcFlag, Doc: "terminals may not unmute themselves under whole-conference mute: 0 no, 1 yes (from 6.1.0.2.0)"},
	"anonymous_mt":             {Kind: Int, Enum: mcFlag, Doc: "anonymous terminals may join: 0 no, 1 yes (from 6.1.0.2.0)"},
	"mt_supported_protocol":    {Kind: Any, Doc: "terminal protocols supported by the conference; type not shown by the sources (from 6.1.0.2.0)"},
	"exclusive":                {Kind: Int, Enum: mcFlag, Doc: "exclusive virtual meeting room: 0 no, 1 yes"},
	"status":                   {Kind: Int, Enum: mcFlag, Doc: "room state: 0 idle, 1 in use"},

	// Counters and states.
	"invited_mt_num": {Kind: Int, Doc: "number of invited terminals"},
	"invite_num":     {Kind: Int, Doc: "number of participants"},
	"mix_num":        {Kind: Int, Doc: "number of mixing members"},
	"vmp_num":        {Kind: Int, Doc: "number of composition members"},
	"vip_num":        {Kind: Int, Doc: "number of VIPs"},
	"poll_num":       {Kind: Int, Doc: "number of poll members"},
	"vmp_enable":     {Kind: Int, Enum: mcFlag, Doc: "picture composition running: 0 no, 1 yes"},
	"mix_enable":     {Kind: Int, Enum: mcFlag, Doc: "mixing running: 0 no, 1 yes"},
	"poll_enable":    {Kind: Int, Enum: mcFlag, Doc: "poll running: 0 no, 1 yes"},

	// Members.
	"speaker":  {Kind: Object, Fields: mcMemberFields(true), Doc: "speaker"},
	"chairman": {Kind: Object, Fields: mcMemberFields(true), Doc: "chairman (manager)"},
	"creator": {Kind: Object, Doc: "conference initiator", Fields: append(mcMemberFields(false),
		Param{Name: "telephone", Kind: String, Doc: "landline: area code 4, number 16, extension 10 characters"},
		Param{Name: "mobile", Kind: String, Doc: "mobile, max 15 bytes"},
	)},
	"invite_members": {Kind: Array, Elem: Object, Doc: "participants", Fields: append(mcMemberFields(true),
		Param{Name: "bitrate", Kind: Int, Doc: "call bitrate, at most the conference bitrate; default the conference bitrate (from 5.2.0.4.0)"},
		Param{Name: "protocol", Kind: Int, Required: true, Doc: "call protocol: 0 H.323, 1 SIP (from 5.1.0.4.0)"},
	)},
	"invite_members:list": {Kind: Array, Elem: Object, Doc: "participants", Fields: append(mcMemberFields(false),
		Param{Name: "protocol", Kind: Int, Doc: "call protocol: 0 H.323, 1 SIP"},
	)},
	"vips":                 {Kind: Array, Elem: Object, Fields: mcMemberFields(true), Doc: "VIP members"},
	"keep_calling_members": {Kind: Array, Elem: Object, Fields: mcMemberFields(true), Doc: "members called again until they join (from 5.2.0.2.0)"},
	"exclusive_users":      {Kind: Array, Elem: Object, Fields: mcMemberFields(true), Doc: "users of an exclusive room"},

	// Media.
	"video_formats": {Kind: Array, Elem: Object, Doc: "main video formats", Fields: []Param{
		{Name: "format", Kind: Int, Required: true, Doc: "format: 1 MPEG, 2 H.261, 3 H.263, 4 H.264 HP, 5 H.264 BP, 6 H.265 (was 7 before 5.1.0.1.0; H.263+ removed)"},
		{Name: "resolution", Kind: Int, Required: true, Enum: mcResolutions, Doc: "resolution: 1 QCIF, 2 CIF, 3 4CIF, 12 720P, 13 1080P, 14 WCIF, 15 W4CIF, 16 4K (was 19 before 5.1.0.1.0)"},
		{Name: "frame", Kind: Int, Required: true, Doc: "frame rate"},
		{Name: "bitrate", Kind: Int, Required: true, Doc: "bitrate (kbps)"},
	}},
	"audio_formats": {Kind: Array, Elem: Int, Doc: "audio formats, empty or absent for all: 1 G.722, 2 G.711 u-law, 3 G.711 A-law, 4 G.729, 5 G.728, 6 G.722.1.C, 7 MP3, 8 G.719, 9 AAC LC, 10 AAC LD, 11 AAC LC stereo, 12 AAC LD stereo, 13 OPUS"},

	// Mixing, composition, poll, recording, data collaboration.
	"mix": {Kind: Object, Doc: "mixing", Fields: []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{1, 2}, Doc: "mixing mode: 1 smart, 2 custom"},
		{Name: "members", Kind: Array, Elem: Object, Fields: mcMemberFields(true), Doc: "mixing members; needed for custom mixing"},
	}},
	"mix:smart": {Kind: Object, Doc: "mixing", Fields: []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{1}, Doc: "mixing mode: 1 smart"},
	}},
	"vmp": {Kind: Object, Fields: mcVmpFields(), Doc: "picture composition"},
	"vmp:auto": {Kind: Object, Doc: "picture composition", Fields: []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{2}, Doc: "composition mode: 2 automatic"},
	}},
	"poll":     {Kind: Object, Fields: mcPollFields(), Doc: "conference poll"},
	"recorder": {Kind: Object, Fields: mcRecorderFields(), Doc: "recording (from 5.1.0.4.0)"},
	"recorder:public": {Kind: Object, Doc: "recording", Fields: []Param{
		{Name: "recorder_mode", Kind: Int, Required: true, Enum: []int{0, 1, 2, 3}, Doc: "0 off, 1 record, 2 live, 3 record and live"},
		{Name: "vrs_id", Kind: String, Doc: "moid of the VRS"},
	}},
	"recorder:public_create": {Kind: Object, Doc: "recording", Fields: []Param{
		{Name: "recorder_mode", Kind: Int, Required: true, Enum: []int{0, 1, 2, 3}, Doc: "0 off, 1 record, 2 live, 3 record and live"},
		{Name: "vrs_id", Kind: String, Required: true, Doc: "moid of the VRS"},
	}},
	"dcs": {Kind: Object, Doc: "data collaboration", Fields: []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{0, 1, 2}, Doc: "0 off, 1 chairman controlled, 2 free collaboration"},
	}},
	// des is the data-collaboration object as the release history spells it
	// (seed 001; reference A1 5.1.0.4.0); the 6.0.0.3.0 reference spells it dcs.
	"des": {Kind: Object, Doc: "data collaboration as spelled in the release history (from 5.1.0.4.0); same content as dcs", Fields: []Param{
		{Name: "mode", Kind: Int, Required: true, Enum: []int{0, 1, 2}, Doc: "0 off, 1 chairman controlled, 2 free collaboration"},
	}},
}
