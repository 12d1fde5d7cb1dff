package vc_test

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// tlPollAt reads a poll's state, poll_index and current terminal.
func tlPollAt(t *testing.T, k tlConf, suffix string) (int, int, string) {
	t.Helper()
	p := k.ok(t, "GET", suffix, nil)
	cur, _ := p["cur_poll_mt"].(map[string]any)
	id, _ := cur["mt_id"].(string)
	return int(p["state"].(float64)), int(p["poll_index"].(float64)), id
}

func tlWantPoll(t *testing.T, k tlConf, suffix string, state, index int, mtID string) {
	t.Helper()
	s, i, id := tlPollAt(t, k, suffix)
	if s != state || i != index || id != mtID {
		t.Fatalf("%s: state %d, poll_index %d, cur_poll_mt %q; want %d, %d, %q", suffix, s, i, id, state, index, mtID)
	}
}

func tlMembers(ids ...string) []any {
	var out []any
	for _, id := range ids {
		out = append(out, map[string]any{"mt_id": id})
	}
	return out
}

// The conference poll moves through its members with the clock, skips
// the offline one, pauses and resumes, and stops after num rounds; its
// start refuses what is not a poll of the conference's terminals.
func TestConfPoll(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		k := tlStart(t, env, env.LoggedIn(t), 3, 1) // 1 to 3 online, 4 offline
		node := tlSecondNode(env)

		got := k.ok(t, "GET", "/poll", nil)
		tlEq(t, "poll before a start", got, map[string]any{"success": 1, "mode": 0, "state": 0, "num": 0, "keep_time": 0,
			"poll_index": 0, "cur_poll_mt": map[string]any{"mt_id": ""}, "members": []any{}})

		start := func(extra map[string]any) map[string]any {
			p := map[string]any{"mode": 1, "num": 2, "keep_time": 10, "members": tlMembers("1", "4", "2", "3")}
			for key, v := range extra {
				p[key] = v
			}
			return p
		}
		for _, tc := range []struct {
			code  int
			extra map[string]any
		}{
			{wire.CodeMTNotFound, map[string]any{"members": tlMembers("1", "99")}},
			{20524, map[string]any{"members": tlMembers("4")}},
			{wire.CodeInvalidParam, map[string]any{"poll_index": 5}},
			{wire.CodeInvalidParam, map[string]any{"keep_time": 0}},
			{wire.CodeInvalidParam, map[string]any{"num": -1}},
			{wire.CodeInvalidParam, map[string]any{"members": tlMembers("1", "1")}},
			{wire.CodeInvalidParam, map[string]any{"members": []any{}}},
			{wire.CodeInvalidParam, map[string]any{"mode": 2}},
		} {
			k.fail(t, tc.code, "PUT", "/poll", start(tc.extra))
		}
		testserver.MustFail(t, k.c.Do("PUT", "/api/v1/vc/confs/999999/poll", testserver.Params(t, start(nil))), wire.CodeConfNotFound)
		bob := env.Account(t, "other", "bob", true)
		testserver.MustFail(t, bob.Do("PUT", k.path("/poll"), testserver.Params(t, start(nil))), wire.CodeConfNotFound)
		testserver.MustFail(t, bob.Do("GET", k.path("/poll"), nil), wire.CodeConfNotFound)
		k.fail(t, 20527, "PUT", "/poll/state", map[string]any{"value": 1, "mode": 1})
		tlWantPoll(t, k, "/poll", 0, 0, "")

		k.ok(t, "PUT", "/poll", start(nil))
		got = k.ok(t, "GET", "/poll", nil)
		tlEq(t, "poll", got, map[string]any{"success": 1, "mode": 1, "state": 1, "num": 2, "keep_time": 10, "poll_index": 1,
			"cur_poll_mt": map[string]any{"mt_id": "1"}, "members": []any{
				map[string]any{"account": "10.0.1.1", "mt_id": "1"}, map[string]any{"account": "5551001", "mt_id": "4"},
				map[string]any{"account": "10.0.1.2", "mt_id": "2"}, map[string]any{"account": "10.0.1.3", "mt_id": "3"}}})
		tlEq(t, "poll_enable", k.ok(t, "GET", "", nil)["poll_enable"], 1)

		env.Advance(t, 9*time.Second)
		tlWantPoll(t, k, "/poll", 1, 1, "1")
		env.Advance(t, time.Second) // 10 s: the offline 4 is skipped
		tlWantPoll(t, k, "/poll", 1, 3, "2")
		env.Advance(t, 10*time.Second)
		tlWantPoll(t, k, "/poll", 1, 4, "3")
		env.Advance(t, 15*time.Second) // second round, 5 s into 1's turn
		tlWantPoll(t, k, "/poll", 1, 1, "1")

		k.ok(t, "PUT", "/poll/state", map[string]any{"value": 1, "mode": 1})
		k.ok(t, "PUT", "/poll/state", map[string]any{"value": 1, "mode": 1}) // paused already: no change
		env.Advance(t, time.Minute)
		tlWantPoll(t, k, "/poll", 2, 1, "1")
		k.ok(t, "PUT", "/poll/state", map[string]any{"value": 2, "mode": 1})
		env.Advance(t, 4*time.Second)
		tlWantPoll(t, k, "/poll", 1, 1, "1")
		env.Advance(t, time.Second)
		tlWantPoll(t, k, "/poll", 1, 3, "2")
		env.Advance(t, 19*time.Second)
		tlWantPoll(t, k, "/poll", 1, 4, "3")
		env.Advance(t, time.Second) // two rounds done: stopped
		tlWantPoll(t, k, "/poll", 0, 0, "")
		k.fail(t, 20527, "PUT", "/poll/state", map[string]any{"value": 0, "mode": 1})
		tlEq(t, "stored poll_enable after the tick", k.doc(t)["poll_enable"], 0)
		node.sweep(t)
		tlEq(t, "poll_enable after the sweep", k.ok(t, "GET", "", nil)["poll_enable"], 0)

		// Stopped by request, starting at poll_index 3 (terminal 2).
		k.ok(t, "PUT", "/poll", start(map[string]any{"num": 0, "poll_index": 3, "mode": 3}))
		tlWantPoll(t, k, "/poll", 1, 3, "2")
		env.Advance(t, 20*time.Second)
		tlWantPoll(t, k, "/poll", 1, 1, "1")
		k.ok(t, "PUT", "/poll/state", map[string]any{"value": 0, "mode": 3})
		tlWantPoll(t, k, "/poll", 0, 0, "")
		tlEq(t, "poll_enable after a stop", k.ok(t, "GET", "", nil)["poll_enable"], 0)
	})
}

