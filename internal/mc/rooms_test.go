package mc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Helpers of the virtual meeting room tests (prefixed vmr: other test
// files of the package have their own).

const vmrPath = "/api/v1/mc/virtual_meeting_rooms"

// vmrJSON renders v as canonical JSON for comparisons.
func vmrJSON(t testing.TB, v any) string {
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

// vmrBody is the reference's create example with the name replaced and
// extra fields added or replaced.
func vmrBody(name string, extra map[string]any) map[string]any {
	b := map[string]any{
		"name": name, "bitrate": 2048,
		"video_formats": []any{
			map[string]any{"format": 4, "resolution": 3, "frame": 30, "bitrate": 8128},
			map[string]any{"format": 4, "resolution": 2, "frame": 30, "bitrate": 4096},
		},
		"audio_formats": []any{}, "conf_type": 1, "max_join_mt": 8, "cascade_mode": 1, "cascade_upload": 1,
		"cascade_return": 0, "cascade_return_para": 0, "mute": 0, "mute_filter": 0,
		"mix": map[string]any{"mode": 1}, "vmp": map[string]any{"mode": 2},
		"recorder":           map[string]any{"publish_mode": 0, "anonymous": 0, "dual_stream": 0, "recorder_mode": 1, "vrs_id": ""},
		"preoccupy_resource": 1, "encrypted_type": 2, "encrypted_auth": 0, "encrypted_key": "234556666",
		"dual_mode": 0, "call_mode": 0, "call_times": 0, "call_interval": 20, "voice_activity_detection": 1,
		"vacinterval": 5, "one_reforming": 0, "fec_mode": 0, "exclusive": 0,
		"exclusive_users": []any{map[string]any{"account": "353e285c-b0d8-42c4-b785-41d49ce1948e", "account_type": 1, "name": "llwu233"}},
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func vmrCreate(t testing.TB, c *testserver.Client, body map[string]any) string {
	t.Helper()
	return testserver.MustOK(t, c.Do("POST", vmrPath, testserver.Params(t, body)))["id"].(string)
}

// vmrNames lists the names of a list reply's rooms, comma separated.
func vmrNames(l map[string]any) string {
	var ns []string
	for _, x := range l["virtual_meeting_rooms"].([]any) {
		ns = append(ns, x.(map[string]any)["name"].(string))
	}
	return strings.Join(ns, ",")
}

func TestVirtualMeetingRoomLifecycle(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"

		created := testserver.MustOK(t, c.Do("POST", vmrPath, testserver.Params(t, vmrBody("Board room", nil))))
		id, _ := created["id"].(string)
		if n, err := strconv.Atoi(id); err != nil || n < 8000000 || n > 8999999 {
			t.Fatalf("room id %q is not a number of 8000000-8999999", id)
		}
		if created["description"] == "" {
			t.Fatalf("create reply %v has no description", created)
		}

		// The detail holds what was sent, the number, and the zero values
		// of what was not.
		g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
		e164, _ := g["e164"].(string)
		if n, err := strconv.Atoi(e164); err != nil || n < 1110000 || n > 1119999 {
			t.Fatalf("e164 %q is not in the conference number range", e164)
		}
		want := vmrBody("Board room", map[string]any{"e164": e164, "conf_name": "", "status": 0,
			"enable_rtc": 0, "public_conf": 0, "multi_stream": 0})
		delete(want, "success")
		got := map[string]any{}
		for k, v := range g {
			if k != "success" {
				got[k] = v
			}
		}
		if g, w := vmrJSON(t, got), vmrJSON(t, want); g != w {
			t.Fatalf("detail = %s\nwant     %s", g, w)
		}

		// A second room gets another id and number.
		env.Clock.Advance(time.Minute)
		id2 := vmrCreate(t, c, vmrBody("Huddle", map[string]any{"encrypted_type": 0, "encrypted_key": "secret",
			"video_formats": []any{map[string]any{"format": 5, "resolution": 13, "frame": 25, "bitrate": 1024}}}))
		g2 := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id2, nil))
		if id2 == id || g2["e164"] == e164 {
			t.Fatalf("second room %s/%v repeats the first %s/%s", id2, g2["e164"], id, e164)
		}
		if g2["encrypted_key"] != "" {
			t.Errorf("encrypted_key %v shown without AES encryption", g2["encrypted_key"])
		}

		// List: total, elements of the reference's shape, order, paging.
		l := testserver.MustOK(t, c.Do("GET", vmrPath, nil))
		if l["total"] != 2.0 || vmrNames(l) != "Board room,Huddle" {
			t.Fatalf("list = %s", vmrJSON(t, l))
		}
		first := l["virtual_meeting_rooms"].([]any)[0].(map[string]any)
		wantItem := map[string]any{"id": id, "name": "Board room", "bitrate": 2048, "exclusive": 0,
			"exclusive_users": vmrBody("", nil)["exclusive_users"], "e164": e164, "conf_name": "", "status": 0,
			"max_join_mt": 8, "resolution": 3, "encrypted_key": "234556666", "enable_rtc": 0}
		if g, w := vmrJSON(t, first), vmrJSON(t, wantItem); g != w {
			t.Fatalf("list item = %s\nwant        %s", g, w)
		}
		second := l["virtual_meeting_rooms"].([]any)[1].(map[string]any)
		if second["resolution"] != 13.0 || second["encrypted_key"] != "" {
			t.Errorf("second item = %v", second)
		}
		if l := testserver.MustOK(t, c.Do("GET", vmrPath, url.Values{"order": {"1"}})); vmrNames(l) != "Huddle,Board room" {
			t.Errorf("order=1: %s", vmrNames(l))
		}
		if l := testserver.MustOK(t, c.Do("GET", vmrPath, url.Values{"start": {"1"}, "count": {"1"}})); l["total"] != 2.0 || vmrNames(l) != "Huddle" {
			t.Errorf("start=1 count=1: %s", vmrJSON(t, l))
		}
		if l := testserver.MustOK(t, c.Do("GET", vmrPath, url.Values{"count": {"0"}})); vmrNames(l) != "Board room,Huddle" {
			t.Errorf("count=0: %s", vmrNames(l))
		}

		// Modify: sent fields replace the stored ones, the others stay; id
		// and number never change. The modified room is listed last.
		env.Clock.Advance(time.Minute)
		testserver.MustOK(t, c.Do("POST", vmrPath+"/"+id, testserver.Params(t, map[string]any{
			"name": "Board room 2", "max_join_mt": 32, "mute": 1, "mix": map[string]any{"mode": 1},
			"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 4096}},
		})))
		g = testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
		for k, w := range map[string]any{"name": "Board room 2", "max_join_mt": 32.0, "mute": 1.0, "cascade_mode": 1.0,
			"call_interval": 20.0, "e164": e164, "bitrate": 2048.0, "encrypted_key": "234556666"} {
			if g[k] != w {
				t.Errorf("after modify %s = %v, want %v", k, g[k], w)
			}
		}
		l = testserver.MustOK(t, c.Do("GET", vmrPath, nil))
		last := l["virtual_meeting_rooms"].([]any)[1].(map[string]any)
		if vmrNames(l) != "Huddle,Board room 2" || last["resolution"] != 12.0 || last["id"] != id {
			t.Errorf("list after modify = %s", vmrJSON(t, l))
		}

		// Delete, also with _method=DELETE; then the room is gone.
		testserver.MustOK(t, c.Do("DELETE", vmrPath+"/"+id, nil))
		testserver.MustFail(t, c.Do("GET", vmrPath+"/"+id, nil), 99996)
		testserver.MustFail(t, c.Do("DELETE", vmrPath+"/"+id, nil), 99996)
		testserver.MustFail(t, c.Do("POST", vmrPath+"/"+id, testserver.Params(t, vmrBody("x", nil))), 99996)
		testserver.MustOK(t, c.Do("POST", vmrPath+"/"+id2+"?_method=DELETE", nil))
		if l := testserver.MustOK(t, c.Do("GET", vmrPath, nil)); l["total"] != 0.0 || len(l["virtual_meeting_rooms"].([]any)) != 0 {
			t.Errorf("list after delete = %s", vmrJSON(t, l))
		}
	})
}

