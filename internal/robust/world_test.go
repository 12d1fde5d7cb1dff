package robust

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/testserver"
)

// world is a user domain with one object of (nearly) every kind that a
// catalogue path can name, created through the API by the domain's
// administrator: templates, rooms, areas, a running conference with
// terminals, its mix, composition, monitor, TV wall and recordings, a
// meeting file, a department and an account, a krtc room, recording
// system folders, rooms and a program.
type world struct {
	prefix string            // every name of the world starts with it
	domain string            // user domain moid
	ids    map[string]string // object ids by fixture key
	names  []string          // the names given to the world's objects
}

// build creates the world's objects as c (an administrator of the domain).
// octet makes the terminals' addresses distinct between worlds.
func build(t *testing.T, env *testserver.Env, c *testserver.Client, user, prefix string, octet int) *world {
	t.Helper()
	ctx := context.Background()
	acct, err := env.Store.AccountByUsername(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{prefix: prefix, domain: acct.DomainMoid, ids: map[string]string{}}
	name := func(kind string) string { n := prefix + "-" + kind; w.names = append(w.names, n); return n }
	post := func(method, path string, params any) map[string]any {
		t.Helper()
		return testserver.MustOK(t, c.Do(method, path, testserver.Params(t, params)))
	}
	get := func(path string, q url.Values) map[string]any {
		t.Helper()
		return testserver.MustOK(t, c.Do("GET", path, q))
	}

	// mc: a personal template, a virtual meeting room, an area.
	w.ids["template"] = post("POST", "/api/v1/mc/personal_templates", templateBody(name("template")))["template_id"].(string)
	w.ids["vmr"] = post("POST", "/api/v1/mc/virtual_meeting_rooms", roomBody(name("vmr")))["id"].(string)
	w.ids["area"] = post("POST", "/api/v1/mc/meeting_room_areas", map[string]any{"area": name("area")})["id"].(string)

	// A running conference: three IP terminals that answer, one offline
	// E.164 number.
	var members []any
	for i := 1; i <= 3; i++ {
		members = append(members, map[string]any{"name": fmt.Sprintf("%s-mt%d", prefix, i), "account": fmt.Sprintf("10.%d.0.%d", octet, i),
			"account_type": 7, "bitrate": 1024, "protocol": 0})
	}
	members = append(members, map[string]any{"name": prefix + "-off", "account": fmt.Sprintf("55%d0001", octet), "account_type": 5, "bitrate": 1024, "protocol": 0})
	conf := map[string]any{"create_type": 1, "name": name("conf"), "bitrate": 1024, "max_join_mt": 8, "duration": 0,
		"call_mode": 2, "call_times": 1, "call_interval": 10, "invite_members": members,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	cid := post("POST", "/api/v1/mc/confs", conf)["conf_id"].(string)
	w.ids["conf"] = cid
	env.Advance(t, 3*time.Second)
	w.ids["meeting"] = fmt.Sprint(get("/api/v1/vc/confs/"+cid, nil)["meeting_id"])
	cp := "/api/v1/vc/confs/" + cid

	// An ended conference in the history (Confer's extension).
	ended := post("POST", "/api/v1/mc/confs", map[string]any{"create_type": 1, "name": name("ended"), "duration": 0})["conf_id"].(string)
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+ended, nil))
	w.ids["history"] = findString(get("/api/v1/mc/history", nil), "history_id")

	// Recording: one finished recording (a program), one running.
	vrsID := findString(get("/api/v1/vc/vrs", nil), "vrs_id")
	w.ids["vrs"] = vrsID
	rec := func(n string) map[string]any {
		return map[string]any{"video_name": n, "recorder_type": 1, "publish_mode": 0, "watermark": 1, "anonymous": 0,
			"recorder_mode": 1, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}}
	}
	done := post("POST", cp+"/recorders", rec(name("recorded")))["rec_id"].(string)
	env.Advance(t, 10*time.Second)
	post("DELETE", cp+"/recorders/"+done, map[string]any{"recorder_mode": 1})
	w.ids["rec"] = post("POST", cp+"/recorders", rec(name("recording")))["rec_id"].(string)
	w.ids["program"] = findString(get("/api/v1/vrs/program", url.Values{"folderid": {"1"}}), "prggid")

	// Media of the conference.
	post("POST", cp+"/mixs", map[string]any{"mode": 2, "members": []any{map[string]any{"mt_id": "1"}, map[string]any{"mt_id": "2"}}})
	w.ids["mix"] = "1" // the conference's one mixer (internal/vc/mix.go)
	post("POST", cp+"/vmps", map[string]any{"mode": 2, "layout": 1, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
		"mt_name_style": map[string]any{"font_size": 1, "font_color": "#FF0000", "position": 2}, "members": []any{}})
	w.ids["vmp"] = "1" // the one composition (internal/vc/vmp.go)
	post("POST", cp+"/monitors", map[string]any{"mode": 0, "src": map[string]any{"type": 1, "mt_id": "1", "mt_chn_idx": 1},
		"video_format": map[string]any{"format": 4, "resolution": 12, "frame": 25, "bitrate": 2048},
		"dst":          map[string]any{"ip": fmt.Sprintf("10.%d.9.9", octet), "port": 6000}})
	w.ids["monitor_ip"], w.ids["monitor_port"] = fmt.Sprintf("10.%d.9.9", octet), "6000"
	w.ids["hdu"] = fmt.Sprintf("%d_0", octet%8+1)
	optional(t, c.Do("POST", cp+"/hdus", testserver.Params(t, map[string]any{"hdu_id": w.ids["hdu"], "mode": 1, "show_mt_name": 1,
		"specific": map[string]any{"member_type": "1", "mt_id": "1", "mt_chn_idx": 0}})))
	optional(t, c.Do("POST", cp+"/inspections", testserver.Params(t, map[string]any{"mode": 1,
		"src": map[string]any{"type": 1, "mt_id": "1"}, "dst": map[string]any{"mt_id": "2"}})))
	optional(t, c.Do("POST", cp+"/mtvmps", testserver.Params(t, map[string]any{"mode": 2, "layout": 1, "mt_id": "3", "voice_hint": 0,
		"show_mt_name": 1, "members": []any{}})))

	// A meeting file of the conference.
	w.ids["file"] = findString(upload(t, env, c, w.ids["meeting"], name("file")+".txt"), "file_id")

	// amc: a department and an account in it.
	w.ids["dept"] = post("POST", "/api/v1/amc/departments", map[string]any{"parent_department_moid": w.domain, "department_name": name("dept")})["department_moid"].(string)
	w.ids["account"] = post("POST", "/api/v1/amc/accounts", map[string]any{"account": name("user"), "name": name("realname"),
		"password": "pw_robust", "enable": 1, "departments": []any{map[string]any{"department_moid": w.ids["dept"]}}})["account_moid"].(string)

	// krtc: a room (JSON body, account_token in the query).
	req, _ := http.NewRequest("POST", env.URL+"/api/v1/krtc/rooms?account_token="+url.QueryEscape(c.Token),
		strings.NewReader(string(mustJSON(t, map[string]any{"room_name": name("krtc")}))))
	req.Header.Set("Content-Type", "application/json")
	w.ids["krtc"] = testserver.MustOK(t, c.Send(req))["room_id"].(string)

	// vrs: a folder, a recording room, a playback room of the program.
	w.ids["folder"] = fmt.Sprint(post("POST", "/api/v1/vrs/program_folder", map[string]any{"foldername": name("folder")})["folderid"])
	w.ids["recroom"] = fmt.Sprint(post("POST", "/api/v1/vrs/recroom", map[string]any{"room": map[string]any{
		"roomname": name("recroom"), "roomno": fmt.Sprintf("77%d01", octet), "roompwd": "", "roomtype": 0, "opertype": 0, "vtype": 0, "vformat": 0,
		"vwidth": 0, "vheight": 0, "vflag": 0, "vframe": 0, "atype": 1, "aformat": 98, "aflag": 1, "confrate": 0,
		"preprgname": prefix + "prg", "prgtype": 1, "bpublish": 0}})["roomid"])
	w.ids["playroom"] = fmt.Sprint(post("POST", "/api/v1/vrs/playroom", map[string]any{"room": map[string]any{
		"roomname": name("playroom"), "roomno": fmt.Sprintf("77%d02", octet), "roompwd": "888888", "autoplay": 0, "encrypt": 0, "encryptkey": "",
		"cryptkeylen": 0, "prgalias": prefix, "prgid": atoi(w.ids["program"]), "ip": 2130706433, "path": "/uploadmedia/", "prgname": prefix + ".asf"}})["roomid"])

	// nms: the terminal moid the domain knows.
	w.ids["terminal"] = findString(get("/api/v1/nms/user_domains/"+w.domain+"/terminals", nil), "moid")
	return w
}

