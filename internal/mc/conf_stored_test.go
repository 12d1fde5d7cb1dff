package mc_test

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

var updateConfStored = flag.Bool("update-conf-stored", false, "rewrite testdata/conf_stored.golden")

// meetingIDs are the random meeting ids of a dump, masked.
var meetingIDs = regexp.MustCompile(`[0-9a-f]{32}`)

// moids are the random moids of a dump.
var moids = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// The stored bytes of conferences and the replies of their creation, read
// and list are those of testdata/conf_stored.golden, written by the map
// creation before it was typed (issue 40): instant conferences with few
// and many parameters, unknown members and number text such as 8.0, from
// personal and public templates and virtual meeting rooms (a hand-edited
// template with members no release writes among them), at three releases,
// creations the rules refuse, and the conference after a control's write.
func TestConfStoredBytes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		var out strings.Builder
		for _, rel := range []string{"6.0.0.3.0", "5.2.0.2.0", "5.1.0.4.0"} {
			confStoredAt(t, dsn, rel, &out)
		}
		golden.Check(t, filepath.Join("testdata", "conf_stored.golden"), meetingIDs.ReplaceAllString(out.String(), "<meeting_id>"), *updateConfStored)
	})
}

func confStoredAt(t *testing.T, dsn, rel string, out *strings.Builder) {
	env := testserver.Start(t, dsn, testserver.Options{Release: rel})
	c := env.LoggedIn(t)
	c.Level = "3"
	me := cfDomain(t, env, testserver.AdminUser)
	domain := me.DomainMoid
	// The account and domain moids are random: masked.
	mask := strings.NewReplacer(me.Moid, "<account>", domain, "<domain>")
	w := func(s string) {
		s = moids.ReplaceAllStringFunc(mask.Replace(s), func(m string) string {
			if m == engine.PlatformID {
				return m
			}
			return "<moid>" // a recorder's vrs_id
		})
		out.WriteString(rel + " " + s + "\n")
	}
	dump := func(id string) {
		t.Helper()
		rec, err := env.Store.GetRecord(context.Background(), record.KindConf, domain, id)
		if err != nil {
			w("stored: " + err.Error())
			return
		}
		w("stored: " + string(rec.Data))
	}
	create := func(step string, p any) string {
		t.Helper()
		r := c.Do("POST", cfPath, testserver.Params(t, p))
		w(step + ": " + string(r.Raw))
		id, _ := r.Body["conf_id"].(string)
		if id != "" {
			dump(id)
		}
		return id
	}
	member := func(name, account string, extra map[string]any) map[string]any {
		m := map[string]any{"name": name, "account": account, "account_type": 5, "protocol": 0}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	create("instant, name only", map[string]any{"create_type": 1, "name": "min"})
	create("instant, no create_type", map[string]any{"name": "no type", "duration": 30})
	full := cfInstant("full 一 (x)", map[string]any{
		"duration": 90, "closed_conf": 1, "password": "abc_123", "encrypted_type": 2, "encrypted_key": "key.1",
		"auto_end": 1, "enable_rtc": 1, "x_vendor": map[string]any{"b": 1, "a": []any{"z", 2.5}}, "x_null": nil,
		"invite_members":       []any{member("a", "1000001", nil), member("b", "1000002", map[string]any{"bitrate": 1024, "x_m": "k"})},
		"keep_calling_members": []any{map[string]any{"name": "b", "account": "1000002", "account_type": 5}},
		"mix":                  map[string]any{"mode": 1, "members": []any{tplMember("a", "1000001")}},
		"poll":                 map[string]any{"mode": 1, "num": 0, "keep_time": 10, "members": []any{tplMember("b", "1000002")}},
		"speaker":              tplMember("a", "1000001"), "chairman": tplMember("b", "1000002"),
		"platform_id": "c0f3e7a1-5d2b-4c8e-9f60-1a2b3c4d5e6f", "start_time": "2020-01-01 00:00:00",
		"meeting_room_name": "given", "creator": map[string]any{"name": "forged"}, "conf_id": "forged", "user_domain_moid": "forged",
	})
	id := create("instant, full, unknown members", full)
	w("read: " + string(c.Do("GET", "/api/v1/vc/confs/"+id, nil).Raw))
	w("mute all: " + string(c.Do("PUT", "/api/v1/vc/confs/"+id+"/mute", testserver.Params(t, map[string]any{"value": 1})).Raw))
	dump(id)
	create("instant, number text", confWithText(t, cfInstant("text", nil), map[string]string{"max_join_mt": "16.0", "call_interval": "30.0"}))
	create("instant, bitrate from the first video format", map[string]any{"name": "vf", "video_formats": []any{
		map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}, "conf_type": 4})
	create("instant, bitrate from the first of two video formats", map[string]any{"name": "vf2", "video_formats": []any{
		map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 768}, map[string]any{"format": 5, "resolution": 3, "frame": 25, "bitrate": 256}},
		"invite_members": []any{member("a", "1000001", nil)}, "vmp": map[string]any{"mode": 1, "layout": 2, "voice_hint": 0, "broadcast": 1, "show_mt_name": 1, "members": []any{}}})
	create("instant, member above the bitrate", cfInstant("above", map[string]any{"invite_members": []any{member("a", "1000001", map[string]any{"bitrate": 4096})}}))
	create("instant, other platform", cfInstant("other", map[string]any{"platform_id": "nope"}))
	create("instant, no name", map[string]any{"create_type": 1})
	create("instant, booked", cfInstant("booked", map[string]any{"x_confer_start_time": env.Clock.Now().Add(48 * 3600e9).Format("2006-01-02T15:04:05Z07:00"), "duration": 60}))

	tpl := tplCreate(t, c, tplPersonalBody("personal "+rel, map[string]any{"bind_e164": 1, "invite_members": []any{member("d", "1000003", nil)},
		"vmp": map[string]any{"mode": 1, "layout": 2, "voice_hint": 0, "broadcast": 1, "show_mt_name": 1, "members": []any{}}}))
	create("personal template", map[string]any{"create_type": 3, "template_id": tpl})
	create("personal template, number in use", map[string]any{"create_type": 3, "template_id": tpl})
	tpl2 := tplCreate(t, c, tplPersonalBody("personal two "+rel, nil))
	create("personal template, overridden", map[string]any{"create_type": 3, "template_id": tpl2, "name": "over", "duration": 15,
		"max_join_mt": 32, "invite_members": []any{}, "mix": map[string]any{"mode": 2}})
	cfRecord(t, env, record.KindPersonalTemplate, "999999"+rel[2:3], domain, me.Moid, map[string]any{
		"name": "hand edited", "max_join_mt": json.Number("8.0"), "duration": json.Number("0.0"), "bitrate": "1024",
		"x_old": map[string]any{"k": []any{1, "v", nil}}, "invite_members": []any{member("e", "1000004", map[string]any{"bitrate": json.Number("512.0")})},
		"status": 1, "conf_name": "n", "description": "d", "creator": map[string]any{"name": "old"},
	})
	create("hand-edited personal template", map[string]any{"create_type": 3, "template_id": "999999" + rel[2:3]})
	if rel == "6.0.0.3.0" {
		pub := testserver.MustOK(t, c.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("public "+rel, map[string]any{
			"mix": map[string]any{"mode": 1}, "audio_formats": []any{1, 2}}))))["template_id"].(string)
		create("public template", map[string]any{"create_type": 2, "template_id": pub, "password": "p_1"})
	}
	if rel != "5.1.0.4.0" { // rooms from 5.2.0.x (seed 001)
		room := vmrCreate(t, c, vmrBody("room "+rel, nil))
		create("room", map[string]any{"create_type": 4, "template_id": room})
	}
	create("room, missing", map[string]any{"create_type": 4, "template_id": "404"})
	create("template, missing id", map[string]any{"create_type": 3})
	w("list: " + string(c.Do("GET", "/api/v1/vc/confs", nil).Raw))
}

// confWithText returns p with the members of text sent as the JSON number
// texts given (8.0 is a number the map kept as its text).
func confWithText(t *testing.T, p map[string]any, text map[string]string) map[string]any {
	t.Helper()
	for k, v := range text {
		p[k] = json.Number(v)
	}
	return p
}