func TestVirtualMeetingRoomErrors(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		id := vmrCreate(t, admin, vmrBody("Board", nil))
		id2 := vmrCreate(t, admin, vmrBody("Huddle", nil))
		before := testserver.MustOK(t, admin.Do("GET", vmrPath+"/"+id, nil))

		// Names are unique within the domain (99995), on create and modify;
		// a room keeps its own name.
		d := testserver.MustFail(t, admin.Do("POST", vmrPath, testserver.Params(t, vmrBody("Board", nil))), 99995)
		if !strings.Contains(d, `"Board"`) {
			t.Errorf("description %q does not name the room", d)
		}
		testserver.MustFail(t, admin.Do("POST", vmrPath+"/"+id2, testserver.Params(t, vmrBody("Board", nil))), 99995)
		testserver.MustOK(t, admin.Do("POST", vmrPath+"/"+id, testserver.Params(t, vmrBody("Board", nil))))

		// What the schema cannot say: name characters and length, key.
		for _, tc := range []struct {
			body  map[string]any
			field string
		}{
			{vmrBody("a/b", nil), "name"},
			{vmrBody("_edge", nil), "name"},
			{vmrBody(strings.Repeat("x", 65), nil), "name"},
			{vmrBody("ok", map[string]any{"encrypted_key": "bad key!"}), "encrypted_key"},
			{vmrBody("ok", map[string]any{"encrypted_key": strings.Repeat("k", 17)}), "encrypted_key"},
			{vmrBody("ok", map[string]any{"max_join_mt": 7}), "max_join_mt"},
			{map[string]any{"name": "ok", "max_join_mt": 8}, "video_formats"},
		} {
			d := testserver.MustFail(t, admin.Do("POST", vmrPath, testserver.Params(t, tc.body)), wire.CodeInvalidParam)
			if !strings.Contains(d, "parameter "+tc.field) {
				t.Errorf("description %q does not name %s", d, tc.field)
			}
			testserver.MustFail(t, admin.Do("POST", vmrPath+"/"+id, testserver.Params(t, tc.body)), wire.CodeInvalidParam)
		}
		if g := testserver.MustOK(t, admin.Do("GET", vmrPath+"/"+id, nil)); vmrJSON(t, g) != vmrJSON(t, before) {
			t.Fatalf("refused modifications changed the room: %s", vmrJSON(t, g))
		}
		if l := testserver.MustOK(t, admin.Do("GET", vmrPath, nil)); l["total"] != 2.0 {
			t.Fatalf("refused creations created rooms: %s", vmrJSON(t, l))
		}
		testserver.MustFail(t, admin.Do("GET", vmrPath+"/8999999", nil), 99996)
		testserver.MustFail(t, admin.Do("GET", vmrPath+"/nope", nil), 99996)

		// A user of the domain reads, but only administrators change (20005).
		user := env.Account(t, auth.DefaultDomain, "carol", false)
		if g := testserver.MustOK(t, user.Do("GET", vmrPath+"/"+id, nil)); g["name"] != "Board" {
			t.Errorf("user detail = %v", g)
		}
		if l := testserver.MustOK(t, user.Do("GET", vmrPath, nil)); l["total"] != 2.0 {
			t.Errorf("user list = %v", l)
		}
		testserver.MustFail(t, user.Do("POST", vmrPath, testserver.Params(t, vmrBody("Mine", nil))), wire.CodeNoPermission)
		testserver.MustFail(t, user.Do("POST", vmrPath+"/"+id, testserver.Params(t, vmrBody("Mine", nil))), wire.CodeNoPermission)
		testserver.MustFail(t, user.Do("DELETE", vmrPath+"/"+id, nil), wire.CodeNoPermission)

		// Another domain sees nothing and changes nothing (99996), and may
		// use the same names.
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("GET", vmrPath+"/"+id, nil), 99996)
		testserver.MustFail(t, bob.Do("POST", vmrPath+"/"+id, testserver.Params(t, vmrBody("Stolen", nil))), 99996)
		testserver.MustFail(t, bob.Do("DELETE", vmrPath+"/"+id, nil), 99996)
		if l := testserver.MustOK(t, bob.Do("GET", vmrPath, nil)); l["total"] != 0.0 {
			t.Fatalf("other domain lists %s", vmrJSON(t, l))
		}
		bobRoom := vmrCreate(t, bob, vmrBody("Board", nil))
		if l := testserver.MustOK(t, bob.Do("GET", vmrPath, nil)); l["total"] != 1.0 || vmrNames(l) != "Board" {
			t.Fatalf("other domain lists %s", vmrJSON(t, l))
		}
		testserver.MustFail(t, admin.Do("GET", vmrPath+"/"+bobRoom, nil), 99996)
		if g := testserver.MustOK(t, admin.Do("GET", vmrPath+"/"+id, nil)); vmrJSON(t, g) != vmrJSON(t, before) {
			t.Fatalf("room changed by others: %s", vmrJSON(t, g))
		}
	})
}

