package mc_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/confer-platform/confer/internal/api"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Helpers of the conference tests (prefix cf).

const cfPath = "/api/v1/mc/confs"

// cfInstant returns the parameters of an instant conference (every
// parameter the reference stars) with extra merged over them.
func cfInstant(name string, extra map[string]any) map[string]any {
	p := map[string]any{
		"create_type": 1, "name": name, "duration": 0, "bitrate": 2048, "closed_conf": 0, "safe_conf": 0,
		"encrypted_type": 0, "conf_type": 0, "call_mode": 2, "call_times": 3, "call_interval": 20, "mute": 0,
		"silence": 0, "video_quality": 0, "encrypted_key": "", "dual_mode": 0, "voice_activity_detection": 0,
		"cascade_mode": 1, "cascade_upload": 1, "cascade_return": 0, "cascade_return_para": 0, "public_conf": 0,
		"max_join_mt": 8, "auto_end": 0, "preoccupy_resource": 0, "one_reforming": 0,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 2048}},
	}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

// cfCreate creates a conference and returns its conf_id.
func cfCreate(t testing.TB, c *testserver.Client, p map[string]any) string {
	t.Helper()
	body := testserver.MustOK(t, c.Do("POST", cfPath, testserver.Params(t, p)))
	id, _ := body["conf_id"].(string)
	if id == "" {
		t.Fatalf("no conf_id in %v", body)
	}
	return id
}

// cfGet reads a running conference through vc.
func cfGet(t testing.TB, c *testserver.Client, id string) map[string]any {
	t.Helper()
	return testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil))
}

// cfTotal returns total of a list reply.
func cfTotal(t testing.TB, r testserver.Reply) int {
	t.Helper()
	return int(testserver.MustOK(t, r)["total"].(float64))
}

func cfEqual(t testing.TB, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s = %s, want %s", what, g, w)
	}
}

