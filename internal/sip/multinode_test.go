package sip_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Registrations live in the store: a terminal registers at node A and
// node B calls it by its E.164 number (docs/sip.md "Registrar"). Skips
// without CONFER_TEST_POSTGRES.
func TestRegistrationSharedByNodes(t *testing.T) {
	t.Parallel()
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
	waitBound(t, s)
	mt := eb.addMt(t, conf, "5551077", 5)
	eb.waitOnline(t, conf, mt, "the terminal online through node B")
	if eb.ua.Stats().Dialled != 1 || ea.ua.Stats().Dialled != 0 {
		t.Fatalf("dialled by A %d, B %d", ea.ua.Stats().Dialled, eb.ua.Stats().Dialled)
	}
	testserver.MustOK(t, eb.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}

// A SIP call is bridged on the node that owns the conference's media
// (docs/sip.md "Several nodes"): node A serves a WHEP viewer, so it owns
// the conference; a terminal added through node B is dialled by A's user
// agent and the viewer on A receives its audio; a hang-up through B
// reaches it (BYE); a caller who dials the conference at B is sent to A
// with 302. Skips without CONFER_TEST_POSTGRES.
func TestSIPFollowsTheMediaOwner(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	dsn := testdb.Postgres(t)
	ca, cb := sipConfig(), sipConfig()
	a := testserver.StartNode(t, dsn, nil, testserver.Options{RTC: &sfu.Config{}, SIP: &ca})
	b := testserver.StartNode(t, dsn, a.Clock, testserver.Options{RTC: &sfu.Config{}, SIP: &cb})
	ea := &sipEnv{env: a.Env, api: a.LoggedIn(t), ua: a.Srv.SIP()}
	eb := &sipEnv{env: b.Env, api: b.LoggedIn(t), ua: b.Srv.SIP()}
	conf := eb.conf(t, nil)

	// A viewer on A: A owns the conference's media.
	tok := testserver.MustOK(t, ea.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "viewer", "role": "subscribe"})))
	var audio atomic.Int64
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
			audio.Add(1)
		}
	})
	if code := whepOffer(t, pc, tok["whep_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHEP POST on A = %d", code)
	}

	// Added through B, dialled by A.
	s := startSIPp(t, scenario(t, "uas_answer.xml", nil), "")
	waitBound(t, s)
	mt := eb.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	eb.waitOnline(t, conf, mt, "the terminal online (seen from B)")
	if ea.ua.Stats().Dialled != 1 || eb.ua.Stats().Dialled != 0 {
		t.Fatalf("dialled by A %d, B %d; want A", ea.ua.Stats().Dialled, eb.ua.Stats().Dialled)
	}
	testserver.MustOK(t, eb.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	waitFor(t, "the terminal's audio at the viewer on A", func() bool { return audio.Load() >= 20 })

	// Camera control through B reaches A's call: unsupported (FECC).
	if r := eb.api.Do("POST", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/camera", testserver.Params(t, map[string]any{"state": 0, "type": 1})); r.OK() || r.Code() != 20444 {
		t.Errorf("camera control of A's SIP call through B = %v, want error 20444", r.Body)
	}

	// A caller at B is sent to A.
	reply := rawReply(t, eb.addr(), strings.Replace(request("INVITE", "redir-1", ""), "1110000", conf, -1))
	if !strings.HasPrefix(reply, "SIP/2.0 302") || !strings.Contains(reply, "<sip:"+conf+"@"+ea.addr()+">") {
		t.Errorf("INVITE at B: want 302 to A (%s), got:\n%s", ea.addr(), reply)
	}

	// A hang-up through B ends A's call with BYE.
	testserver.MustOK(t, eb.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}
