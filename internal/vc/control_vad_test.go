package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/wire"
)

// Voice activation round trip: the vad reply and the conference info show
// the state and the interval; turning it on needs 5 seconds or more.
func TestControlVAD(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 1, 0, nil)
		cfSame(t, "vad at first", k.get(t, "/vad"), map[string]any{"success": 1, "voice_activity_detection": 0, "vacinterval": 0})
		testserver.MustOK(t, k.put(t, "/vad", map[string]any{"state": 1, "vacinterval": 10}))
		cfSame(t, "vad on", k.get(t, "/vad"), map[string]any{"success": 1, "voice_activity_detection": 1, "vacinterval": 10})
		info := k.info(t)
		cfSame(t, "info", []any{info["voice_activity_detection"], info["vacinterval"]}, []any{1, 10})

		testserver.MustFail(t, k.put(t, "/vad", map[string]any{"state": 1, "vacinterval": 4}), wire.CodeInvalidParam)
		testserver.MustFail(t, k.put(t, "/vad", map[string]any{"state": 2, "vacinterval": 5}), wire.CodeInvalidParam)
		testserver.MustFail(t, k.put(t, "/vad", map[string]any{"state": 1}), wire.CodeInvalidParam)
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/999999/vad", nil), wire.CodeConfNotFound)
		testserver.MustFail(t, c.Do("PUT", "/api/v1/vc/confs/999999/vad", testserver.Params(t, map[string]any{"state": 0, "vacinterval": 5})), wire.CodeConfNotFound)
		cfSame(t, "vad after refusals", k.get(t, "/vad")["vacinterval"], 10)

		// Off with an interval below 5 keeps the stored one.
		testserver.MustOK(t, k.put(t, "/vad", map[string]any{"state": 0, "vacinterval": 0}))
		cfSame(t, "vad off", k.get(t, "/vad"), map[string]any{"success": 1, "voice_activity_detection": 0, "vacinterval": 10})
		testserver.MustOK(t, k.put(t, "/vad", map[string]any{"state": 0, "vacinterval": 6}))
		cfSame(t, "interval while off", k.get(t, "/vad")["vacinterval"], 6)
	})
}

// At release 5.0.0.4.1 the update names the interval interval and the
// info names the state voice_inspire_enable (seed 001 5.1.0.1.0 renames);
// the vad reading endpoint came with 5.1.0.2.0.
func TestControlVADOldNames(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: "5.0.0.4.1"})
	c := env.LoggedIn(t)
	k := ctStart(t, env, c, 0, 0, nil)
	testserver.MustOK(t, k.put(t, "/vad", map[string]any{"state": 1, "interval": 7}))
	info := k.info(t)
	cfSame(t, "voice_inspire_enable", info["voice_inspire_enable"], 1)
	if _, has := info["voice_activity_detection"]; has {
		t.Errorf("voice_activity_detection shown at 5.0.0.4.1")
	}
	cfSame(t, "stored interval", ctNum(k.doc(t)["vacinterval"]), 7)
	testserver.MustFail(t, c.Do("GET", k.path("/vad"), nil), wire.CodeNotSupported)
}

// The VIP list: at most 8 online local terminals, each once; refusals
// change nothing; an empty list clears it.
func TestControlVIPList(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		k := ctStart(t, env, c, 3, 1, nil)
		vip := func(ids ...string) map[string]any {
			var mts []any
			for _, id := range ids {
				mts = append(mts, map[string]any{"mt_id": id, "cascade_id": "0"})
			}
			if mts == nil {
				mts = []any{}
			}
			return map[string]any{"mts": mts}
		}
		cfSame(t, "VIPs at first", k.get(t, "/viplist")["mts"], []any{})
		testserver.MustOK(t, k.put(t, "/viplist", vip("2", "1")))
		cfSame(t, "VIPs", k.get(t, "/viplist")["mts"], vip("2", "1")["mts"])
		// cascade_id may be left out for local terminals.
		testserver.MustOK(t, k.put(t, "/viplist", map[string]any{"mts": []any{map[string]any{"mt_id": "3"}}}))
		cfSame(t, "VIPs without cascade_id", k.get(t, "/viplist")["mts"], vip("3")["mts"])

		nine := vip("1", "2", "3", "1", "2", "3", "1", "2", "3")
		for _, tc := range []struct {
			params map[string]any
			code   int
		}{
			{nine, wire.CodeInvalidParam},
			{vip("1", "1"), wire.CodeInvalidParam},
			{map[string]any{"mts": []any{map[string]any{"cascade_id": "0"}}}, wire.CodeInvalidParam},
			{map[string]any{"mts": []any{map[string]any{"mt_id": "1", "cascade_id": "0.1.2"}}}, wire.CodeInvalidParam},
			{map[string]any{}, wire.CodeInvalidParam},
			{vip("1", "99"), wire.CodeMTNotFound},
			{vip("1", "4"), vc.CodeMtUnreachable},
		} {
			testserver.MustFail(t, k.put(t, "/viplist", tc.params), tc.code)
		}
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/999999/viplist", nil), wire.CodeConfNotFound)
		testserver.MustFail(t, c.Do("PUT", "/api/v1/vc/confs/999999/viplist", testserver.Params(t, vip())), wire.CodeConfNotFound)
		cfSame(t, "VIPs after refusals", k.get(t, "/viplist")["mts"], vip("3")["mts"])

		testserver.MustOK(t, k.put(t, "/viplist", vip()))
		cfSame(t, "VIPs cleared", k.get(t, "/viplist")["mts"], []any{})
	})
}