// cfDomain returns the domain moid of an account.
func cfDomain(t testing.TB, env *testserver.Env, user string) store.Account {
	t.Helper()
	a, err := env.Store.AccountByUsername(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// cfRecord stores a template or room record directly.
func cfRecord(t testing.TB, env *testserver.Env, kind, id, domain, owner string, doc map[string]any) {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	now := env.Clock.Now()
	if err := env.Store.CreateRecord(context.Background(), store.Record{Kind: kind, ID: id, DomainMoid: domain,
		OwnerMoid: owner, Data: data, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
}

// cfStored reads a conference's stored document; nil when there is none.
func cfStored(t testing.TB, env *testserver.Env, domain, id string) map[string]any {
	t.Helper()
	rec, err := env.Store.GetRecord(context.Background(), record.KindConf, domain, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

var cfHex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

// An instant conference is created with the fields it was sent, numbered
// from the range, and visible through vc at once.
func TestConfCreateInstant(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"
		admin := cfDomain(t, env, testserver.AdminUser)
		p := cfInstant("weekly sync", map[string]any{
			"duration": 90, "closed_conf": 1, "password": "abc_123", "encrypted_type": 2, "encrypted_key": "key.1",
			"mute": 1, "dual_mode": 1, "voice_activity_detection": 1, "vacinterval": 15, "max_join_mt": 32,
			"auto_end": 1, "conf_level": 3, "enable_rtc": 1, "force_mute": 1,
			"invite_members": []any{
				map[string]any{"name": "hall", "account": "1234567", "account_type": 5, "protocol": 0},
				map[string]any{"name": "desk", "account": "10.0.0.8", "account_type": 7, "protocol": 1, "bitrate": 1024},
			},
			"vmp": map[string]any{"mode": 2, "layout": 5, "voice_hint": 0, "broadcast": 1, "show_mt_name": 1, "members": []any{}},
		})
		body := testserver.MustOK(t, c.Do("POST", cfPath, testserver.Params(t, p)))
		id := body["conf_id"].(string)
		if id != "1110000" {
			t.Errorf("first conf_id = %q, want 1110000 (the start of the default range)", id)
		}
		mid, _ := body["meeting_id"].(string)
		if !cfHex32.MatchString(mid) {
			t.Errorf("meeting_id = %q, want 32 hex digits", mid)
		}

		got := cfGet(t, c, id)
		for k, want := range map[string]any{
			"name": "weekly sync", "conf_id": id, "meeting_id": mid, "duration": 90, "bitrate": 2048,
			"closed_conf": 1, "encrypted_type": 2, "encrypted_key": "key.1", "mute": 1, "dual_mode": 1,
			"voice_activity_detection": 1, "vacinterval": 15, "max_join_mt": 32, "auto_end": 1, "conf_level": 3,
			"enable_rtc": 1, "force_mute": 1, "call_mode": 2, "call_times": 3, "call_interval": 20,
			"cascade_mode": 1, "need_password": 1, "vmp_enable": 1, "mix_enable": 0,
			"start_time": "2026-03-01T09:00:00+00:00", "end_time": "2026-03-01T10:30:00+00:00",
			"user_domain_moid": admin.DomainMoid, "user_domain_name": "default", "meeting_room_name": "",
			"platform_id": engine.PlatformID, "superior_cascade": 0,
			"creator":       map[string]any{"name": "admin", "account": admin.Moid, "account_type": 1, "telephone": "", "mobile": ""},
			"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 2048}},
		} {
			cfEqual(t, "vc info "+k, got[k], want)
		}
		list := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs", nil))
		cfEqual(t, "vc list total", list["total"], 1)
		first := list["confs"].([]any)[0].(map[string]any)
		cfEqual(t, "vc list conf_id", first["conf_id"], id)
		cfEqual(t, "vc list name", first["name"], "weekly sync")

		// The participants are kept as the terminals to call, with the
		// conference bitrate where they name none.
		doc := cfStored(t, env, admin.DomainMoid, id)
		cfEqual(t, "stored invite_members", doc["invite_members"], []any{
			map[string]any{"name": "hall", "account": "1234567", "account_type": 5, "protocol": 0, "bitrate": 2048},
			map[string]any{"name": "desk", "account": "10.0.0.8", "account_type": 7, "protocol": 1, "bitrate": 1024},
		})
		cfEqual(t, "stored invited_mt_num", doc["invited_mt_num"], 2)

		// The alias path of 5.1.0.4.0 creates too; numbers and meeting ids differ.
		body2 := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/conf", testserver.Params(t, cfInstant("second", nil))))
		if body2["conf_id"] != "1110001" || body2["meeting_id"] == mid {
			t.Errorf("second conference = %v", body2)
		}
	})
}

// Conferences from a public template, a personal template and a virtual
// meeting room take the source's fields, the parameters sent override
// them, and a bound number becomes the conference number.
func TestConfCreateFromSources(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		admin := cfDomain(t, env, testserver.AdminUser)
		vf := []any{map[string]any{"format": 5, "resolution": 13, "frame": 25, "bitrate": 4096}}
		cfRecord(t, env, record.KindPublicTemplate, "501", admin.DomainMoid, "", map[string]any{
			"template_id": "501", "name": "board", "bitrate": 4096, "duration": 60, "max_join_mt": 64, "mute": 1,
			"vacinterval": 5, "video_formats": vf,
		})
		cfRecord(t, env, record.KindPersonalTemplate, "9001", admin.DomainMoid, admin.Moid, map[string]any{
			"template_id": "9001", "name": "team", "bitrate": 1024, "bind_e164": 0, "e164": "", "max_join_mt": 8,
			"invite_members": []any{map[string]any{"name": "a", "account": "5550123", "account_type": 5, "protocol": 0, "bitrate": 512}},
		})
		cfRecord(t, env, record.KindPersonalTemplate, "9002", admin.DomainMoid, admin.Moid, map[string]any{
			"template_id": "9002", "name": "bound", "bitrate": 1024, "bind_e164": 1, "e164": "7770001", "max_join_mt": 8,
		})
		cfRecord(t, env, record.KindRoom, "8000001", admin.DomainMoid, "", map[string]any{
			"id": "8000001", "name": "Room A", "e164": "7770002", "bitrate": 2048, "max_join_mt": 32, "status": 0,
		})

		// Public template, with two parameters passed in real time.
		id := cfCreate(t, c, map[string]any{"create_type": 2, "template_id": "501", "name": "board live", "duration": 30})
		got := cfGet(t, c, id)
		for k, want := range map[string]any{"name": "board live", "bitrate": 4096, "duration": 30, "max_join_mt": 64,
			"mute": 1, "vacinterval": 5, "video_formats": vf, "end_time": "2026-03-01T09:30:00+00:00"} {
			cfEqual(t, "public template conference "+k, got[k], want)
		}
		// Personal template without a bound number: numbered from the range.
		id = cfCreate(t, c, map[string]any{"create_type": 3, "template_id": "9001"})
		if !strings.HasPrefix(id, "111") {
			t.Errorf("conf_id %s is not from the range", id)
		}
		got = cfGet(t, c, id)
		cfEqual(t, "personal template name", got["name"], "team")
		cfEqual(t, "personal template bitrate", got["bitrate"], 1024)
		cfEqual(t, "personal template participants", cfStored(t, env, admin.DomainMoid, id)["invite_members"],
			[]any{map[string]any{"name": "a", "account": "5550123", "account_type": 5, "protocol": 0, "bitrate": 512}})
		// A bound number is used, once.
		cfEqual(t, "bound conf_id", cfCreate(t, c, map[string]any{"create_type": 3, "template_id": "9002"}), "7770001")
		testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, map[string]any{"create_type": 3, "template_id": "9002"})), 20106)
		// Virtual meeting room.
		id = cfCreate(t, c, map[string]any{"create_type": 4, "template_id": "8000001", "bitrate": 1024})
		cfEqual(t, "room conf_id", id, "7770002")
		got = cfGet(t, c, id)
		cfEqual(t, "room conference name", got["name"], "Room A")
		cfEqual(t, "room conference meeting_room_name", got["meeting_room_name"], "Room A")
		cfEqual(t, "room conference bitrate", got["bitrate"], 1024)
		cfEqual(t, "room conference max_join_mt", got["max_join_mt"], 32)
		testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, map[string]any{"create_type": 4, "template_id": "8000001"})), 20106)

		before := cfTotal(t, c.Do("GET", "/api/v1/vc/confs", url.Values{"count": {"0"}}))
		// Not found, and another account's personal template.
		carol := env.Account(t, "default", "carol", false)
		for _, tc := range []struct {
			who  *testserver.Client
			p    map[string]any
			code int
		}{
			{c, map[string]any{"create_type": 2, "template_id": "404"}, 99998},
			{c, map[string]any{"create_type": 3, "template_id": "404"}, 99998},
			{c, map[string]any{"create_type": 4, "template_id": "404"}, 99996},
			{c, map[string]any{"create_type": 3, "template_id": "501"}, 99998}, // a public template is not personal
			{carol, map[string]any{"create_type": 3, "template_id": "9001"}, 99998},
		} {
			testserver.MustFail(t, tc.who.Do("POST", cfPath, testserver.Params(t, tc.p)), tc.code)
		}
		d := testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, map[string]any{"create_type": 2})), wire.CodeInvalidParam)
		if !strings.Contains(d, "template_id") {
			t.Errorf("description %q does not name template_id", d)
		}
		// Another domain sees none of them.
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("POST", cfPath, testserver.Params(t, map[string]any{"create_type": 2, "template_id": "501"})), 99998)
		testserver.MustFail(t, bob.Do("POST", cfPath, testserver.Params(t, map[string]any{"create_type": 4, "template_id": "8000001"})), 99996)
		cfEqual(t, "conferences after refusals", cfTotal(t, c.Do("GET", "/api/v1/vc/confs", url.Values{"count": {"0"}})), before)
	})
}

