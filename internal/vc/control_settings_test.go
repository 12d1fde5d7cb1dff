package vc_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/wire"
)

// Extending a conference moves its end_time and duration, and the
// conference ends at the moved time; a permanent one stays permanent.
func TestControlDelay(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 1, 0, map[string]any{"duration": 60}) // 09:00 to 10:00
		delay := func(k ctConf, v any) testserver.Reply {
			return c.Do("POST", k.path("/delay"), testserver.Params(t, map[string]any{"delay_time": v}))
		}
		cfSame(t, "end_time", k.info(t)["end_time"], "2026-03-01T10:00:00+00:00")
		testserver.MustOK(t, delay(k, 30))
		info := k.info(t)
		cfSame(t, "delayed end", []any{info["end_time"], info["duration"]}, []any{"2026-03-01T10:30:00+00:00", 90})
		for _, bad := range []any{0, -5, 366*24*60 + 1, "x"} {
			testserver.MustFail(t, delay(k, bad), wire.CodeInvalidParam)
		}
		testserver.MustFail(t, c.Do("POST", k.path("/delay"), testserver.Params(t, map[string]any{})), wire.CodeInvalidParam)
		testserver.MustFail(t, delay(ctConf{id: "999999"}, 10), wire.CodeConfNotFound)
		cfSame(t, "end after refusals", k.info(t)["end_time"], "2026-03-01T10:30:00+00:00")

		// Steps of 20 minutes keep the session alive (30 idle minutes).
		for _, step := range []time.Duration{20, 20, 20, 20} {
			env.Advance(t, step*time.Minute)
			cfSame(t, "running", k.info(t)["conf_id"], k.id)
		}
		env.Advance(t, 9*time.Minute+50*time.Second) // 10:29:53: past the old end
		cfSame(t, "running after the old end", k.info(t)["conf_id"], k.id)
		env.Advance(t, 10*time.Second) // 10:30:03
		testserver.MustFail(t, c.Do("GET", k.path(""), nil), wire.CodeConfNotFound)

		perm := ctStart(t, env, c, 0, 0, nil)
		testserver.MustOK(t, delay(perm, 30))
		info = perm.info(t)
		cfSame(t, "permanent after delay", []any{info["end_time"], info["duration"]}, []any{"", 0})
	})
}

// Renaming shows in the list and the info; safety, forced broadcast land
// in the info; bad values are refused and change nothing.
func TestControlSettings(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 1, 0, nil)
		rename := func(v any) testserver.Reply {
			return c.Do("POST", k.path("/name"), testserver.Params(t, map[string]any{"value": v}))
		}
		testserver.MustOK(t, rename("weekly review"))
		cfSame(t, "name in the info", k.info(t)["name"], "weekly review")
		cfSame(t, "name in the list", cfOK(t, c.Do("GET", "/api/v1/vc/confs", nil))["confs"].([]any)[0].(map[string]any)["name"], "weekly review")
		for _, bad := range []any{"", "  ", "_x", "x@", "a/b", "a$b", strings.Repeat("n", 65)} {
			testserver.MustFail(t, rename(bad), wire.CodeInvalidParam)
		}
		testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/999999/name", testserver.Params(t, map[string]any{"value": "x"})), wire.CodeConfNotFound)
		cfSame(t, "name after refusals", k.info(t)["name"], "weekly review")

		safety := func(pw string, safe, closed int) testserver.Reply {
			return k.put(t, "/safty", map[string]any{"password": pw, "safe_conf": safe, "closed_conf": closed})
		}
		testserver.MustOK(t, safety("ab_1.2", 1, 1))
		info := k.info(t)
		cfSame(t, "safety", []any{info["need_password"], info["safe_conf"], info["closed_conf"]}, []any{1, 1, 1})
		cfSame(t, "stored password", k.doc(t)["password"], "ab_1.2")
		testserver.MustFail(t, safety("a b", 0, 0), wire.CodeInvalidParam)
		testserver.MustFail(t, safety(strings.Repeat("p", 17), 0, 0), wire.CodeInvalidParam)
		testserver.MustFail(t, safety("", 2, 0), wire.CodeInvalidParam)
		testserver.MustFail(t, k.put(t, "/safty", map[string]any{"password": "", "safe_conf": 0}), wire.CodeInvalidParam)
		cfSame(t, "password after refusals", k.doc(t)["password"], "ab_1.2")
		testserver.MustOK(t, safety("", 0, 1))
		info = k.info(t)
		cfSame(t, "safety without password", []any{info["need_password"], info["safe_conf"], info["closed_conf"]}, []any{0, 0, 1})

		testserver.MustOK(t, k.put(t, "/forcebroadcast", map[string]any{"force_broadcast": 1}))
		cfSame(t, "force_broadcast", k.info(t)["force_broadcast"], 1)
		testserver.MustFail(t, k.put(t, "/forcebroadcast", map[string]any{"force_broadcast": 2}), wire.CodeInvalidParam)
		testserver.MustOK(t, k.put(t, "/forcebroadcast", map[string]any{"force_broadcast": 0}))
		cfSame(t, "force_broadcast off", k.info(t)["force_broadcast"], 0)
	})
}

