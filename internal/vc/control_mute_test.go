package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// ctFlags reads a flag of terminals 1 to 4.
func ctFlags(t *testing.T, k ctConf, field string) []int {
	t.Helper()
	var out []int
	for _, id := range []string{"1", "2", "3", "4"} {
		out = append(out, ctNum(k.mt(t, id)[field]))
	}
	return out
}

// Silencing and muting the whole conference set the conference's flags
// and every online terminal's (the offline one is left alone).
func TestControlSilenceMuteAll(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"
		k := ctStart(t, env, c, 3, 1, nil)

		testserver.MustOK(t, k.put(t, "/silence", map[string]any{"value": 1}))
		cfSame(t, "silence of the conference", k.info(t)["silence"], 1)
		cfSame(t, "silence of the terminals", ctFlags(t, k, "silence"), []int{1, 1, 1, 0})
		testserver.MustOK(t, k.put(t, "/silence", map[string]any{"value": 0}))
		cfSame(t, "silence stopped", k.info(t)["silence"], 0)
		cfSame(t, "terminals unsilenced", ctFlags(t, k, "silence"), []int{0, 0, 0, 0})

		testserver.MustOK(t, k.put(t, "/mute", map[string]any{"value": 1, "force_mute": 1}))
		info := k.info(t)
		cfSame(t, "mute of the conference", []any{info["mute"], info["force_mute"]}, []any{1, 1})
		cfSame(t, "mute of the terminals", ctFlags(t, k, "mute"), []int{1, 1, 1, 0})
		cfSame(t, "silence untouched by mute", ctFlags(t, k, "silence"), []int{0, 0, 0, 0})
		testserver.MustOK(t, k.put(t, "/mute", map[string]any{"value": 1}))
		cfSame(t, "force_mute not sent", k.info(t)["force_mute"], 0)
		testserver.MustOK(t, k.put(t, "/mute", map[string]any{"value": 0, "force_mute": 1}))
		info = k.info(t)
		cfSame(t, "unmuted conference", []any{info["mute"], info["force_mute"]}, []any{0, 0})
		cfSame(t, "unmuted terminals", ctFlags(t, k, "mute"), []int{0, 0, 0, 0})

		for _, tc := range []struct {
			path   string
			params map[string]any
		}{
			{"/mute", map[string]any{"value": 2}},
			{"/mute", map[string]any{}},
			{"/mute", map[string]any{"value": 1, "force_mute": 3}},
			{"/silence", map[string]any{"value": -1}},
		} {
			testserver.MustFail(t, k.put(t, tc.path, tc.params), wire.CodeInvalidParam)
			testserver.MustFail(t, c.Do("PUT", "/api/v1/vc/confs/999999"+tc.path, testserver.Params(t, map[string]any{"value": 1})), wire.CodeConfNotFound)
		}
		info = k.info(t)
		cfSame(t, "flags after refusals", []any{info["mute"], info["silence"]}, []any{0, 0})
		cfSame(t, "terminals after refusals", ctFlags(t, k, "mute"), []int{0, 0, 0, 0})

		// Before 6.1.0.2.0 (API-Level 1) there is no force_mute: dropped.
		c.Level = ""
		testserver.MustOK(t, k.put(t, "/mute", map[string]any{"value": 1, "force_mute": 1}))
		c.Level = "3"
		info = k.info(t)
		cfSame(t, "force_mute sent at level 1", []any{info["mute"], info["force_mute"]}, []any{1, 0})
	})
}

// With the conference's mute_filter 1, muting everyone spares the speaker
// and the chairman ("对发言方和管理方例外"); unmuting reaches everyone.
func TestControlMuteFilter(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"
		k := ctStart(t, env, c, 3, 1, map[string]any{"mute_filter": 1})
		cfSame(t, "mute_filter", k.info(t)["mute_filter"], 1)
		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "1"}))
		testserver.MustOK(t, k.put(t, "/chairman", map[string]any{"mt_id": "3"}))
		testserver.MustOK(t, k.put(t, "/mute", map[string]any{"value": 1}))
		cfSame(t, "muted but speaker and chairman", ctFlags(t, k, "mute"), []int{0, 1, 0, 0})
		testserver.MustOK(t, k.put(t, "/mute", map[string]any{"value": 0}))
		cfSame(t, "unmuted", ctFlags(t, k, "mute"), []int{0, 0, 0, 0})

		// Without the filter nobody is spared.
		k2 := ctStart(t, env, c, 3, 1, nil)
		testserver.MustOK(t, k2.put(t, "/speaker", map[string]any{"mt_id": "1"}))
		testserver.MustOK(t, k2.put(t, "/mute", map[string]any{"value": 1}))
		cfSame(t, "muted without filter", ctFlags(t, k2, "mute"), []int{1, 1, 1, 0})
	})
}