// optional logs a fixture that could not be made; the endpoints it would
// serve are still exercised with the ids the world has.
func optional(t *testing.T, r testserver.Reply) {
	t.Helper()
	if !r.OK() {
		t.Logf("optional fixture not made: %s", r.Raw)
	}
}

// pathValue is the world's value of a catalogue path parameter, "" when
// the world has none (a new kind of object: add it to build).
func (w *world) pathValue(ep *catalog.Endpoint, param, token string) string {
	p := ep.Path
	switch param {
	case "conf_id", "meeting_id":
		if param == "meeting_id" {
			return w.ids["meeting"]
		}
		return w.ids["conf"]
	case "id":
		for prefix, key := range map[string]string{
			"/api/v1/mc/personal_templates/": "template", "/api/v1/mc/public_templates/": "template",
			"/api/v1/mc/virtual_meeting_rooms/": "vmr", "/api/v1/mc/meeting_room_areas/": "area",
			"/api/v1/vrs/program_folder/": "folder", "/api/v1/vrs/recroom/": "recroom", "/api/v1/vrs/playroom/": "playroom",
		} {
			if strings.HasPrefix(p, prefix) {
				return w.ids[key]
			}
		}
		return ""
	case "mt_id":
		return "1"
	case "cascade_id":
		return "0"
	case "mt_chn_idx":
		return "0"
	case "mode":
		return "1"
	case "mix_id":
		return w.ids["mix"]
	case "vmp_id":
		return w.ids["vmp"]
	case "rec_id":
		return w.ids["rec"]
	case "history_id":
		return w.ids["history"]
	case "hdu_id":
		return w.ids["hdu"]
	case "dst_ip":
		return w.ids["monitor_ip"]
	case "dst_port":
		return w.ids["monitor_port"]
	case "file_id":
		return w.ids["file"]
	case "department_moid":
		return w.ids["dept"]
	case "account_moid":
		return w.ids["account"]
	case "public_group_moid":
		return w.domain // the domain's own group (docs/amc.md)
	case "room_id":
		return w.ids["krtc"]
	case "account_token":
		return token
	case "domain_moid":
		switch {
		case strings.HasPrefix(p, "/api/v1/nms/platform_domains/"):
			return string(nms.PlatformMoid)
		case strings.HasPrefix(p, "/api/v1/nms/service_domains/"):
			return string(nms.ServiceMoid)
		}
		return w.domain
	case "service_moid":
		return string(nms.ServiceMoid)
	case "terminal_moid":
		return w.ids["terminal"]
	case "p_server_moid", "server_moid", "mediaresource_moid":
		return w.ids[param]
	}
	return ""
}