// A room that a running conference was made from (create_type 4) is in
// use: detail and list say so, and it cannot be deleted (99991) until the
// conference ends.
func TestVirtualMeetingRoomInUse(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	id := vmrCreate(t, c, vmrBody("Board", nil))
	ctx := context.Background()
	dom, err := env.Store.DomainByName(ctx, auth.DefaultDomain)
	if err != nil {
		t.Fatal(err)
	}
	now := env.Clock.Now()
	conf := store.Record{Kind: record.KindConf, ID: "1110999", DomainMoid: dom.Moid, State: engine.StateRunning,
		Data: []byte(`{"name":"Weekly","create_type":4,"template_id":"` + id + `","meeting_id":"mt-1"}`), CreatedAt: now, UpdatedAt: now}
	if err := env.Store.CreateRecord(ctx, conf); err != nil {
		t.Fatal(err)
	}
	g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
	it := testserver.MustOK(t, c.Do("GET", vmrPath, nil))["virtual_meeting_rooms"].([]any)[0].(map[string]any)
	for _, m := range []map[string]any{g, it} {
		if m["status"] != 1.0 || m["conf_name"] != "Weekly" {
			t.Fatalf("room in use shows status %v, conf_name %v", m["status"], m["conf_name"])
		}
	}
	testserver.MustFail(t, c.Do("DELETE", vmrPath+"/"+id, nil), 99991)
	testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))

	conf.State = engine.StateEnded
	if err := env.Store.UpdateRecord(ctx, conf, ""); err != nil {
		t.Fatal(err)
	}
	if g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil)); g["status"] != 0.0 || g["conf_name"] != "" {
		t.Fatalf("idle room shows status %v, conf_name %v", g["status"], g["conf_name"])
	}
	testserver.MustOK(t, c.Do("DELETE", vmrPath+"/"+id, nil))
}