// Numbers come from the configured range, skip live conferences, and are
// free again once a conference ends.
func TestConfNumbering(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{
		Conference: engine.Config{NumberMin: 5550000, NumberMax: 5550002}})
	c := env.LoggedIn(t)
	var ids []string
	for i := 0; i < 3; i++ {
		ids = append(ids, cfCreate(t, c, cfInstant("n", nil)))
	}
	cfEqual(t, "numbers", ids, []string{"5550000", "5550001", "5550002"})
	d := testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant("n", nil))), api.CodeMaxConfs)
	if !strings.Contains(d, "5550000") {
		t.Errorf("description %q does not name the range", d)
	}
	testserver.MustOK(t, c.Do("DELETE", cfPath+"/5550001", nil))
	cfEqual(t, "reused number", cfCreate(t, c, cfInstant("n", nil)), "5550001")
}

// Beyond the configured conferences or terminal ports creation is refused
// and nothing is created.
func TestConfCapacity(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{
		Conference: engine.Config{MaxConfs: 2, MaxPorts: 100}})
	c := env.LoggedIn(t)
	// Ports reserved at once: preoccupy_resource 1 (issue 38 item 7).
	cfCreate(t, c, cfInstant("a", map[string]any{"max_join_mt": 64, "preoccupy_resource": 1}))
	testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant("b", map[string]any{"max_join_mt": 64, "preoccupy_resource": 1}))), wire.CodeNoConfResource)
	cfCreate(t, c, cfInstant("c", map[string]any{"max_join_mt": 32, "preoccupy_resource": 1}))
	testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant("d", map[string]any{"max_join_mt": 8}))), api.CodeMaxConfs)
	// A conference larger than the platform cannot even be booked.
	testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant("e", map[string]any{"max_join_mt": 192,
		"x_confer_start_time": "2026-03-02T09:00:00+00:00"}))), wire.CodeNoConfResource)
	cfEqual(t, "running", cfTotal(t, c.Do("GET", "/api/v1/vc/confs", nil)), 2)
	cfEqual(t, "booked", cfTotal(t, c.Do("GET", "/api/v1/mc/booked_confs", nil)), 0)
	_, total, err := env.Store.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindConf})
	if err != nil || total != 2 {
		t.Fatalf("stored conferences = %d, %v; want 2", total, err)
	}
}

