package sessions

import (
	"net/url"
	"strconv"

	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/testserver"
)

// Shorter names for the releases the script branches on.
const (
	r5_1_0_1 = release.R5_1_0_1_0
	r5_1_0_2 = release.R5_1_0_2_0
	r5_1_2_1 = release.R5_1_0_2_1
	r5_1_0_4 = release.R5_1_0_4_0
	r5_2_0_2 = release.R5_2_0_2_0
	r5_2_0_4 = release.R5_2_0_4_0
	r6_0_0_3 = release.R6_0_0_3_0
	r6_1_0_2 = release.R6_1_0_2_0
	r6_1_0_4 = release.R6_1_0_4_0
)

// login obtains a token and logs in (seed 000 "Authentication").
func (s *session) login() {
	b := s.call("token", "POST", "/api/v1/system/token", url.Values{
		"oauth_consumer_key": {testserver.LicenseKey}, "oauth_consumer_secret": {testserver.LicenseSecret}}, has("account_token:s"))
	s.c.Token, _ = b["account_token"].(string)
	s.c.Cookie = ""
	r := s.c.Do("POST", "/api/v1/system/login", url.Values{"username": {testserver.AdminUser}, "password": {testserver.AdminPassword}})
	s.calls++
	for _, ck := range r.HTTP.Cookies() {
		if ck.Name == "SSO_COOKIE_KEY" {
			s.c.Cookie = ck.Value
			// Seed 000 "Login response": earlier releases add an Expires date.
			if ck.Expires.IsZero() != s.at(r6_1_0_4) {
				s.fails = append(s.fails, "login: cookie Expires present = "+map[bool]string{true: "yes", false: "no"}[!ck.Expires.IsZero()])
			}
		}
	}
	for _, msg := range []string{has("username:s")(r.Body), s.since(r6_1_0_4, "userdomainname:s", "usermoid:s", "userdomainmoid:s")(r.Body)} {
		if msg != "" || !r.OK() {
			s.fails = append(s.fails, "login: "+msg+" "+r.Raw)
			break
		}
	}
}

