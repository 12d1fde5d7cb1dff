package mc_test

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Helpers of the template and area tests (prefixed: other test files of
// the package have their own).

// tplJSON renders v as canonical JSON (map keys sorted) for comparisons.
func tplJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return string(b)
}

func tplEqual(t testing.TB, what string, got, want any) {
	t.Helper()
	if g, w := tplJSON(t, got), tplJSON(t, want); g != w {
		t.Fatalf("%s = %s, want %s", what, g, w)
	}
}

// tplPersonalBody is a complete personal template (every parameter the
// reference stars) with extra fields added or replaced.
func tplPersonalBody(name string, extra map[string]any) map[string]any {
	b := map[string]any{
		"name": name, "bitrate": 2048, "closed_conf": 0, "safe_conf": 0, "encrypted_type": 0, "conf_type": 0,
		"call_mode": 2, "call_times": 3, "call_interval": 20, "mute": 0, "silence": 1, "video_quality": 0,
		"one_reforming": 0, "dual_mode": 1, "voice_activity_detection": 0, "cascade_mode": 1,
		"cascade_upload": 1, "cascade_return": 0, "cascade_return_para": 0, "public_conf": 0,
		"max_join_mt": 192, "auto_end": 0, "preoccupy_resource": 0, "bind_e164": 0,
		"video_formats": []any{
			map[string]any{"format": 4, "resolution": 13, "frame": 30, "bitrate": 2048},
			map[string]any{"format": 5, "resolution": 12, "frame": 25, "bitrate": 1024},
		},
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func tplMember(name, account string) map[string]any {
	return map[string]any{"name": name, "account": account, "account_type": 5}
}

const tplPath = "/api/v1/mc/personal_templates"

func tplCreate(t testing.TB, c *testserver.Client, body map[string]any) string {
	t.Helper()
	return testserver.MustOK(t, c.Do("POST", tplPath, testserver.Params(t, body)))["template_id"].(string)
}

func TestPersonalTemplateLifecycle(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		a, b, d := tplMember("a", "1000001"), tplMember("b", "1000002"), tplMember("d", "1000003")
		invite := []any{
			map[string]any{"name": "a", "account": "1000001", "account_type": 5, "protocol": 0},
			map[string]any{"name": "b", "account": "1000002", "account_type": 5, "protocol": 1, "bitrate": 1024},
			map[string]any{"name": "d", "account": "1000003", "account_type": 5, "protocol": 0},
		}
		mix := map[string]any{"mode": 2, "members": []any{a, b}}
		vmp := map[string]any{"mode": 1, "layout": 2, "voice_hint": 0, "broadcast": 1, "show_mt_name": 1,
			"members": []any{
				map[string]any{"name": "a", "account": "1000001", "account_type": 5, "member_type": 1, "chn_idx": 0},
				map[string]any{"member_type": 2, "chn_idx": 1},
			}}
		poll := map[string]any{"mode": 3, "num": 0, "keep_time": 30, "members": []any{a, b, d}}
		id := tplCreate(t, c, tplPersonalBody("weekly", map[string]any{
			"bind_e164": 1, "password": "pw_1.2", "encrypted_type": 2, "encrypted_key": "key_1",
			"speaker": a, "invite_members": invite, "mix": mix, "vmp": vmp, "vips": []any{d}, "poll": poll,
			"dcs": map[string]any{"mode": 1}, "not_in_the_model": "dropped",
		}))
		if id != "9000000" {
			t.Fatalf("template_id = %q, want the first number of the template range, 9000000", id)
		}

		// Detail: the stored settings, the pre-allocated number (the first of
		// the conference range), the participants' bitrate defaulted to the
		// conference bitrate.
		g := testserver.MustOK(t, c.Do("GET", tplPath+"/"+id, nil))
		for k, want := range map[string]any{"template_id": id, "name": "weekly", "bitrate": 2048.0, "password": "pw_1.2",
			"encrypted_type": 2.0, "encrypted_key": "key_1", "silence": 1.0, "dual_mode": 1.0, "call_times": 3.0, "e164": "1110000"} {
			if g[k] != want {
				t.Errorf("detail %s = %v, want %v", k, g[k], want)
			}
		}
		if _, ok := g["not_in_the_model"]; ok {
			t.Errorf("a parameter outside the model reached the reply: %v", g)
		}
		tplEqual(t, "speaker", g["speaker"], a)
		tplEqual(t, "mix", g["mix"], mix)
		tplEqual(t, "dcs", g["dcs"], map[string]any{"mode": 1})
		members := g["invite_members"].([]any)
		if len(members) != 3 || members[0].(map[string]any)["bitrate"] != 2048.0 || members[1].(map[string]any)["bitrate"] != 1024.0 {
			t.Fatalf("invite_members = %v, want 3 with bitrates 2048 (default) and 1024", members)
		}

		// List: resolution is the main (first) video format's.
		l := testserver.MustOK(t, c.Do("GET", tplPath, nil))
		items := l["personal_templates"].([]any)
		if l["total"] != 1.0 || len(items) != 1 {
			t.Fatalf("list = %v", l)
		}
		it := items[0].(map[string]any)
		if it["template_id"] != id || it["name"] != "weekly" || it["resolution"] != 13.0 || it["e164"] != "1110000" || it["max_join_mt"] != 192.0 {
			t.Fatalf("list item = %v", it)
		}

		// Simple detail: settings and member counts.
		s := testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/simple", nil))
		for k, want := range map[string]any{"template_id": id, "name": "weekly", "e164": "1110000", "invite_num": 3.0,
			"mix_num": 2.0, "vmp_num": 2.0, "vip_num": 1.0, "poll_num": 3.0, "call_mode": 2.0} {
			if s[k] != want {
				t.Errorf("simple %s = %v, want %v", k, s[k], want)
			}
		}
		if _, ok := s["invite_members"]; ok {
			t.Errorf("simple detail carries the member list: %v", s)
		}

		// Member views: total counts the whole list, start and count page it.
		r := testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/invite_members", url.Values{"start": {"1"}, "count": {"1"}}))
		if r["template_id"] != id || r["total"] != 3.0 {
			t.Fatalf("invite_members = %v", r)
		}
		tplEqual(t, "invite_members page", r["invite_members"], []any{map[string]any{"name": "b", "account": "1000002", "account_type": 5, "protocol": 1}})
		r = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/invite_members", url.Values{"count": {"0"}}))
		if len(r["invite_members"].([]any)) != 3 {
			t.Fatalf("count 0 = %v, want all 3", r)
		}
		r = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/mix", url.Values{"start": {"1"}}))
		tplEqual(t, "mix view", r, map[string]any{"success": 1, "template_id": id, "total": 2, "mix": map[string]any{"mode": 2, "members": []any{b}}})
		r = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/vmp", url.Values{"count": {"1"}}))
		if r["total"] != 2.0 {
			t.Fatalf("vmp view = %v", r)
		}
		v := r["vmp"].(map[string]any)
		if v["layout"] != 2.0 || v["show_mt_name"] != 1.0 || len(v["members"].([]any)) != 1 || v["members"].([]any)[0].(map[string]any)["name"] != "a" {
			t.Fatalf("vmp view = %v", r)
		}
		r = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/poll", url.Values{"start": {"2"}, "count": {"5"}}))
		tplEqual(t, "poll view", r, map[string]any{"success": 1, "template_id": id, "total": 3,
			"poll": map[string]any{"mode": 3, "num": 0, "keep_time": 30, "members": []any{d}}})
		r = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/vip", nil))
		tplEqual(t, "vip view", r, map[string]any{"success": 1, "template_id": id, "total": 1, "vips": []any{d}})

		// Modify: the fields sent replace the stored ones, the others stay;
		// the template keeps its number while bind_e164 stays 1.
		r = testserver.MustOK(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("weekly 2", map[string]any{"bind_e164": 1, "bitrate": 4096}))))
		if r["template_id"] != id {
			t.Fatalf("modify reply = %v", r)
		}
		g = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id, nil))
		if g["name"] != "weekly 2" || g["bitrate"] != 4096.0 || g["password"] != "pw_1.2" || g["e164"] != "1110000" || g["encrypted_key"] != "key_1" {
			t.Fatalf("after modify: %v", g)
		}
		tplEqual(t, "mix after modify", g["mix"], mix)
		tplEqual(t, "vips after modify", g["vips"], []any{d})
		// bind_e164 0 frees the template of its number; 1 again takes a new one.
		testserver.MustOK(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("weekly 2", nil))))
		if g = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id, nil)); g["e164"] != "" {
			t.Fatalf("e164 with bind_e164 0 = %v", g["e164"])
		}
		testserver.MustOK(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("weekly 2", map[string]any{"bind_e164": 1}))))
		if g = testserver.MustOK(t, c.Do("GET", tplPath+"/"+id, nil)); g["e164"] != "1110001" {
			t.Fatalf("e164 after binding again = %v, want the next number 1110001", g["e164"])
		}

		// Delete (POST with _method=DELETE): then the template is gone.
		r = testserver.MustOK(t, c.Do("POST", tplPath+"/"+id+"?_method=DELETE", nil))
		if _, ok := r["template_id"]; ok {
			t.Fatalf("delete reply at 6.0.0.3.0 carries template_id (removed in 5.1.0.2.0): %v", r)
		}
		testserver.MustFail(t, c.Do("GET", tplPath+"/"+id, nil), 99998)
		testserver.MustFail(t, c.Do("GET", tplPath+"/"+id+"/simple", nil), 99998)
		testserver.MustFail(t, c.Do("DELETE", tplPath+"/"+id, nil), 99998)
		if l = testserver.MustOK(t, c.Do("GET", tplPath, nil)); l["total"] != 0.0 || len(l["personal_templates"].([]any)) != 0 {
			t.Fatalf("list after delete = %v", l)
		}
	})
}