// A terminal that leaves is skipped from then on: the current one hands
// over at once; when no member is left online the poll stops.
func TestPollLeave(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	k := tlStart(t, env, env.LoggedIn(t), 3, 0)
	node := tlSecondNode(env)
	k.ok(t, "PUT", "/poll", map[string]any{"mode": 1, "num": 0, "keep_time": 10, "members": tlMembers("1", "2", "3")})
	env.Advance(t, 12*time.Second)
	tlWantPoll(t, k, "/poll", 1, 2, "2")
	node.hangup(t, k, "2")
	tlWantPoll(t, k, "/poll", 1, 3, "3")
	env.Advance(t, 9*time.Second)
	tlWantPoll(t, k, "/poll", 1, 3, "3")
	env.Advance(t, time.Second)
	tlWantPoll(t, k, "/poll", 1, 1, "1")
	env.Advance(t, 10*time.Second)
	tlWantPoll(t, k, "/poll", 1, 3, "3")
	node.hangup(t, k, "1") // not the current one: 3 keeps its turn
	env.Advance(t, 5*time.Second)
	tlWantPoll(t, k, "/poll", 1, 3, "3")
	env.Advance(t, 5*time.Second) // 3 is the only one left
	tlWantPoll(t, k, "/poll", 1, 3, "3")
	node.hangup(t, k, "3")
	tlWantPoll(t, k, "/poll", 0, 0, "")
	tlEq(t, "poll_enable", k.doc(t)["poll_enable"], 0)
}