// pathParams lists the {name} parameters of a path pattern.
func pathParams(pattern string) []string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, seg[1:len(seg)-1])
		}
	}
	return out
}

// fillPath replaces every {name} of pattern with value(name), escaped
// unless raw.
func fillPath(pattern string, value func(name string) string, raw bool) string {
	segs := strings.Split(pattern, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			v := value(seg[1 : len(seg)-1])
			if !raw {
				v = url.PathEscape(v)
			}
			segs[i] = v
		}
	}
	return strings.Join(segs, "/")
}

// platformIDs reads the moids of the platform's devices (the same for
// every domain) into w.
func (w *world) platformIDs(t *testing.T, c *testserver.Client) {
	t.Helper()
	phys := testserver.MustOK(t, c.Do("GET", "/api/v1/nms/platform_domains/"+string(nms.PlatformMoid)+"/physicals", nil))
	w.ids["p_server_moid"] = findString(phys, "moid")
	logs := testserver.MustOK(t, c.Do("GET", "/api/v1/nms/platform_domains/"+string(nms.PlatformMoid)+"/logicals", nil))
	w.ids["server_moid"] = findString(logs, "moid")
	w.ids["mediaresource_moid"] = node.ServiceMoid(w.ids["p_server_moid"], "media")
}

// findString returns the first value of key found walking v depth first,
// as text ("" when none).
func findString(v any, key string) string {
	switch x := v.(type) {
	case map[string]any:
		if s, ok := x[key]; ok && s != nil {
			if f, ok := s.(float64); ok {
				return fmt.Sprint(int64(f))
			}
			if s, ok := s.(string); ok {
				return s
			}
		}
		for _, k := range sortedKeys(x) {
			if s := findString(x[k], key); s != "" {
				return s
			}
		}
	case []any:
		for _, el := range x {
			if s := findString(el, key); s != "" {
				return s
			}
		}
	}
	return ""
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// upload sends a meeting file as multipart/form-data.
func upload(t *testing.T, env *testserver.Env, c *testserver.Client, meetingID, filename string) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("account_token", c.Token)
	fw, err := mw.CreateFormFile("file", filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte("robust test file\n"))
	mw.Close()
	req, _ := http.NewRequest("POST", env.URL+"/api/v1/mc/meeting_files/"+meetingID, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return testserver.MustOK(t, c.Send(req))
}

// templateBody is a complete personal template (every starred parameter
// of reference 04).
func templateBody(name string) model.MCPersonalTemplatesCreateRequest {
	tp := testserver.Template(name)
	tp.Bitrate, tp.Silence, tp.MaxJoinMt = 2048, 1, 192
	tp.VideoFormats = []model.MCPersonalTemplatesCreateRequestVideoFormat{{Format: 4, Resolution: 13, Frame: 30, Bitrate: 2048}}
	return tp
}

// roomBody is the reference's virtual meeting room example (reference 04).
func roomBody(name string) map[string]any {
	return map[string]any{
		"name": name, "bitrate": 2048,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 3, "frame": 30, "bitrate": 8128}},
		"audio_formats": []any{}, "conf_type": 1, "max_join_mt": 8, "cascade_mode": 1, "cascade_upload": 1,
		"cascade_return": 0, "cascade_return_para": 0, "mute": 0, "mute_filter": 0,
		"mix": map[string]any{"mode": 1}, "vmp": map[string]any{"mode": 2},
		"recorder":           map[string]any{"publish_mode": 0, "anonymous": 0, "dual_stream": 0, "recorder_mode": 1, "vrs_id": ""},
		"preoccupy_resource": 1, "encrypted_type": 2, "encrypted_auth": 0, "encrypted_key": "234556666",
		"dual_mode": 0, "call_mode": 0, "call_times": 0, "call_interval": 20, "voice_activity_detection": 1,
		"vacinterval": 5, "one_reforming": 0, "fec_mode": 0, "exclusive": 0,
	}
}