// Ending: DELETE and its POST _method=DELETE form; 12103 for unknown,
// ended and other domains' conferences; only the creator or an
// administrator may end one.
func TestConfEnd(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		admin := cfDomain(t, env, testserver.AdminUser)
		id := cfCreate(t, c, cfInstant("to end", nil))
		cfEqual(t, "end", testserver.MustOK(t, c.Do("DELETE", cfPath+"/"+id, nil))["description"], "operation succeeded")
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
		cfEqual(t, "vc list after end", cfTotal(t, c.Do("GET", "/api/v1/vc/confs", nil)), 0)
		if doc := cfStored(t, env, admin.DomainMoid, id); doc != nil {
			t.Errorf("ended conference still stored: %v", doc)
		}
		testserver.MustFail(t, c.Do("DELETE", cfPath+"/"+id, nil), wire.CodeConfNotFound)
		testserver.MustFail(t, c.Do("DELETE", cfPath+"/424242", nil), wire.CodeConfNotFound)

		id = cfCreate(t, c, cfInstant("override", nil))
		testserver.MustOK(t, c.Do("POST", cfPath+"/"+id+"?_method=DELETE", nil))
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)

		// Another domain: does not exist for it, and stays running.
		id = cfCreate(t, c, cfInstant("mine", nil))
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("DELETE", cfPath+"/"+id, nil), wire.CodeConfNotFound)
		testserver.MustFail(t, bob.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
		cfEqual(t, "bob's list", cfTotal(t, bob.Do("GET", "/api/v1/vc/confs", nil)), 0)
		cfGet(t, c, id)
		// A user of the domain who did not create it may not end it.
		carol := env.Account(t, "default", "carol", false)
		testserver.MustFail(t, carol.Do("DELETE", cfPath+"/"+id, nil), wire.CodeNoPermission)
		cfGet(t, c, id)
		own := cfCreate(t, carol, cfInstant("carols", nil))
		testserver.MustOK(t, carol.Do("DELETE", cfPath+"/"+own, nil))
		// An administrator may end a conference of the domain.
		testserver.MustOK(t, c.Do("DELETE", cfPath+"/"+cfCreate(t, carol, cfInstant("by admin", nil)), nil))
	})
}