// The chairman poll needs an online chairman; the upload and chairman
// polls start with POST and PUT and change state like the conference poll.
func TestChairmanAndUploadPolls(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	k := tlStart(t, env, env.LoggedIn(t), 3, 0)
	chair := map[string]any{"mode": 10, "num": 1, "keep_time": 5, "members": tlMembers("2", "3")}
	k.fail(t, 20563, "POST", "/chairman_poll", chair)
	k.ok(t, "PUT", "/chairman", map[string]any{"mt_id": "1"})
	k.ok(t, "POST", "/chairman_poll", chair)
	got := k.ok(t, "GET", "/chairman_poll", nil)
	tlEq(t, "chairman poll mode", got["mode"], 10)
	tlWantPoll(t, k, "/chairman_poll", 1, 1, "2")
	env.Advance(t, 5*time.Second)
	tlWantPoll(t, k, "/chairman_poll", 1, 2, "3")
	k.ok(t, "PUT", "/chairman_poll/state", map[string]any{"value": 1, "mode": 10})
	tlWantPoll(t, k, "/chairman_poll", 2, 2, "3")
	k.ok(t, "PUT", "/chairman_poll/state", map[string]any{"value": 2, "mode": 10})
	env.Advance(t, 5*time.Second)
	tlWantPoll(t, k, "/chairman_poll", 0, 0, "")
	chair["mode"] = 11
	k.ok(t, "PUT", "/chairman_poll", chair)
	tlEq(t, "chairman poll mode", k.ok(t, "GET", "/chairman_poll", nil)["mode"], 11)
	tlWantPoll(t, k, "/poll", 0, 0, "")

	upload := map[string]any{"num": 0, "keep_time": 7, "members": tlMembers("3", "1")}
	k.ok(t, "POST", "/upload_poll", upload)
	got = k.ok(t, "GET", "/upload_poll", nil)
	if _, has := got["mode"]; has {
		t.Errorf("the upload poll has no mode: %v", got)
	}
	tlWantPoll(t, k, "/upload_poll", 1, 1, "3")
	env.Advance(t, 7*time.Second)
	tlWantPoll(t, k, "/upload_poll", 1, 2, "1")
	k.ok(t, "PUT", "/upload_poll/state", map[string]any{"value": 0})
	tlWantPoll(t, k, "/upload_poll", 0, 0, "")
	k.fail(t, 20527, "PUT", "/upload_poll/state", map[string]any{"value": 2})
	upload["poll_index"] = 2
	k.ok(t, "PUT", "/upload_poll", upload)
	tlWantPoll(t, k, "/upload_poll", 1, 2, "1")
	tlEq(t, "the conference poll is untouched", k.ok(t, "GET", "", nil)["poll_enable"], 0)
}

// A poll over a terminal without an account (its document has none, as
// a terminal an older release added or a hand edit may): the start stores
// its account as null, the poll moves through it as through the others,
// and the query answers its account as "" (the platform's string), also
// once the stored poll was read back by another node.
func TestPollOverTerminalWithoutAccount(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	k := tlStart(t, env, env.LoggedIn(t), 3, 0)
	ctx := context.Background()
	rec, err := env.Store.GetRecord(ctx, record.KindMT, k.domain, k.id+"/2")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	delete(doc, "account")
	if rec.Data, err = shape.Encode(doc); err != nil {
		t.Fatal(err)
	}
	if err := env.Store.UpdateRecord(ctx, rec, ""); err != nil {
		t.Fatal(err)
	}

	k.ok(t, "PUT", "/poll", map[string]any{"mode": 1, "num": 1, "keep_time": 10, "members": tlMembers("1", "2", "3")})
	stored := k.doc(t)["vc_poll"].(map[string]any)["members"]
	tlEq(t, "stored members", stored, []any{map[string]any{"account": "10.0.1.1", "mt_id": "1"},
		map[string]any{"account": nil, "mt_id": "2"}, map[string]any{"account": "10.0.1.3", "mt_id": "3"}})
	want := map[string]any{"success": 1, "mode": 1, "state": 1, "num": 1, "keep_time": 10, "poll_index": 1,
		"cur_poll_mt": map[string]any{"mt_id": "1"}, "members": []any{
			map[string]any{"account": "10.0.1.1", "mt_id": "1"}, map[string]any{"account": "", "mt_id": "2"},
			map[string]any{"account": "10.0.1.3", "mt_id": "3"}}}
	tlEq(t, "poll", k.ok(t, "GET", "/poll", nil), want)

	env.Advance(t, 10*time.Second)
	tlWantPoll(t, k, "/poll", 1, 2, "2")
	node := tlSecondNode(env)
	node.sweep(t)
	want["poll_index"], want["cur_poll_mt"] = 2, map[string]any{"mt_id": "2"}
	tlEq(t, "poll at the terminal without an account", k.ok(t, "GET", "/poll", nil), want)
	k.ok(t, "PUT", "/poll/state", map[string]any{"value": 1, "mode": 1})
	env.Advance(t, time.Minute)
	k.ok(t, "PUT", "/poll/state", map[string]any{"value": 2, "mode": 1})
	tlWantPoll(t, k, "/poll", 1, 2, "2")
	env.Advance(t, 10*time.Second)
	tlWantPoll(t, k, "/poll", 1, 3, "3")
	env.Advance(t, 10*time.Second) // one round done: stopped
	tlWantPoll(t, k, "/poll", 0, 0, "")
}