func TestPersonalTemplateErrors(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		id := tplCreate(t, c, tplPersonalBody("board", map[string]any{"password": "secret"}))

		noName := tplPersonalBody("", nil)
		delete(noName, "name")
		for _, tc := range []struct {
			what  string
			body  map[string]any
			field string
		}{
			{"missing name", noName, "name"},
			{"blank name", tplPersonalBody("  ", nil), "name"},
			{"name of 65 bytes", tplPersonalBody(strings.Repeat("n", 65), nil), "name"},
			{"name of 66 bytes in 22 characters", tplPersonalBody(strings.Repeat("周", 22), nil), "name"},
			{"forbidden character", tplPersonalBody("a/b", nil), "name"},
			{"leading underscore", tplPersonalBody("_ab", nil), "name"},
			{"trailing @", tplPersonalBody("ab@", nil), "name"},
			{"password with a space", tplPersonalBody("ok", map[string]any{"password": "pass word"}), "password"},
			{"password of 33 bytes", tplPersonalBody("ok", map[string]any{"password": strings.Repeat("p", 33)}), "password"},
			{"AES key with a dash", tplPersonalBody("ok", map[string]any{"encrypted_key": "a-b"}), "encrypted_key"},
			{"participant above the conference bitrate", tplPersonalBody("ok", map[string]any{"invite_members": []any{
				map[string]any{"name": "a", "account": "1", "account_type": 5, "protocol": 0, "bitrate": 4096}}}), "invite_members[0].bitrate"},
			{"max_join_mt outside its values", tplPersonalBody("ok", map[string]any{"max_join_mt": 100}), "max_join_mt"},
		} {
			d := testserver.MustFail(t, c.Do("POST", tplPath, testserver.Params(t, tc.body)), wire.CodeInvalidParam)
			if !strings.Contains(d, "parameter "+tc.field+":") {
				t.Errorf("%s: description %q does not name %s", tc.what, d, tc.field)
			}
		}
		// A name of exactly 64 bytes is fine (21 three-byte characters + 1).
		tplCreate(t, c, tplPersonalBody(strings.Repeat("周", 21)+"x", nil))
		// The same name twice in the account's templates: 20105.
		testserver.MustFail(t, c.Do("POST", tplPath, testserver.Params(t, tplPersonalBody("board", nil))), 20105)
		other := tplCreate(t, c, tplPersonalBody("other", nil))
		testserver.MustFail(t, c.Do("POST", tplPath+"/"+other, testserver.Params(t, tplPersonalBody("board", nil))), 20105)
		// Renaming to its own name is no conflict.
		testserver.MustOK(t, c.Do("POST", tplPath+"/"+other, testserver.Params(t, tplPersonalBody("other", nil))))
		if l := testserver.MustOK(t, c.Do("GET", tplPath, nil)); l["total"] != 3.0 {
			t.Fatalf("rejected creations created something: %v", l)
		}
		// A rejected modification changes nothing.
		testserver.MustFail(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("board", map[string]any{"password": "bad pw", "bitrate": 64}))), wire.CodeInvalidParam)
		if g := testserver.MustOK(t, c.Do("GET", tplPath+"/"+id, nil)); g["password"] != "secret" || g["bitrate"] != 2048.0 {
			t.Fatalf("rejected modify changed the template: %v", g)
		}

		// Unknown ids: 99998 everywhere.
		for _, p := range []string{"", "/simple", "/invite_members", "/mix", "/vip", "/vmp", "/poll"} {
			testserver.MustFail(t, c.Do("GET", tplPath+"/9999999"+p, nil), 99998)
		}
		testserver.MustFail(t, c.Do("POST", tplPath+"/9999999", testserver.Params(t, tplPersonalBody("x", nil))), 99998)
		testserver.MustFail(t, c.Do("DELETE", tplPath+"/9999999", nil), 99998)

		// Another account of the same domain, and an account of another
		// domain, neither see nor change the template.
		carol := env.Account(t, auth.DefaultDomain, "carol", false)
		bob := env.Account(t, "other", "bob", true)
		for _, u := range []*testserver.Client{carol, bob} {
			if l := testserver.MustOK(t, u.Do("GET", tplPath, nil)); l["total"] != 0.0 {
				t.Fatalf("another account lists the template: %v", l)
			}
			for _, p := range []string{"", "/simple", "/invite_members", "/mix", "/vip", "/vmp", "/poll"} {
				testserver.MustFail(t, u.Do("GET", tplPath+"/"+id+p, nil), 99998)
			}
			testserver.MustFail(t, u.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("taken over", nil))), 99998)
			testserver.MustFail(t, u.Do("DELETE", tplPath+"/"+id, nil), 99998)
		}
		// Names are per account: carol may use "board" too.
		tplCreate(t, carol, tplPersonalBody("board", nil))
		if g := testserver.MustOK(t, c.Do("GET", tplPath+"/"+id, nil)); g["name"] != "board" || g["password"] != "secret" {
			t.Fatalf("the template changed: %v", g)
		}
	})
}