// enable_rtc, public_conf and multi_stream exist from 6.1.0.4.0 (seed 001;
// API-Level 3): kept and shown at level 3, absent at level 1, and a level 1
// modification leaves them as they were.
func TestVirtualMeetingRoomAPILevels(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	c.Level = "3"
	id := vmrCreate(t, c, vmrBody("RTC", map[string]any{"enable_rtc": 1, "public_conf": 1, "multi_stream": 1}))
	fields := []string{"enable_rtc", "public_conf", "multi_stream"}
	check := func(level string, want float64) {
		t.Helper()
		c.Level = level
		g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
		it := testserver.MustOK(t, c.Do("GET", vmrPath, nil))["virtual_meeting_rooms"].([]any)[0].(map[string]any)
		for _, f := range fields {
			v, ok := g[f]
			lv, lok := it[f]
			switch {
			case level == "1" && (ok || lok):
				t.Errorf("level 1 shows %s (detail %v, list %v)", f, v, lv)
			case level == "3" && v != want:
				t.Errorf("level 3 detail %s = %v, want %v", f, v, want)
			case level == "3" && f == "enable_rtc" && lv != want:
				t.Errorf("level 3 list enable_rtc = %v, want %v", lv, want)
			case level == "3" && f != "enable_rtc" && lok:
				t.Errorf("level 3 list carries %s", f)
			}
		}
		c.Level = "3"
	}
	check("3", 1)
	check("1", 0)

	// Level 1 (no header): the fields are not part of the request; a
	// modification keeps them and a creation leaves them 0.
	c.Level = ""
	testserver.MustOK(t, c.Do("POST", vmrPath+"/"+id, testserver.Params(t, vmrBody("RTC", map[string]any{"enable_rtc": 0, "multi_stream": 0, "mute": 1}))))
	check("3", 1)
	c.Level = ""
	id = vmrCreate(t, c, vmrBody("Old client", map[string]any{"enable_rtc": 1, "public_conf": 1}))
	c.Level = "3"
	g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
	if g["enable_rtc"] != 0.0 || g["public_conf"] != 0.0 {
		t.Fatalf("level 1 creation kept enable_rtc %v, public_conf %v", g["enable_rtc"], g["public_conf"])
	}
	// Level 3 modifies them.
	testserver.MustOK(t, c.Do("POST", vmrPath+"/"+id, testserver.Params(t, vmrBody("Old client", map[string]any{"enable_rtc": 1}))))
	if g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil)); g["enable_rtc"] != 1.0 || g["public_conf"] != 0.0 {
		t.Fatalf("after level 3 modify: enable_rtc %v, public_conf %v", g["enable_rtc"], g["public_conf"])
	}
}