// A short message goes to online terminals of the conference; the last
// one sent is kept with the conference.
func TestControlSMS(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 2, 1, nil)
		sms := func(msg string, roll int, ids ...string) map[string]any {
			mts := []any{}
			for _, id := range ids {
				mts = append(mts, map[string]any{"mt_id": id})
			}
			return map[string]any{"message": msg, "type": 1, "roll_num": roll, "roll_speed": 2, "mts": mts}
		}
		send := func(p map[string]any) testserver.Reply {
			return c.Do("POST", k.path("/sms"), testserver.Params(t, p))
		}
		testserver.MustOK(t, send(sms("hello", 255, "1", "2", "1")))
		want := map[string]any{"message": "hello", "type": 1, "roll_num": 255, "roll_speed": 2,
			"mts": []any{map[string]any{"mt_id": "1"}, map[string]any{"mt_id": "2"}}, "send_time": "2026-03-01T09:00:03+00:00"}
		cfSame(t, "message kept", k.doc(t)["sms"], want)

		speed := sms("x", 1, "1")
		speed["roll_speed"] = 4
		for _, tc := range []struct {
			p    map[string]any
			code int
		}{
			{sms("x", 0, "1"), wire.CodeInvalidParam},
			{sms("x", 256, "1"), wire.CodeInvalidParam},
			{sms("x", 1), wire.CodeInvalidParam},
			{sms(strings.Repeat("m", 1501), 1, "1"), wire.CodeInvalidParam},
			{speed, wire.CodeInvalidParam},
			{sms("x", 1, "1", "99"), wire.CodeMTNotFound},
			{sms("x", 1, "3"), vc.CodeMtUnreachable},
		} {
			testserver.MustFail(t, send(tc.p), tc.code)
		}
		testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/999999/sms", testserver.Params(t, sms("x", 1, "1"))), wire.CodeConfNotFound)
		cfSame(t, "message after refusals", k.doc(t)["sms"], want)

		env.Advance(t, time.Minute)
		testserver.MustOK(t, send(sms("", 1, "2"))) // an empty message stops it
		cfSame(t, "stop message", k.doc(t)["sms"].(map[string]any)["message"], "")
		cfSame(t, "stop time", k.doc(t)["sms"].(map[string]any)["send_time"], "2026-03-01T09:01:03+00:00")
	})
}

// Another domain's account sees none of the conference's controls (12103)
// and changes nothing.
func TestControlIsolation(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"
		k := ctStart(t, env, c, 2, 0, nil)
		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "1"}))
		before := k.doc(t)
		bob := env.Account(t, "other", "bob", true)
		bob.Level = "3"
		mt := map[string]any{"mt_id": "2"}
		mts := map[string]any{"mts": []any{mt}}
		for _, tc := range []struct {
			method, suffix string
			params         map[string]any
		}{
			{http.MethodGet, "/chairman", nil}, {http.MethodGet, "/speaker", nil}, {http.MethodGet, "/dualstream", nil},
			{http.MethodGet, "/vad", nil}, {http.MethodGet, "/viplist", nil},
			{http.MethodPut, "/chairman", mt}, {http.MethodPut, "/speaker", mt}, {http.MethodPut, "/dualstream", mt},
			{http.MethodPut, "/silence", map[string]any{"value": 1}}, {http.MethodPut, "/mute", map[string]any{"value": 1}},
			{http.MethodPut, "/safty", map[string]any{"password": "", "safe_conf": 1, "closed_conf": 1}},
			{http.MethodPut, "/forcebroadcast", map[string]any{"force_broadcast": 1}},
			{http.MethodPut, "/vad", map[string]any{"state": 1, "vacinterval": 5}}, {http.MethodPut, "/viplist", mts},
			{http.MethodPut, "/dualmode", map[string]any{"dual_mode": 1}},
			{http.MethodPost, "/delay", map[string]any{"delay_time": 10}},
			{http.MethodPost, "/name", map[string]any{"value": "taken"}},
			{http.MethodPost, "/sms", map[string]any{"message": "hi", "type": 0, "roll_num": 1, "roll_speed": 1, "mts": []any{mt}}},
			{http.MethodPost, "/dualstream?_method=DELETE", mt},
		} {
			var r testserver.Reply
			if tc.params == nil {
				r = bob.Do(tc.method, k.path(tc.suffix), nil)
			} else {
				r = bob.Do(tc.method, k.path(tc.suffix), testserver.Params(t, tc.params))
			}
			testserver.MustFail(t, r, wire.CodeConfNotFound)
		}
		cfSame(t, "conference after the other domain's requests", k.doc(t), before)
		cfSame(t, "terminal 2", ctNum(k.mt(t, "2")["mute"]), 0)
	})
}
