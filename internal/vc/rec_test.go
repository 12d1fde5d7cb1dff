package vc_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/wire"
)

// tlVRS reads the vrs_id of the caller's user domain.
func tlVRS(t *testing.T, c *testserver.Client) string {
	t.Helper()
	l := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)
	if len(l) != 1 {
		t.Fatalf("vrs list = %v, want one server", l)
	}
	return l[0].(map[string]any)["vrs_id"].(string)
}

// tlRec is the parameters of a recording.
func tlRec(name, vrsID string, recType int, members ...string) map[string]any {
	return map[string]any{"video_name": name, "recorder_type": recType, "publish_mode": 0, "watermark": 1,
		"anonymous": 0, "recorder_mode": 1, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": tlMembers(members...)}
}

// tlProgram reads a program record of the recording system.
func tlProgram(t *testing.T, k tlConf, id string) map[string]any {
	t.Helper()
	rec, err := k.env.Store.GetRecord(context.Background(), vc.KindProgram, k.domain, id)
	if err != nil {
		t.Fatalf("program %s: %v", id, err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// The recording server list has one server per domain with a fixed id.
func TestVRSList(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	got := testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/vrs", nil))
	vrs := got["vrs"].([]any)[0].(map[string]any)
	tlEq(t, "vrs fields", []any{vrs["operator"], vrs["ip"], vrs["port"]}, []any{"", "127.0.0.1", 8070})
	if id := vrs["vrs_id"].(string); len(id) != 36 || strings.Count(id, "-") != 4 {
		t.Errorf("vrs_id %q is not a UUID", id)
	}
	bob := env.Account(t, "other", "bob", true)
	if tlVRS(t, bob) == tlVRS(t, admin) {
		t.Errorf("two domains share a recording server")
	}
	if tlVRS(t, admin) != vrs["vrs_id"] {
		t.Errorf("the vrs_id changed between two reads")
	}
}

// A recording runs with the clock minus its pauses, refuses bad names,
// unknown servers and terminals, and a second conference recording;
// stopped, it becomes a program of the domain.
func TestRecording(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		k := tlStart(t, env, admin, 2, 1) // 1, 2 online; 3 offline
		vrsID := tlVRS(t, admin)

		for _, tc := range []struct {
			code int
			p    map[string]any
		}{
			{24103, tlRec("a/b", vrsID, 1)},
			{24103, tlRec("_ab", vrsID, 1)},
			{24103, tlRec("ab.", vrsID, 1)},
			{24026, tlRec(strings.Repeat("x", 65), vrsID, 1)},
			{24104, tlRec("weekly", "81dac790-056b-40ea-8e52-05547bb656d9", 1)},
			{wire.CodeInvalidParam, tlRec("weekly", vrsID, 2)},
			{wire.CodeMTNotFound, tlRec("weekly", vrsID, 2, "9")},
			{20401, tlRec("weekly", vrsID, 2, "3")},
			{wire.CodeInvalidParam, tlRec(" ", vrsID, 1)},
		} {
			k.fail(t, tc.code, "POST", "/recorders", tc.p)
		}
		testserver.MustFail(t, admin.Do("POST", "/api/v1/vc/confs/999999/recorders", testserver.Params(t, tlRec("weekly", vrsID, 1))), wire.CodeConfNotFound)
		tlEq(t, "recorders after refusals", k.ok(t, "GET", "/recorders", nil)["recorders"], []any{})

		confRec := k.ok(t, "POST", "/recorders", tlRec("weekly", vrsID, 1))["rec_id"].(string)
		k.fail(t, 20801, "POST", "/recorders", tlRec("again", vrsID, 1))
		k.fail(t, 24105, "POST", "/recorders", tlRec("weekly", vrsID, 2, "1"))
		mtRec := k.ok(t, "POST", "/recorders", tlRec("desk-1", vrsID, 2, "1"))["rec_id"].(string)
		if confRec == mtRec {
			t.Fatalf("two recordings share rec_id %s", confRec)
		}
		k.fail(t, 20807, "POST", "/recorders", tlRec("desk-1b", vrsID, 2, "2", "1"))
		tlEq(t, "rec flag of a recorded terminal", k.mt(t, "1")["rec"], 1)
		tlEq(t, "rec flag of another terminal", k.mt(t, "2")["rec"], 0)

		env.Advance(t, 30*time.Second)
		list := k.ok(t, "GET", "/recorders", nil)["recorders"].([]any)
		tlEq(t, "recorders", list, []any{
			map[string]any{"rec_id": confRec, "video_name": "weekly", "recorder_type": 1, "state": 1, "anonymous": 0, "recorder_mode": 1,
				"main_stream": 1, "dual_stream": 0, "publish_mode": 0, "watermark": 1, "current_progress": 30, "members": []any{}},
			map[string]any{"rec_id": mtRec, "video_name": "desk-1", "recorder_type": 2, "state": 1, "anonymous": 0, "recorder_mode": 1,
				"main_stream": 1, "dual_stream": 0, "publish_mode": 0, "watermark": 1, "current_progress": 30,
				"members": []any{map[string]any{"mt_id": "1"}}},
		})
		k.fail(t, 20803, "PUT", "/recorders/"+confRec+"/state", map[string]any{"value": 2, "recorder_mode": 1})
		k.ok(t, "PUT", "/recorders/"+confRec+"/state", map[string]any{"value": 1, "recorder_mode": 1})
		k.ok(t, "PUT", "/recorders/"+confRec+"/state", map[string]any{"value": 1, "recorder_mode": 1})
		env.Advance(t, 20*time.Second)
		got := k.ok(t, "GET", "/recorders/"+confRec, nil)
		tlEq(t, "paused", []any{got["state"], got["current_progress"]}, []any{2, 30})
		k.ok(t, "PUT", "/recorders/"+confRec+"/state", map[string]any{"value": 2, "recorder_mode": 1})
		env.Advance(t, 10*time.Second)
		got = k.ok(t, "GET", "/recorders/"+confRec, nil)
		tlEq(t, "resumed", []any{got["state"], got["current_progress"]}, []any{1, 40})
		tlEq(t, "terminal recording", k.ok(t, "GET", "/recorders/"+mtRec, nil)["current_progress"], 60)

		for _, m := range []string{"GET", "DELETE"} {
			k.fail(t, 20802, m, "/recorders/777777", map[string]any{"recorder_mode": 1})
		}
		k.fail(t, 20802, "PUT", "/recorders/777777/state", map[string]any{"value": 1, "recorder_mode": 1})
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("GET", k.path("/recorders"), nil), wire.CodeConfNotFound)
		testserver.MustFail(t, tlDelete(t, env, bob, k.path("/recorders/"+confRec), map[string]any{"recorder_mode": 1}), wire.CodeConfNotFound)

		k.ok(t, "DELETE", "/recorders/"+confRec, map[string]any{"recorder_mode": 1})
		k.fail(t, 20802, "GET", "/recorders/"+confRec, nil)
		if l := k.ok(t, "GET", "/recorders", nil)["recorders"].([]any); len(l) != 1 {
			t.Fatalf("recorders after a stop: %v", l)
		}
		prg := tlProgram(t, k, confRec)
		for key, want := range map[string]any{"name": "weekly", "duration": 40, "size": 1024 * 1000 / 8 * 40, "conf_id": k.id,
			"vrs_id": vrsID, "create_time": "2026-03-01T09:01:03+00:00", "start_time": "2026-03-01T09:00:03+00:00"} {
			tlEq(t, "program "+key, prg[key], want)
		}
		k.fail(t, 24105, "POST", "/recorders", tlRec("weekly", vrsID, 1)) // the program keeps the name
		k.ok(t, "DELETE", "/recorders/"+mtRec, map[string]any{"recorder_mode": 1})
		tlEq(t, "rec flag after the stop", k.mt(t, "1")["rec"], 0)
		tlEq(t, "terminal program", tlProgram(t, k, mtRec)["duration"], 60)

		// A live broadcast keeps no file; a recording running when the
		// conference ends becomes a program.
		live := tlRec("live", vrsID, 1)
		live["recorder_mode"] = 2
		liveID := k.ok(t, "POST", "/recorders", live)["rec_id"].(string)
		k.ok(t, "DELETE", "/recorders/"+liveID, map[string]any{"recorder_mode": 2})
		if _, err := env.Store.GetRecord(context.Background(), vc.KindProgram, k.domain, liveID); err == nil {
			t.Errorf("a live broadcast left a program")
		}
		last := k.ok(t, "POST", "/recorders", tlRec("last", vrsID, 1))["rec_id"].(string)
		env.Advance(t, 12*time.Second)
		node := tlSecondNode(env)
		atEnd := node.conf(t, k)
		testserver.MustOK(t, admin.Do("DELETE", "/api/v1/mc/confs/"+k.id, nil))
		if err := node.mod.TimelineEnded(context.Background(), atEnd); err != nil {
			t.Fatal(err)
		}
		tlEq(t, "program of the ended conference", tlProgram(t, k, last)["duration"], 12)
	})
}

// A running recording stored in another form than this release writes
// (an older release's, a hand edit: here only its rec_id) is listed with
// the members it has and the others at the platform's defaults (0, "",
// no terminals, no progress without a start), and a write that does not
// touch it keeps it as it was stored.
func TestRecordingOfAnotherForm(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 2, 0)
	ctx := context.Background()
	rec, err := env.Store.GetRecord(ctx, record.KindConf, k.domain, k.id)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	doc["vc_recorders"] = []any{map[string]any{"rec_id": "1"}}
	if rec.Data, err = shape.Encode(doc); err != nil {
		t.Fatal(err)
	}
	if err := env.Store.UpdateRecord(ctx, rec, ""); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"rec_id": "1", "video_name": "", "recorder_type": 0, "state": 0, "anonymous": 0, "recorder_mode": 0,
		"main_stream": 0, "dual_stream": 0, "publish_mode": 0, "watermark": 0, "current_progress": 0, "members": []any{}}
	tlEq(t, "recorders", k.ok(t, "GET", "/recorders", nil)["recorders"], []any{want})
	delete(want, "rec_id")
	want["success"] = 1
	tlEq(t, "recorder 1", k.ok(t, "GET", "/recorders/1", nil), want)
	k.ok(t, "PUT", "/speaker", map[string]any{"mt_id": "1"})
	tlEq(t, "stored recorders after another write", k.doc(t)["vc_recorders"], []any{map[string]any{"rec_id": "1"}})
}

