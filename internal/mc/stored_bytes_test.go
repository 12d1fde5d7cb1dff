package mc_test

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

var updateStored = flag.Bool("update-stored", false, "rewrite testdata/stored_bytes.golden")

// The stored bytes of templates and virtual meeting rooms, created and
// modified (a change leaving members out, a nested object replaced, an
// empty list sent) are those of testdata/stored_bytes.golden, which the
// map-based writes wrote before they were typed (issue 40): what a
// request leaves out is kept, what it sends is stored as sent.
func TestTemplateAndRoomStoredBytes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Release: "6.0.0.3.0"})
		c := env.LoggedIn(t)
		domain := cfDomain(t, env, testserver.AdminUser).DomainMoid
		var out strings.Builder
		dump := func(step, kind, id string) {
			t.Helper()
			rec, err := env.Store.GetRecord(context.Background(), kind, domain, id)
			if err != nil {
				t.Fatal(err)
			}
			out.WriteString(step + "\n" + string(rec.Data) + "\n")
		}
		member := func(name, account string, extra map[string]any) map[string]any {
			m := map[string]any{"name": name, "account": account, "account_type": 5, "protocol": 0}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		full := map[string]any{
			"password": "pw_1", "encrypted_key": "key.1", "duration": 120, "bind_e164": 1, "enable_rtc": 1,
			"audio_formats": []any{}, "vips": []any{},
			"invite_members": []any{member("a<&>", "1000001", nil), member("b", "1000002", map[string]any{"bitrate": 1024})},
			"speaker":        map[string]any{"name": "a", "account": "1000001", "account_type": 5},
			"mix":            map[string]any{"mode": 2, "members": []any{map[string]any{"name": "a", "account": "1000001", "account_type": 5}}},
			"vmp": map[string]any{"mode": 1, "layout": 2, "voice_hint": 0, "broadcast": 1, "show_mt_name": 1,
				"mt_name_style": map[string]any{"font_size": 1},
				"members": []any{map[string]any{"member_type": 1, "chn_idx": 0, "name": "a", "account": "1000001", "account_type": 5},
					map[string]any{"member_type": 3, "chn_idx": 1, "poll": map[string]any{"mode": 1, "num": 0, "keep_time": 10,
						"members": []any{map[string]any{"name": "b", "account": "1000002", "account_type": 5}}}}}},
			"poll":     map[string]any{"mode": 1, "num": 2, "keep_time": 15, "members": []any{map[string]any{"name": "b", "account": "1000002", "account_type": 5}}},
			"recorder": map[string]any{"publish_mode": 0, "dual_stream": 1, "anonymous": 0, "recorder_mode": 1},
			"dcs":      map[string]any{"mode": 1},
		}
		id := tplCreate(t, c, tplPersonalBody("stored 一", full))
		dump("personal create", record.KindPersonalTemplate, id)
		testserver.MustOK(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("stored two", map[string]any{
			"invite_members": []any{member("d", "1000003", nil)}, "bind_e164": 1, "mute_filter": 1}))))
		dump("personal update, members left out", record.KindPersonalTemplate, id)
		testserver.MustOK(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("stored three", map[string]any{
			"vmp":       map[string]any{"mode": 2, "layout": 1, "voice_hint": 1, "broadcast": 0, "show_mt_name": 0, "members": []any{}},
			"bind_e164": 0, "invite_members": []any{}}))))
		dump("personal update, vmp replaced, number released", record.KindPersonalTemplate, id)

		pub := testserver.MustOK(t, c.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("public one", map[string]any{
			"silence": 1, "password": "p", "mix": map[string]any{"mode": 1}, "audio_formats": []any{1, 2}}))))["template_id"].(string)
		dump("public create", record.KindPublicTemplate, pub)
		testserver.MustOK(t, c.Do("POST", tplPublicPath+"/"+pub, testserver.Params(t, tplPublicBody("public two", nil))))
		dump("public update", record.KindPublicTemplate, pub)

		room := vmrCreate(t, c, vmrBody("room one", nil))
		dump("room create", record.KindRoom, room)
		testserver.MustOK(t, c.Do("POST", vmrPath+"/"+room, testserver.Params(t, map[string]any{"name": "room two", "exclusive": 1, "max_join_mt": 8, "video_formats": []any{
			map[string]any{"format": 4, "resolution": 3, "frame": 30, "bitrate": 8128}}})))
		dump("room update, one member", record.KindRoom, room)
		room2 := vmrCreate(t, c, map[string]any{"name": "room three", "max_join_mt": 32, "video_formats": []any{
			map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}})
		dump("room create, bitrate from the video format", record.KindRoom, room2)
		testserver.MustOK(t, c.Do("POST", vmrPath+"/"+room2, testserver.Params(t, map[string]any{"video_formats": []any{
			map[string]any{"format": 4, "resolution": 13, "frame": 25, "bitrate": 2048}}, "bitrate": 512, "max_join_mt": 32, "name": "room four"})))
		dump("room update, formats and bitrate", record.KindRoom, room2)

		golden.Check(t, filepath.Join("testdata", "stored_bytes.golden"), out.String(), *updateStored)
	})
}
