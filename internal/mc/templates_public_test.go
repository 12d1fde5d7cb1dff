package mc_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

const tplPublicPath = "/api/v1/mc/public_templates"

// tplPublicBody is a complete public template (every parameter the
// reference stars) with extra fields added or replaced.
func tplPublicBody(name string, extra map[string]any) map[string]any {
	b := map[string]any{
		"name": name, "bitrate": 4096, "closed_conf": 1, "safe_conf": 0, "encrypted_type": 2, "conf_type": 1,
		"mute": 0, "video_quality": 1, "one_reforming": 0, "encrypted_key": "k.1", "dual_mode": 0,
		"voice_activity_detection": 1, "vacinterval": 15, "cascade_mode": 0, "cascade_upload": 0,
		"cascade_return": 0, "cascade_return_para": 0, "public_conf": 1, "max_join_mt": 64, "auto_end": 1,
		"preoccupy_resource": 0, "call_mode": 0, "call_times": 0, "call_interval": 10,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 4096}},
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// Public templates exist until 6.1.0.2.0 (seed 001), so these run on a
// 6.0.0.3.0 platform.
func TestPublicTemplates(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Release: "6.0.0.3.0"})
		admin := env.LoggedIn(t)
		create := func(body map[string]any) string {
			t.Helper()
			return testserver.MustOK(t, admin.Do("POST", tplPublicPath, testserver.Params(t, body)))["template_id"].(string)
		}
		// silence cannot be set on public templates: it stays 0.
		p1 := create(tplPublicBody("all hands", map[string]any{"silence": 1, "dcs": map[string]any{"mode": 2},
			"des": map[string]any{"mode": 1}, "mix": map[string]any{"mode": 1}, "recorder": map[string]any{"recorder_mode": 1, "vrs_id": "vrs-1"}}))
		g := testserver.MustOK(t, admin.Do("GET", tplPublicPath+"/"+p1, nil))
		for k, want := range map[string]any{"template_id": p1, "name": "all hands", "bitrate": 4096.0, "silence": 0.0,
			"vacinterval": 15.0, "encrypted_key": "k.1", "max_join_mt": 64.0, "auto_end": 1.0} {
			if g[k] != want {
				t.Errorf("detail %s = %v, want %v", k, g[k], want)
			}
		}
		tplEqual(t, "recorder", g["recorder"], map[string]any{"recorder_mode": 1, "vrs_id": "vrs-1"})
		tplEqual(t, "dcs", g["dcs"], map[string]any{"mode": 2})
		if _, ok := g["e164"]; ok {
			t.Errorf("public template detail carries e164: %v", g)
		}

		// Errors of creation: name, key, duplicate.
		testserver.MustFail(t, admin.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("", nil))), wire.CodeInvalidParam)
		d := testserver.MustFail(t, admin.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("x", map[string]any{"encrypted_key": "0123456789abcdefg"}))), wire.CodeInvalidParam)
		if want := "parameter encrypted_key:"; !strings.Contains(d, want) {
			t.Errorf("description %q does not name encrypted_key", d)
		}
		testserver.MustFail(t, admin.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("all hands", nil))), 20105)

		// The list is ordered by creation time, whatever the modifications.
		env.Advance(t, time.Minute)
		p2 := create(tplPublicBody("town hall", nil))
		env.Advance(t, time.Minute)
		// Modify keeps what is not sent (dcs, des, recorder, mix).
		testserver.MustOK(t, admin.Do("POST", tplPublicPath+"/"+p1, testserver.Params(t, tplPublicBody("all hands 2", map[string]any{"bitrate": 2048}))))
		g = testserver.MustOK(t, admin.Do("GET", tplPublicPath+"/"+p1, nil))
		if g["name"] != "all hands 2" || g["bitrate"] != 2048.0 {
			t.Fatalf("after modify: %v", g)
		}
		tplEqual(t, "dcs after modify", g["dcs"], map[string]any{"mode": 2})
		tplEqual(t, "des after modify", g["des"], map[string]any{"mode": 1})
		tplEqual(t, "recorder after modify", g["recorder"], map[string]any{"recorder_mode": 1, "vrs_id": "vrs-1"})
		testserver.MustFail(t, admin.Do("POST", tplPublicPath+"/"+p2, testserver.Params(t, tplPublicBody("all hands 2", nil))), 20105)
		for _, tc := range []struct {
			q    url.Values
			want string
		}{
			{nil, "all hands 2,town hall"},
			{url.Values{"order": {"1"}}, "town hall,all hands 2"},
			{url.Values{"start": {"1"}, "count": {"1"}}, "town hall"},
			{url.Values{"count": {"0"}, "order": {"1"}}, "town hall,all hands 2"},
		} {
			l := testserver.MustOK(t, admin.Do("GET", tplPublicPath, tc.q))
			if got := tplNames(t, l, "public_templates"); got != tc.want || l["total"] != 2.0 {
				t.Errorf("list %v = %s (total %v), want %s (total 2)", tc.q, got, l["total"], tc.want)
			}
		}
		it := testserver.MustOK(t, admin.Do("GET", tplPublicPath, nil))["public_templates"].([]any)[0].(map[string]any)
		if it["template_id"] != p1 || it["resolution"] != 12.0 || it["public_conf"] != 1.0 {
			t.Fatalf("list item = %v", it)
		}

		// Any account of the domain reads them; only administrators change them.
		carol := env.Account(t, auth.DefaultDomain, "carol", false)
		if l := testserver.MustOK(t, carol.Do("GET", tplPublicPath, nil)); l["total"] != 2.0 {
			t.Fatalf("a user of the domain lists %v", l)
		}
		if g := testserver.MustOK(t, carol.Do("GET", tplPublicPath+"/"+p2, nil)); g["name"] != "town hall" {
			t.Fatalf("a user of the domain reads %v", g)
		}
		testserver.MustFail(t, carol.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("mine", nil))), wire.CodeNoPermission)
		testserver.MustFail(t, carol.Do("POST", tplPublicPath+"/"+p2, testserver.Params(t, tplPublicBody("mine", nil))), wire.CodeNoPermission)
		testserver.MustFail(t, carol.Do("DELETE", tplPublicPath+"/"+p2, nil), wire.CodeNoPermission)

		// Another domain sees none of them, even its administrator.
		bob := env.Account(t, "other", "bob", true)
		if l := testserver.MustOK(t, bob.Do("GET", tplPublicPath, nil)); l["total"] != 0.0 {
			t.Fatalf("another domain lists %v", l)
		}
		testserver.MustFail(t, bob.Do("GET", tplPublicPath+"/"+p2, nil), 99998)
		testserver.MustFail(t, bob.Do("POST", tplPublicPath+"/"+p2, testserver.Params(t, tplPublicBody("taken over", nil))), 99998)
		testserver.MustFail(t, bob.Do("DELETE", tplPublicPath+"/"+p2, nil), 99998)
		// Names are per domain.
		testserver.MustOK(t, bob.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("town hall", nil))))
		if g := testserver.MustOK(t, admin.Do("GET", tplPublicPath+"/"+p2, nil)); g["name"] != "town hall" || g["bitrate"] != 4096.0 {
			t.Fatalf("the template changed: %v", g)
		}

		// Delete: then it is gone.
		testserver.MustOK(t, admin.Do("DELETE", tplPublicPath+"/"+p2, nil))
		testserver.MustFail(t, admin.Do("GET", tplPublicPath+"/"+p2, nil), 99998)
		testserver.MustFail(t, admin.Do("DELETE", tplPublicPath+"/"+p2, nil), 99998)
		testserver.MustFail(t, admin.Do("POST", tplPublicPath+"/"+p2, testserver.Params(t, tplPublicBody("again", nil))), 99998)
		if l := testserver.MustOK(t, admin.Do("GET", tplPublicPath, nil)); l["total"] != 1.0 {
			t.Fatalf("list after delete = %v", l)
		}
	})
}

// Release 6.1.0.2.0 removed the public-template endpoints (seed 001).
func TestPublicTemplatesRemovedAt6102(t *testing.T) {
	for _, rel := range []string{"6.1.0.2.0", "6.1.0.4.0"} {
		env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: rel})
		c := env.LoggedIn(t)
		for _, level := range []string{"", "2", "3"} {
			c.Level = level
			testserver.MustFail(t, c.Do("GET", tplPublicPath, nil), wire.CodeNotSupported)
			testserver.MustFail(t, c.Do("GET", tplPublicPath+"/9000000", nil), wire.CodeNotSupported)
			testserver.MustFail(t, c.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("x", nil))), wire.CodeNotSupported)
			testserver.MustFail(t, c.Do("POST", tplPublicPath+"/9000000", testserver.Params(t, tplPublicBody("x", nil))), wire.CodeNotSupported)
			testserver.MustFail(t, c.Do("DELETE", tplPublicPath+"/9000000", nil), wire.CodeNotSupported)
		}
		// Personal templates stay.
		tplCreate(t, c, tplPersonalBody("still here", nil))
	}
}