// duration ends the conference at its end time, exactly once, and frees
// its number.
func TestConfDurationEnds(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		timed := cfCreate(t, c, cfInstant("timed", map[string]any{"duration": 30}))
		permanent := cfCreate(t, c, cfInstant("permanent", nil))
		env.Advance(t, 29*time.Minute)
		cfGet(t, c, timed)
		env.Advance(t, time.Minute)
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+timed, nil), wire.CodeConfNotFound)
		testserver.MustFail(t, c.Do("DELETE", cfPath+"/"+timed, nil), wire.CodeConfNotFound)
		env.Advance(t, 24*time.Hour)
		c = env.LoggedIn(t) // the session expired meanwhile
		cfGet(t, c, permanent)
		cfEqual(t, "running", cfTotal(t, c.Do("GET", "/api/v1/vc/confs", nil)), 1)
		if doc := cfStored(t, env, cfDomain(t, env, "admin").DomainMoid, timed); doc != nil {
			t.Errorf("ended conference still holds its number")
		}
	})
}

// Parameters the schema cannot check.
func TestConfCreateValidation(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	noName := cfInstant("x", nil)
	delete(noName, "name")
	for _, tc := range []struct {
		p    map[string]any
		name string
	}{
		{noName, "name"},
		{cfInstant("_lead", nil), "name"},
		{cfInstant("a/b", nil), "name"},
		{cfInstant(strings.Repeat("n", 65), nil), "name"},
		{cfInstant("x", map[string]any{"password": "12345678901234567"}), "password"},
		{cfInstant("x", map[string]any{"password": "no spaces"}), "password"},
		{cfInstant("x", map[string]any{"duration": -5}), "duration"},
		{cfInstant("x", map[string]any{"x_confer_start_time": "tomorrow"}), "x_confer_start_time"},
		{cfInstant("x", map[string]any{"x_confer_start_time": 1772355600}), "x_confer_start_time"},
		{cfInstant("x", map[string]any{"platform_id": "elsewhere"}), "platform_id"},
		{cfInstant("x", map[string]any{"invite_members": []any{
			map[string]any{"name": "m", "account": "1234567", "account_type": 5, "protocol": 0, "bitrate": 4096},
		}}), "invite_members[0].bitrate"},
	} {
		d := testserver.MustFail(t, c.Do("POST", cfPath, testserver.Params(t, tc.p)), wire.CodeInvalidParam)
		if !strings.Contains(d, tc.name) {
			t.Errorf("description %q does not name %s", d, tc.name)
		}
	}
	cfEqual(t, "created", cfTotal(t, c.Do("GET", "/api/v1/vc/confs", nil)), 0)
	// The platform listed by mc.platforms.list is accepted; conf_type 4
	// (automatic, from 6.1.0.2.0) holds a traditional conference.
	c.Level = "3"
	id := cfCreate(t, c, cfInstant("x", map[string]any{"platform_id": engine.PlatformID, "conf_type": 4}))
	cfEqual(t, "conf_type of an automatic conference", cfGet(t, c, id)["conf_type"], 0)
}

// meeting_id joined the creation reply at 6.0.0.3.0 (API-Level 1).
func TestConfMeetingIDByRelease(t *testing.T) {
	old := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.2.0.4.0"})
	c := old.LoggedIn(t)
	body := testserver.MustOK(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant("old", nil))))
	if _, has := body["meeting_id"]; has || body["conf_id"] == nil {
		t.Errorf("5.2.0.4.0 reply = %v, want conf_id without meeting_id", body)
	}
	// The conference has one all the same: vc info carries it from 5.2.0.4.0.
	if !cfHex32.MatchString(cfGet(t, c, body["conf_id"].(string))["meeting_id"].(string)) {
		t.Errorf("vc info lacks meeting_id")
	}
	latest := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c = latest.LoggedIn(t) // no API-Level header: level 1
	body = testserver.MustOK(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant("new", nil))))
	if !cfHex32.MatchString(body["meeting_id"].(string)) {
		t.Errorf("level 1 reply = %v, want meeting_id", body)
	}
}
