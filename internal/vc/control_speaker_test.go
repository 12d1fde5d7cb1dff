package vc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/wire"
)

// Chairman and speaker: set, read, cancel; an unknown terminal is 12104,
// a terminal that is not online 20401, an unknown conference 12103, and a
// refused request changes nothing.
func TestControlChairmanSpeaker(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		c.Level = "3"
		k := ctStart(t, env, c, 3, 1, nil) // 1-3 online, 4 offline

		for _, role := range []string{"/chairman", "/speaker"} {
			cfSame(t, role+" at first", k.get(t, role)["mt_id"], "")
			testserver.MustOK(t, k.put(t, role, map[string]any{"mt_id": "1"}))
			cfSame(t, role, k.get(t, role)["mt_id"], "1")
			testserver.MustOK(t, k.put(t, role, map[string]any{"mt_id": "1"})) // again: no change
			testserver.MustFail(t, k.put(t, role, map[string]any{"mt_id": "99"}), wire.CodeMTNotFound)
			testserver.MustFail(t, k.put(t, role, map[string]any{"mt_id": "4"}), vc.CodeMtUnreachable)
			testserver.MustFail(t, k.put(t, role, map[string]any{}), wire.CodeInvalidParam)
			cfSame(t, role+" after refusals", k.get(t, role)["mt_id"], "1")
			testserver.MustOK(t, k.put(t, role, map[string]any{"mt_id": "2"}))
			cfSame(t, role+" moved", k.get(t, role)["mt_id"], "2")
			testserver.MustOK(t, k.put(t, role, map[string]any{"mt_id": ""}))
			cfSame(t, role+" cancelled", k.get(t, role)["mt_id"], "")
			testserver.MustOK(t, k.put(t, role, map[string]any{"mt_id": ""})) // nothing to cancel
			testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/999999"+role, nil), wire.CodeConfNotFound)
			testserver.MustFail(t, c.Do("PUT", "/api/v1/vc/confs/999999"+role, testserver.Params(t, map[string]any{"mt_id": "1"})), wire.CodeConfNotFound)
		}
		testserver.MustOK(t, k.put(t, "/chairman", map[string]any{"mt_id": "3"}))
		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "1"}))
		cfSame(t, "chairman beside the speaker", k.get(t, "/chairman")["mt_id"], "3")
		cfSame(t, "speaker beside the chairman", k.get(t, "/speaker")["mt_id"], "1")

		// force_broadcast with the speaker (6.1.0.2.0) is the conference's.
		cfSame(t, "force_broadcast at first", k.info(t)["force_broadcast"], 0)
		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "2", "force_broadcast": 1}))
		cfSame(t, "force_broadcast with the speaker", k.info(t)["force_broadcast"], 1)
		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "1"}))
		cfSame(t, "force_broadcast kept when not sent", k.info(t)["force_broadcast"], 1)
		testserver.MustFail(t, k.put(t, "/speaker", map[string]any{"mt_id": "1", "force_broadcast": 2}), wire.CodeInvalidParam)

		// An API-Level 1 caller (6.0.0.3.0) has no force_broadcast on the
		// speaker: the compatibility rules drop it.
		old := *c
		old.Level = ""
		k1 := k
		k1.c = &old
		testserver.MustOK(t, k1.put(t, "/speaker", map[string]any{"mt_id": "2", "force_broadcast": 0}))
		cfSame(t, "speaker set at level 1", k.get(t, "/speaker")["mt_id"], "2")
		cfSame(t, "force_broadcast ignored at level 1", k.info(t)["force_broadcast"], 1)

		// While voice activation is on the voice picks the speaker (A3).
		testserver.MustOK(t, k.put(t, "/vad", map[string]any{"state": 1, "vacinterval": 5}))
		testserver.MustFail(t, k.put(t, "/speaker", map[string]any{"mt_id": "3"}), vc.CodeVADCannotSetSpeaker)
		testserver.MustFail(t, k.put(t, "/speaker", map[string]any{"mt_id": ""}), vc.CodeVADCannotCancelSpeaker)
		cfSame(t, "speaker under voice activation", k.get(t, "/speaker")["mt_id"], "2")
		testserver.MustOK(t, k.put(t, "/vad", map[string]any{"state": 0, "vacinterval": 5}))
		testserver.MustOK(t, k.put(t, "/speaker", map[string]any{"mt_id": "3"}))
		cfSame(t, "speaker after voice activation", k.get(t, "/speaker")["mt_id"], "3")
	})
}