// confParams is a conference creation in the client's shapes (reference
// 04 "创建会议"; seed 001: duration absent from 5.1.0.1.0 to 5.2.0.2.0,
// voice_inspire_enable and the misspelt preoccpuy_resouce before
// 5.1.0.1.0, call_mode from 5.2.0.2.0). full sends every field of the
// release; otherwise only the name (and the duration where it exists).
func (s *session) confParams(name string, full bool, extra map[string]any) map[string]any {
	p := map[string]any{"name": name}
	if !s.at(r5_1_0_1) || s.at(r5_2_0_2) {
		p["duration"] = 0
	}
	if full {
		for k, v := range map[string]any{"bitrate": 2048, "closed_conf": 0, "safe_conf": 0, "encrypted_type": 0, "conf_type": 0,
			"call_times": 0, "call_interval": 10, "mute": 0, "silence": 0, "video_quality": 0, "dual_mode": 1, "cascade_mode": 1,
			"cascade_upload": 1, "cascade_return": 0, "cascade_return_para": 0, "public_conf": 0, "max_join_mt": 192, "auto_end": 0,
			"video_formats": []any{map[string]any{"format": 4, "resolution": 3, "frame": 30, "bitrate": 2048}}} {
			p[k] = v
		}
		if s.at(r5_1_0_1) {
			p["voice_activity_detection"], p["vacinterval"], p["preoccupy_resource"] = 0, 5, 1
		} else {
			p["voice_inspire_enable"], p["preoccpuy_resouce"] = 0, 1
		}
		if s.at(r5_2_0_2) {
			p["call_mode"] = 2
		}
	}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

// mtEntry is a terminal of the add-terminals parameters (seed 000
// "Terminal entry").
func mtEntry(account string) map[string]any {
	return map[string]any{"account": account, "account_type": 5, "bitrate": 1024, "protocol": 0}
}

func mts(ids ...string) map[string]any {
	var l []any
	for _, id := range ids {
		l = append(l, map[string]any{"mt_id": id})
	}
	return map[string]any{"mts": l}
}

// mtID finds the mt_id of the terminal called by number (its e164, or
// its alias while it has not answered) in a terminal list reply.
func mtID(b map[string]any, number string) string {
	l, _ := b["mts"].([]any)
	for _, el := range l {
		if m, ok := el.(map[string]any); ok && (m["e164"] == number || m["alias"] == number) {
			id, _ := m["mt_id"].(string)
			return id
		}
	}
	return "none"
}

// integrator is one integrator's session: three conferences cascaded in
// three levels, terminals, roles, dual stream, mute and silence, voice
// activation, mixing, composition, poll, monitors, recording, messages,
// hang-up, drop, end.
func (s *session) integrator() {
	s.login()
	s.templates()
	s.room()
	if s.at(r6_0_0_3) {
		s.call("version", "GET", "/api/vc/version", nil, has("version:s", "api_level:i"))
	}
	created := []check{has("conf_id:s"), s.since(r6_0_0_3, "meeting_id:s")}
	a, _ := s.call("create A", "POST", "/api/v1/mc/confs", s.confParams("session-a", true, nil), created...)["conf_id"].(string)
	b, _ := s.call("create B", "POST", "/api/v1/mc/confs", s.confParams("session-b", false, map[string]any{"auto_end": 1}), created...)["conf_id"].(string)
	// C invites a terminal with the fields of the release (account_type 3,
	// any account, before 5.1.0.1.0; protocol from 5.1.0.4.0; seed 001):
	// it is called at once.
	invitee := map[string]any{"name": "hall", "account": terminals[3], "account_type": 5}
	if !s.at(r5_1_0_1) {
		invitee["account_type"] = 3
	}
	if s.at(r5_1_0_4) {
		invitee["protocol"] = 0
	}
	c, _ := s.call("create C", "POST", "/api/v1/mc/confs", s.confParams("session-c", false, map[string]any{"invite_members": []any{invitee}}),
		created...)["conf_id"].(string)
	vc := "/api/v1/vc/confs/"
	A, B := vc+a, vc+b

	s.call("list", "GET", "/api/v1/vc/confs", nil, count("confs", 3), has("confs.conf_id:s", "confs.name:s"),
		s.before(r5_1_0_1, "confs.voice_inspire_enable:i"), s.since(r5_1_0_1, "confs.voice_activity_detection:i"),
		s.since(r6_1_0_4, "confs.enable_rtc:i"), s.since(r6_0_0_3, "confs.encrypted_frequence:i"))
	preoccupy := "preoccupy_resource"
	if !s.at(r5_1_0_1) {
		preoccupy = "preoccpuy_resouce" // the misspelt name (reference A1 5.1.0.1.0)
	}
	s.call("info A", "GET", A, nil, equals("name", "session-a"), equals("bitrate", 2048), equals("call_interval", 10), equals(preoccupy, 1),
		s.before(r5_1_0_1, "voice_inspire_enable:i"), s.since(r5_1_0_1, "voice_activity_detection:i", "vacinterval:i"),
		s.before(r5_1_0_2, "call_chase:i"), s.since(r5_1_0_2, "call_mode:i", "conf_level:i", "force_broadcast:i"),
		s.since(r5_1_0_4, "one_reforming:i"), s.since(r5_2_0_2, "encrypted_auth:i", "mute_filter:i", "fec_mode:i", "doubleflow:i"),
		s.since(r5_2_0_4, "user_domain_moid:s", "user_domain_name:s", "superior_cascade:i", "subordinate_cascade:i", "meeting_id:s"),
		s.since(r6_0_0_3, "encrypted_frequence:i"), s.since(r6_1_0_2, "conf_category:i", "force_mute:i", "anonymous_mt:i"),
		s.since(r6_1_0_4, "enable_rtc:i"))
	// B was created with only the fields its release knows: the
	// platform's defaults (automatic calls 20 s apart, docs/compatibility.md).
	infoB := []check{equals("name", "session-b"), equals("call_interval", 20), equals("bitrate", 8128), has("call_times:i"), equals(preoccupy, 0)}
	if s.at(r5_1_0_2) {
		infoB = append(infoB, equals("call_mode", 2))
	}
	s.call("info B", "GET", B, nil, infoB...)

	// Cascade: A calls B, B calls C.
	added := []check{equals("error_code", 0), s.since(r5_1_0_2, "mts.mt_id:i")}
	s.call("cascade A-B", "POST", A+"/mts", map[string]any{"mts": []any{mtEntry(b)}}, added...)
	s.call("cascade B-C", "POST", B+"/mts", map[string]any{"mts": []any{mtEntry(c)}}, added...)
	// Debug mode validates only (seed 000 "Errors" 3): a missing bitrate
	// is reported under mts, and nothing is added.
	s.call("check terminals", "POST", A+"/mts?debug=1", map[string]any{"mts": []any{map[string]any{"account": terminals[0], "account_type": 5}}},
		has("debug_list.mts"))
	s.call("terminals of A", "POST", A+"/mts", map[string]any{"mts": []any{mtEntry(terminals[0]), mtEntry(terminals[1])}}, added...)
	s.call("info B", "GET", B, nil, equals("name", "session-b"))
	tree := s.call("cascades", "GET", A+"/cascades", nil, has("cascades.conf_id:s", "cascades.cascade_id:s", "cascades.cascades.conf_id:s"),
		equals("cascades.conf_id", b), equals("cascades.cascades.conf_id", c))
	bID := "none"
	if v, ok := lookup(tree, "cascades.cascade_id"); ok {
		bID, _ = v.(string)
	}
	s.call("terminal of B through A", "POST", A+"/cascades/"+bID+"/mts", map[string]any{"mts": []any{mtEntry(terminals[2])}},
		equals("error_code", 0))
	list := s.call("terminals", "GET", A+"/mts", nil, count("mts", 3), has("mts.mt_id:s", "mts.online:i", "mts.e164:s"),
		s.since(r6_1_0_2, "mts.account:s", "mts.account_type:i"))
	mt1, mt2 := mtID(list, terminals[0]), mtID(list, terminals[1])
	s.call("B's terminals", "GET", A+"/cascades/"+bID+"/mts", nil, has("mts.mt_id:s"))
	s.call("terminal info", "GET", A+"/mts/"+mt1, nil, equals("online", 1), has("v_snd_chn:a", "v_rcv_chn:a", "a_snd_chn:a", "a_rcv_chn:a"),
		s.since(r5_2_0_2, "v_snd_chn.bitrate:i", "v_snd_chn.cur_video_idx:i"), s.since(r6_0_0_3, "v_snd_chn.chn_label"),
		s.since(r6_1_0_2, "account:s", "account_type:i"))
	s.call("info A", "GET", A, nil, s.since(r5_2_0_4, "subordinate_cascade:i"))
	s.call("C's invitee", "GET", vc+c+"/mts", nil, has("mts.online:i"), equals("mts.e164", terminals[3]), equals("mts.online", 1))

	// Roles and dual stream.
	s.call("speaker", "PUT", A+"/speaker", map[string]any{"mt_id": mt1})
	s.call("speaker?", "GET", A+"/speaker", nil, equals("mt_id", mt1))
	s.call("chairman", "PUT", A+"/chairman", map[string]any{"mt_id": mt2})
	s.call("chairman?", "GET", A+"/chairman", nil, equals("mt_id", mt2))
	s.call("dual stream", "PUT", A+"/dualstream", map[string]any{"mt_id": mt1})
	s.call("dual stream?", "GET", A+"/dualstream", nil, equals("mt_id", mt1))
	s.call("dual stream off", "DELETE", A+"/dualstream", map[string]any{"mt_id": mt1})

	s.controls(A, mt1, mt2)

	// Mute and silence, conference-wide and per terminal.
	s.call("mute all", "PUT", A+"/mute", map[string]any{"value": 1})
	s.call("silence all", "PUT", A+"/silence", map[string]any{"value": 1})
	s.call("info A", "GET", A, nil, equals("mute", 1), equals("silence", 1))
	s.call("unmute all", "PUT", A+"/mute", map[string]any{"value": 0})
	s.call("unsilence all", "PUT", A+"/silence", map[string]any{"value": 0})
	s.call("mute one", "PUT", A+"/mts/"+mt2+"/mute", map[string]any{"value": 1})
	s.call("silence one", "PUT", A+"/mts/"+mt2+"/silence", map[string]any{"value": 1})
	s.call("terminal info", "GET", A+"/mts/"+mt2, nil, equals("mute", 1), equals("silence", 1))

	// Voice activation (seed 001 5.1.0.1.0: interval renamed vacinterval).
	vad := map[string]any{"state": 1, "vacinterval": 15}
	if !s.at(r5_1_0_1) {
		vad = map[string]any{"state": 1, "interval": 15}
	}
	s.call("vad", "PUT", A+"/vad", vad)
	if s.at(r5_1_0_2) { // GET /vad since 5.1.0.2.0
		s.call("vad?", "GET", A+"/vad", nil, equals("voice_activity_detection", 1), equals("vacinterval", 15))
	}
	if s.at(r5_1_0_1) {
		s.call("info A", "GET", A, nil, equals("voice_activity_detection", 1), equals("vacinterval", 15))
	} else {
		s.call("info A", "GET", A, nil, equals("voice_inspire_enable", 1))
	}

	// Mixing.
	s.call("mix", "POST", A+"/mixs", map[string]any{"mode": 1, "members": mts(mt1, mt2)["mts"]})
	s.call("mix?", "GET", A+"/mixs/1", nil, equals("mode", 1), count("members", 2), s.since(r6_0_0_3, "members.account"))
	s.call("mix off", "DELETE", A+"/mixs/1", nil)
	// A query of a feature that is not running: success with mode or
	// state 0 before 6.0.0.3.0, an error from it on (docs/compatibility.md).
	s.stopped(20812, "mix? (none)", A+"/mixs/1", equals("mode", 0), count("members", 0))

	// Composition (show_alias before 5.1.0.1.0; mode and voice_hint from it).
	vmp := map[string]any{"layout": 2, "broadcast": 1, "members": []any{
		map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": mt1}, map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": mt2}}}
	if s.at(r5_1_0_1) {
		vmp["mode"], vmp["voice_hint"], vmp["show_mt_name"] = 1, 0, 1
	} else {
		vmp["show_alias"] = 1
	}
	s.call("composition", "POST", A+"/vmps", vmp)
	s.call("composition?", "GET", A+"/vmps/1", nil, equals("layout", 2), count("members", 2),
		s.before(r5_1_0_1, "show_alias:i"), s.since(r5_1_0_1, "show_mt_name:i", "mode:i", "voice_hint:i"), s.since(r6_1_0_2, "except_self:i"))
	s.call("composition off", "DELETE", A+"/vmps/1", nil)
	s.stopped(20823, "composition? (none)", A+"/vmps/1", equals("mode", 0))
	// Member type 0, an empty channel, before 6.0.0.3.0 (whose reference
	// lists 1 to 7 for the conference composition).
	empty := map[string]any{"chn_idx": 1, "member_type": 0}
	vmp["members"] = []any{map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": mt1}, empty}
	if s.at(r6_0_0_3) {
		s.fail(90400, "composition with an empty channel (refused)", "POST", A+"/vmps", vmp)
	} else {
		s.call("composition with an empty channel", "POST", A+"/vmps", vmp)
		s.call("composition?", "GET", A+"/vmps/1", nil, count("members", 2), item("members", 1, "member_type", 0), item("members", 0, "mt_id", mt1))
		// The change takes it too: the empty channel moves to the front.
		vmp["members"] = []any{map[string]any{"chn_idx": 0, "member_type": 0}, map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": mt2}}
		if s.at(r5_2_0_2) { // required in a change from 5.2.0.2.0 (reference 05 "修改画面合成")
			vmp["mt_name_style"] = map[string]any{"font_size": 1, "font_color": "#FFFFFF", "position": 1}
		}
		s.call("composition change with an empty channel", "PUT", A+"/vmps/1", vmp)
		s.call("composition?", "GET", A+"/vmps/1", nil, count("members", 2), item("members", 0, "member_type", 0), item("members", 1, "mt_id", mt2))
		s.call("composition off", "DELETE", A+"/vmps/1", nil)
	}

	// A terminal's self composition (show_alias before 5.1.0.1.0,
	// voice_hint from it; reference A1 5.1.0.1.0).
	self := map[string]any{"mode": 1, "layout": 2, "mt_id": mt1, "members": []any{
		map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": mt1}, map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": mt2}}}
	// Member type 0 (空, an empty channel) in the self compositions at
	// every release (reference 05 "开启终端自主画面合成").
	selfEmpty := []any{map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": mt2}, map[string]any{"chn_idx": 1, "member_type": 0, "mt_id": ""}}
	if s.at(r5_1_0_1) {
		self["voice_hint"], self["show_mt_name"] = 0, 1
	} else {
		self["show_alias"] = 1
	}
	s.call("self composition", "POST", A+"/mtvmps", self)
	s.call("self composition?", "GET", A+"/mtvmps/"+mt1, nil, equals("layout", 2), count("members", 2),
		s.before(r5_1_0_1, "show_alias:i"), s.since(r5_1_0_1, "show_mt_name:i", "voice_hint:i"))
	s.call("self compositions", "GET", A+"/mtvmps", nil, count("mts", 1), s.before(r5_1_0_1, "mts.show_alias:i"), s.since(r5_1_0_1, "mts.show_mt_name:i"))
	s.call("self composition off", "DELETE", A+"/mtvmps/"+mt1, nil)
	s.stopped(20823, "self compositions (none)", A+"/mtvmps", count("mts", 0))
	self["members"] = selfEmpty
	s.call("self composition with an empty channel", "POST", A+"/mtvmps", self)
	s.call("self composition?", "GET", A+"/mtvmps/"+mt1, nil, count("members", 2), item("members", 1, "member_type", 0), item("members", 0, "mt_id", mt2))
	s.call("self composition off", "DELETE", A+"/mtvmps/"+mt1, nil)
	s.stopped(20823, "self composition? (none)", A+"/mtvmps/"+mt1, equals("mode", 0), count("members", 0))

	// A TV wall's self composition with an empty channel (mode from
	// 6.0.0.3.0; without it, members make it custom).
	wall := map[string]any{"hdu_id": "2_0", "layout": 2, "members": selfEmpty}
	if s.at(r5_1_0_1) {
		wall["show_mt_name"] = 1
	} else {
		wall["show_alias"] = 1
	}
	if s.at(r6_0_0_3) {
		wall["mode"] = 1
	}
	s.call("wall composition", "POST", A+"/hduvmps", wall)
	s.call("wall composition?", "GET", A+"/hduvmps/2_0", nil, count("members", 2), item("members", 1, "member_type", 0), item("members", 0, "mt_id", mt2),
		s.since(r6_0_0_3, "mode:i"))
	s.call("wall composition off", "DELETE", A+"/hduvmps/2_0", nil)
	s.stopped(20823, "wall composition? (none)", A+"/hduvmps/2_0", equals("layout", 0), count("members", 0))

	// Poll. Before 5.1.0.1.0 there are no poll modes: the client's mode
	// 0 is ignored (issue 21 item 4).
	poll := map[string]any{"mode": 1, "num": 0, "keep_time": 10, "members": mts(mt1, mt2)["mts"]}
	state := map[string]any{"value": 0, "mode": 1}
	if !s.at(r5_1_0_1) {
		poll["mode"] = 0
		delete(state, "mode")
	}
	// The query carries mode at every release: 0 while no poll runs.
	s.call("poll? (none)", "GET", A+"/poll", nil, equals("mode", 0), equals("state", 0))
	s.call("poll", "PUT", A+"/poll", poll)
	s.call("poll?", "GET", A+"/poll", nil, equals("keep_time", 10), count("members", 2), equals("mode", poll["mode"]), equals("state", 1),
		s.since(r6_0_0_3, "poll_index:i"))
	s.call("poll stop", "PUT", A+"/poll/state", state)
	s.call("poll? (stopped)", "GET", A+"/poll", nil, equals("mode", 0), equals("state", 0))

	// Monitors.
	dst := map[string]any{"ip": "10.9.9.9", "port": 9000}
	format, resolution := 6, 16 // H.265 4K: 7 and 19 before 5.1.0.1.0 (seed 001)
	if !s.at(r5_1_0_1) {
		format, resolution = 7, 19
	}
	s.call("monitor", "POST", A+"/monitors", map[string]any{"mode": 0, "src": map[string]any{"type": 1, "mt_id": mt1},
		"video_format": map[string]any{"format": format, "resolution": resolution, "frame": 30, "bitrate": 2048}, "dst": dst})
	s.call("monitors", "GET", A+"/monitors", nil, count("monitors", 1), equals("monitors.dst.ip", "10.9.9.9"), s.since(r6_0_0_3, "monitors.src.mt_chn_idx"))
	s.call("monitor?", "GET", A+"/monitors/10.9.9.9/9000", nil, equals("dst.port", 9000))
	s.call("key frame", "POST", A+"/neediframe/monitors", map[string]any{"dst": dst})
	s.call("monitor off", "DELETE", A+"/monitors/10.9.9.9/9000", nil)

	// Recording (rec_id in the start reply from 5.1.0.2.0, an integer
	// before 5.1.0.2.1; vrs_id and dual_stream from 5.2.0.2.0; watermark
	// from 6.0.0.3.0).
	rec := map[string]any{"video_name": "session", "recorder_type": 1, "publish_mode": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "members": []any{}}
	if s.at(r5_2_0_2) {
		vrs := s.call("recorders", "GET", "/api/v1/vc/vrs", nil, has("vrs.vrs_id:s"))
		rec["vrs_id"], _ = lookup(vrs, "vrs.vrs_id")
		rec["dual_stream"] = 0
	}
	if s.at(r6_0_0_3) {
		rec["watermark"] = 0
	}
	recID := s.recIDType()
	s.call("record", "POST", A+"/recorders", rec, s.since(r5_1_0_2, "rec_id"+recID))
	recs := s.call("recordings", "GET", A+"/recorders", nil, count("recorders", 1), has("recorders.rec_id"+recID, "recorders.current_progress:i"),
		s.since(r6_0_0_3, "recorders.watermark:i"))
	id := "none"
	if v, ok := lookup(recs, "recorders.rec_id"); ok {
		id = jsonScalar(v)
	}
	s.call("recording?", "GET", A+"/recorders/"+id, nil, has("current_progress:i", "state:i"))
	s.call("recording pause", "PUT", A+"/recorders/"+id+"/state", map[string]any{"value": 1, "recorder_mode": 1})
	s.call("recording stop", "DELETE", A+"/recorders/"+id, map[string]any{"recorder_mode": 1})
	s.stopped(20802, "recording? (stopped)", A+"/recorders/"+id, equals("state", 0))

	// Playback of the program (PUT from 5.0.0.4.1; rec_id in the reply
	// from 5.1.0.2.0; vrs_id from 5.2.0.2.0).
	fileID, _ := strconv.Atoi(id)
	play := map[string]any{"play_dual_stream": 0, "file_name": "session.asf", "file_id": fileID}
	if v, ok := rec["vrs_id"]; ok {
		play["vrs_id"] = v
	}
	s.call("playback", "PUT", A+"/playback", play, s.since(r5_1_0_2, "rec_id"+recID))
	s.call("playback?", "GET", A+"/playback", nil, has("current_progress:i", "state:i"), equals("file_id", fileID))
	s.call("playback pause", "PUT", A+"/playback/state", map[string]any{"value": 1})
	s.call("playback seek", "PUT", A+"/playback/current_progress", map[string]any{"current_progress": 1})
	s.call("playback stop", "PUT", A+"/playback/state", map[string]any{"value": 0})

	// Message, hang-up, drop.
	s.call("message", "POST", A+"/sms", map[string]any{"message": "hello", "roll_num": 1, "roll_speed": 1, "type": 0, "mts": mts(mt1)["mts"]})
	s.call("hang up", "DELETE", A+"/online_mts", mts(mt2))
	s.call("terminal info", "GET", A+"/mts/"+mt2, nil, equals("online", 0))
	s.call("drop", "DELETE", A+"/mts", mts(mt2))
	s.call("terminals", "GET", A+"/mts", nil, count("mts", 2))
	s.call("info B", "GET", B, nil, equals("name", "session-b"))

	// End, lowest level first; a client that cannot send DELETE posts
	// with _method=DELETE (seed 000 "Common rules" 6).
	s.call("end C", "POST", "/api/v1/mc/confs/"+c+"?_method=DELETE", nil)
	for _, id := range []string{b, a} {
		s.call("end", "DELETE", "/api/v1/mc/confs/"+id, nil)
	}
	s.call("list", "GET", "/api/v1/vc/confs", nil, count("confs", 0))
}

// stopped queries a feature that is not running (reference 05 6.0.0.3.0:
// an error; the releases before answered success, with mode or state 0).
func (s *session) stopped(code int, name, path string, before ...check) {
	s.t.Helper()
	if s.at(r6_0_0_3) {
		s.fail(code, name, "GET", path, nil)
		return
	}
	s.call(name, "GET", path, nil, before...)
}

// recIDType is the type spec of rec_id: an integer before 5.1.0.2.1.
func (s *session) recIDType() string {
	if s.at(r5_1_2_1) {
		return ":s"
	}
	return ":i"
}
