package sip_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Registrations live in the store: a terminal registers at node A and
// node B calls it by its E.164 number (docs/sip.md "Registrar"). Skips
// without CONFER_TEST_POSTGRES.
func TestRegistrationSharedByNodes(t *testing.T) {
	needSIPp(t)
	dsn := testdb.Postgres(t)
	ca, cb := sipConfig(), sipConfig()
	a := testserver.StartNode(t, dsn, nil, testserver.Options{RTC: &sfu.Config{}, SIP: &ca})
	b := testserver.StartNode(t, dsn, a.Clock, testserver.Options{RTC: &sfu.Config{}, SIP: &cb})
	ea := &sipEnv{env: a.Env, api: a.LoggedIn(t), ua: a.Srv.SIP()}
	eb := &sipEnv{env: b.Env, api: b.LoggedIn(t), ua: b.Srv.SIP()}
	ea.createAccount(t, "room77", "5551077", "pw.77")
	reg := startSIPp(t, scenario(t, "uac_register.xml", map[string]string{"E164": "5551077", "PASSWORD": "pw.77", "REGCODE": "200"}), ea.addr())
	reg.wait(t)

	conf := eb.conf(t, nil)
	s := startSIPpOn(t, reg.port, scenario(t, "uas_answer.xml", nil), "")
	waitBound(t, s.port)
	mt := eb.addMt(t, conf, "5551077", 5)
	waitFor(t, "the terminal online through node B", func() bool {
		for _, m := range eb.mts(t, conf) {
			if m["mt_id"] == mt && online(m) {
				return true
			}
		}
		return false
	})
	if eb.ua.Stats().Dialled != 1 || ea.ua.Stats().Dialled != 0 {
		t.Fatalf("dialled by A %d, B %d", ea.ua.Stats().Dialled, eb.ua.Stats().Dialled)
	}
	testserver.MustOK(t, eb.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}