func tplNames(t testing.TB, l map[string]any, field string) string {
	t.Helper()
	var names []string
	for _, x := range l[field].([]any) {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	return strings.Join(names, ",")
}

func TestPersonalTemplatePagingAndOrder(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		ids := map[string]string{}
		for _, n := range []string{"A", "B", "C"} {
			ids[n] = tplCreate(t, c, tplPersonalBody(n, nil))
			env.Advance(t, time.Minute)
		}
		for _, tc := range []struct {
			q    url.Values
			want string
		}{
			{nil, "A,B,C"},
			{url.Values{"order": {"0"}}, "A,B,C"},
			{url.Values{"order": {"1"}}, "C,B,A"},
			{url.Values{"start": {"1"}, "count": {"1"}}, "B"},
			{url.Values{"start": {"1"}, "count": {"0"}}, "B,C"},
			{url.Values{"start": {"1"}, "count": {"1"}, "order": {"1"}}, "B"},
			{url.Values{"count": {"2"}, "order": {"1"}}, "C,B"},
			{url.Values{"start": {"5"}}, ""},
		} {
			l := testserver.MustOK(t, c.Do("GET", tplPath, tc.q))
			if got := tplNames(t, l, "personal_templates"); got != tc.want || l["total"] != 3.0 {
				t.Errorf("list %v = %s (total %v), want %s (total 3)", tc.q, got, l["total"], tc.want)
			}
		}
		// The order is by last modification.
		testserver.MustOK(t, c.Do("POST", tplPath+"/"+ids["A"], testserver.Params(t, tplPersonalBody("A", nil))))
		if got := tplNames(t, testserver.MustOK(t, c.Do("GET", tplPath, nil)), "personal_templates"); got != "B,C,A" {
			t.Fatalf("after modifying A: %s, want B,C,A", got)
		}
		// count defaults to 10.
		for i := 0; i < 9; i++ {
			tplCreate(t, c, tplPersonalBody("T"+strconv.Itoa(i), nil))
		}
		if l := testserver.MustOK(t, c.Do("GET", tplPath, nil)); l["total"] != 12.0 || len(l["personal_templates"].([]any)) != 10 {
			t.Fatalf("default page: total %v, %d items; want 12 and 10", l["total"], len(l["personal_templates"].([]any)))
		}
	})
}