// Virtual meeting rooms arrive with 5.2.0.2.0 (seed 001).
func TestVirtualMeetingRoomsRelease(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.1.0.4.0"})
	c := env.LoggedIn(t)
	testserver.MustFail(t, c.Do("GET", vmrPath, nil), wire.CodeNotSupported)
	testserver.MustFail(t, c.Do("POST", vmrPath, testserver.Params(t, vmrBody("x", nil))), wire.CodeNotSupported)

	env = testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.2.0.2.0"})
	c = env.LoggedIn(t)
	id := vmrCreate(t, c, vmrBody("Early", map[string]any{"enable_rtc": 1}))
	g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
	if _, ok := g["enable_rtc"]; ok || g["name"] != "Early" {
		t.Fatalf("5.2.0.2.0 detail = %v", g)
	}
}

// Creations of one name at once keep at most one room; the others are
// refused with 99995 and leave nothing.
func TestVirtualMeetingRoomConcurrentNames(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		const n = 8
		codes := make(chan int, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes <- c.Do("POST", vmrPath, testserver.Params(t, vmrBody("Same", nil))).Code()
			}()
		}
		wg.Wait()
		close(codes)
		ok := 0
		for code := range codes {
			switch code {
			case -1:
				ok++
			case mc.CodeRoomNameExists:
			default:
				t.Errorf("concurrent create answered %d", code)
			}
		}
		t.Logf("%d of %d concurrent creations kept", ok, n)
		if l := testserver.MustOK(t, c.Do("GET", vmrPath, nil)); ok > 1 || l["total"] != float64(ok) {
			t.Fatalf("%d creations succeeded; list %s", ok, vmrJSON(t, l))
		}
	})
}

// Round trip through the real endpoints: a room made over the API becomes
// a conference (create_type 4), is in use while it runs, and the
// conference's meeting takes files; once the conference ends the room is
// idle and can go, and the files stay reachable.
func TestVirtualMeetingRoomConferenceRoundTrip(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	id := vmrCreate(t, c, vmrBody("Round trip", map[string]any{"max_join_mt": 32}))
	room := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
	conf := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 4, "template_id": id})))
	confID, _ := conf["conf_id"].(string)
	meetingID, _ := conf["meeting_id"].(string)
	if confID != room["e164"] || meetingID == "" {
		t.Fatalf("conference from the room: %v (room number %v)", conf, room["e164"])
	}
	g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil))
	if g["status"] != 1.0 || g["conf_name"] != "Round trip" {
		t.Fatalf("room while its conference runs: status %v, conf_name %v", g["status"], g["conf_name"])
	}
	testserver.MustFail(t, c.Do("DELETE", vmrPath+"/"+id, nil), mc.CodeRoomInUse)

	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("account_token", c.Token)
	fw, _ := w.CreateFormFile("file", "agenda.pdf")
	fw.Write([]byte("%PDF-1.4 agenda"))
	w.Close()
	req, _ := http.NewRequest("POST", env.URL+"/api/v1/mc/meeting_files/"+meetingID, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	f := testserver.MustOK(t, c.Send(req))["meeting_file"].(map[string]any)
	if f["meeting_id"] != meetingID || f["file_name"] != "agenda.pdf" {
		t.Fatalf("meeting_file = %v", f)
	}

	testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+confID, nil))
	if g := testserver.MustOK(t, c.Do("GET", vmrPath+"/"+id, nil)); g["status"] != 0.0 || g["conf_name"] != "" {
		t.Fatalf("room after its conference ended: status %v, conf_name %v", g["status"], g["conf_name"])
	}
	testserver.MustOK(t, c.Do("DELETE", vmrPath+"/"+id, nil))
	l := testserver.MustOK(t, c.Do("GET", "/api/v1/mc/meeting_files/"+meetingID, nil))
	if l["total"] != 1.0 {
		t.Fatalf("files of the ended conference: %s", vmrJSON(t, l))
	}
}
