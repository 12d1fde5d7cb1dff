package sip_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/testserver"
)

// Confer calls a SIP terminal by IP (account_type 7): SIPp answers with
// PCMA and streams a pcap; the terminal is online, its RTP arrives, and a
// hang-up from the API sends BYE (issue 26 "Calling out").
func TestCallAnswered(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_answer.xml", nil), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	e.waitOnline(t, conf, mt, "the terminal online")
	waitFor(t, "the terminal's RTP", func() bool { return e.ua.Stats().RTPReceived > 20 })
	// Camera control (FECC) of a SIP terminal: the reference's 20444.
	r := e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/camera", testserver.Params(t, map[string]any{"state": 0, "type": 1}))
	if r.OK() || r.Code() != 20444 {
		t.Fatalf("camera control = %v", r.Body)
	}
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t) // BYE received and answered
	waitFor(t, "the call's end", func() bool { return e.ua.Stats().Calls == 0 })
	// The figures at /metrics.
	resp, err := http.Get(e.env.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"confer_sip_calls 0", "confer_sip_calls_dialled_total 1", "confer_sip_calls_answered_total 1"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// A busy terminal (486) is a busy outcome; with call_times 1 it is not
// called again.
func TestCallBusy(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_busy.xml", nil), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	s.wait(t)
	waitFor(t, "the busy outcome", func() bool {
		state, o := e.outcome(t, conf, mt)
		return state == "idle" && o == int(media.Busy)
	})
	waitFor(t, "the call's end", func() bool { return e.ua.Stats().Calls == 0 })
}

// A terminal that rings past the call timeout is cancelled (CANCEL, 487)
// and the call fails with no answer.
func TestCallNoAnswer(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	cfg := sipConfig()
	cfg.CallTimeout = 1500 * time.Millisecond
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_noanswer.xml", nil), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	s.wait(t)
	waitFor(t, "the no-answer outcome", func() bool {
		state, o := e.outcome(t, conf, mt)
		return state == "idle" && o == int(media.NoAnswer)
	})
}

// A terminal online in one conference that answers a second conference's
// call is busy there (the engine's occupancy): Confer sends BYE on the
// second call and keeps the first.
func TestAnsweredButBusyElsewhere(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	a, b := e.conf(t, nil), e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_answer.xml", nil), "", "-m", "2")
	waitBound(t, s)
	account := "127.0.0.1:" + itoa(s.port)
	mtA := e.addMt(t, a, account, 7)
	waitFor(t, "the terminal online in the first conference", func() bool {
		state, _ := e.outcome(t, a, mtA)
		return state == "online"
	})
	mtB := e.addMt(t, b, account, 7)
	waitFor(t, "busy in the second conference", func() bool {
		state, o := e.outcome(t, b, mtB)
		return state == "idle" && o == int(media.Busy)
	})
	waitFor(t, "the second call ended", func() bool { return e.ua.Stats().Calls == 1 })
	if state, _ := e.outcome(t, a, mtA); state != "online" {
		t.Fatalf("first conference's terminal %s", state)
	}
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+a+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mtA}}})))
	s.wait(t)
}

// A hang-up from the API while the terminal rings sends CANCEL.
func TestCallCancelledByHangup(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	cfg := sipConfig()
	cfg.CallTimeout = time.Minute
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_noanswer.xml", nil), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	waitFor(t, "the terminal ringing", func() bool { return e.ua.Ringing(conf, mt) })
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t) // CANCEL received, 487 sent
	waitFor(t, "the call's end", func() bool { return e.ua.Stats().Calls == 0 })
}