// A running recording stored with a member of another type (a hand edit:
// rec_id as a number) is read leniently, as its decimal string, and the
// list answers it beside the others, where the whole list was left
// unread and answered []; an element unreadable even so (not an object)
// is skipped. The next write stores the list in this release's form
// (engine/own_rec.go, readRecordingLenient).
func TestRecordingOfWrongType(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	k := tlStart(t, env, admin, 2, 0)
	vrsID := tlVRS(t, admin)
	first := k.ok(t, "POST", "/recorders", tlRec("first", vrsID, 1))["rec_id"].(string)
	second := k.ok(t, "POST", "/recorders", tlRec("second", vrsID, 2, "1"))["rec_id"].(string)
	ctx := context.Background()
	rec, err := env.Store.GetRecord(ctx, record.KindConf, k.domain, k.id)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	l := doc["vc_recorders"].([]any)
	n, _ := strconv.Atoi(first)
	l[0].(map[string]any)["rec_id"] = n
	doc["vc_recorders"] = append(l, "not a recording")
	if rec.Data, err = shape.Encode(doc); err != nil {
		t.Fatal(err)
	}
	if err := env.Store.UpdateRecord(ctx, rec, ""); err != nil {
		t.Fatal(err)
	}
	var ids []any
	for _, e := range k.ok(t, "GET", "/recorders", nil)["recorders"].([]any) {
		ids = append(ids, e.(map[string]any)["rec_id"])
	}
	tlEq(t, "rec_ids listed", ids, []any{first, second})
	tlEq(t, "first's name", k.ok(t, "GET", "/recorders/"+first, nil)["video_name"], "first")
	k.ok(t, "PUT", "/recorders/"+first+"/state", map[string]any{"value": 1, "recorder_mode": 1})
	var stored []any
	for _, e := range k.doc(t)["vc_recorders"].([]any) {
		stored = append(stored, e.(map[string]any)["rec_id"])
	}
	tlEq(t, "stored rec_ids after a write", stored, []any{first, second})
}
