package sip_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/testserver"
)

// timerConfig is a user agent with RFC 4028 intervals of seconds: it asks
// for 3 s sessions and accepts 2 s at least.
func timerConfig() sip.Config {
	cfg := sipConfig()
	cfg.SessionExpires, cfg.MinSE = 3*time.Second, 2*time.Second
	return cfg
}

// A caller that supports timers and refreshes (re-INVITE, UPDATE with and
// without SDP) stays in the conference; once it stops, Confer ends the
// session at its expiry with BYE and the caller is offline, lost. An
// interval below Confer's Min-SE gets 422 first (RFC 4028 sections 9, 10).
func TestSessionTimerCallerRefreshes(t *testing.T) {
	t.Parallel()
	e := startEnv(t, timerConfig())
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	res := p.call(conf, "Supported: timer\nSession-Expires: 1")
	if res.code() != 422 || res.get("min-se") != "2" {
		t.Fatalf("INVITE asking 1 s: %s Min-SE %q, want 422 with Min-SE 2", res.first, res.get("min-se"))
	}
	res = p.call(conf, "Supported: timer\nSession-Expires: 3;refresher=uac\nMin-SE: 2")
	if res.code() != 200 {
		t.Fatalf("INVITE: %s", res.first)
	}
	if se := res.get("session-expires", "x"); se != "3;refresher=uac" || !strings.Contains(res.get("require"), "timer") {
		t.Fatalf("200: Session-Expires %q Require %q", se, res.get("require"))
	}
	waitFor(t, "the caller online", func() bool { m := e.mtByAlias(t, conf, "peer"); return m != nil && online(m) })

	// Refreshes every half second, for twice the time the session would
	// last without them (its expiry is 2 s after a refresh).
	for i := range 8 {
		time.Sleep(500 * time.Millisecond)
		var r *msg
		switch i % 3 {
		case 0:
			r = p.do("UPDATE", "Supported: timer\nSession-Expires: 3;refresher=uac", "")
		case 1:
			r = p.do("UPDATE", "Supported: timer\nSession-Expires: 3;refresher=uac", rawSDP)
			if !strings.Contains(r.body, "m=audio") {
				t.Fatalf("UPDATE with SDP answered without SDP: %q", r.body)
			}
		default:
			n := p.send("INVITE", "Supported: timer\nSession-Expires: 3;refresher=uac", rawSDP)
			r = p.final("INVITE", n)
			p.send("ACK", "", "", n)
		}
		if r.code() != 200 || r.get("session-expires", "x") != "3;refresher=uac" || r.get("contact", "m") == "" {
			t.Fatalf("refresh %d: %s Session-Expires %q", i, r.first, r.get("session-expires", "x"))
		}
	}
	m := e.mtByAlias(t, conf, "peer")
	if m == nil || !online(m) || e.ua.Stats().Calls != 1 {
		t.Fatalf("a refreshed caller left: %v, %+v", m, e.ua.Stats())
	}

	// An UPDATE with the call's Call-ID but another dialog's tags: 481.
	saved := p.remoteTag
	p.remoteTag = "other"
	if r := p.do("UPDATE", "", ""); r.code() != 481 {
		t.Fatalf("UPDATE of another dialog: %s", r.first)
	}
	p.remoteTag = saved

	// No more refreshes: BYE from Confer, the caller offline and lost.
	bye := p.request("BYE")
	p.respond(bye, 200, "OK", "", "")
	waitFor(t, "the caller offline", func() bool { m := e.mtByAlias(t, conf, "peer"); return m != nil && !online(m) })
	if mt := fmt.Sprint(e.mtByAlias(t, conf, "peer")["mt_id"]); !e.lost(t, conf, mt) {
		t.Fatal("an expired caller is not marked lost")
	}
	waitFor(t, "no call", func() bool { return e.ua.Stats().Calls == 0 })
}

// A caller without timer support that a proxy gave a Session-Expires, or
// one that asks Confer to refresh (refresher=uas): Confer refreshes at
// half the interval, with UPDATE when the caller allows it, else with a
// re-INVITE carrying the same SDP (ACKed). A refresh answered 408 or 481
// ends the call as lost (RFC 4028 section 10).
func TestSessionTimerConferRefreshes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, extra, method string
		fail                int
	}{
		{"UPDATE", "Supported: timer\nSession-Expires: 2;refresher=uas\nAllow: INVITE, ACK, BYE, UPDATE", "UPDATE", 408},
		{"re-INVITE", "Session-Expires: 2", "INVITE", 481},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := startEnv(t, timerConfig())
			conf := e.conf(t, nil)
			p := newPeer(t, e.addr())
			res := p.call(conf, tc.extra)
			if res.code() != 200 || res.get("session-expires", "x") != "2;refresher=uas" {
				t.Fatalf("INVITE: %s Session-Expires %q", res.first, res.get("session-expires", "x"))
			}
			if tc.method == "INVITE" && res.get("require") != "" {
				t.Fatalf("Require %q for a caller without timers", res.get("require"))
			}
			answer := res.body
			for i := range 2 {
				r := p.request(tc.method)
				if r.get("session-expires", "x") != "2;refresher=uac" || r.get("call-id", "i") != p.callID {
					t.Fatalf("refresh %d: Session-Expires %q", i, r.get("session-expires", "x"))
				}
				if tc.method == "INVITE" {
					if r.body != answer {
						t.Fatalf("re-INVITE changed the SDP:\n%s\nwas\n%s", r.body, answer)
					}
					if i == 1 { // glare: an offer of the terminal's while Confer's is pending
						if g := p.do("UPDATE", "", rawSDP); g.code() != 491 {
							t.Fatalf("UPDATE with SDP during Confer's re-INVITE: %s", g.first)
						}
					}
					p.respond(r, 200, "OK", "Session-Expires: 2;refresher=uac", rawSDP)
					ack := p.request("ACK")
					if ack.cseq() != r.cseq() {
						t.Fatalf("ACK CSeq %d for re-INVITE %d", ack.cseq(), r.cseq())
					}
				} else {
					if r.body != "" {
						t.Fatalf("UPDATE refresh with a body: %q", r.body)
					}
					p.respond(r, 200, "OK", "Session-Expires: 2;refresher=uac\nRequire: timer", "")
				}
			}
			if m := e.mtByAlias(t, conf, "peer"); m == nil || !online(m) {
				t.Fatalf("the caller is not online: %v", m)
			}
			r := p.request(tc.method)
			p.respond(r, tc.fail, "Gone", "", "")
			waitFor(t, "the caller offline", func() bool { m := e.mtByAlias(t, conf, "peer"); return m != nil && !online(m) })
			if mt := fmt.Sprint(e.mtByAlias(t, conf, "peer")["mt_id"]); !e.lost(t, conf, mt) {
				t.Fatal("a caller whose refresh failed is not marked lost")
			}
			waitFor(t, "no call", func() bool { return e.ua.Stats().Calls == 0 })
		})
	}
}

// A call without a session timer gets one from the caller's re-INVITE
// (RFC 4028 section 9): the keep-alive gives way to Confer's refreshes.
func TestSessionTimerStartedByRefresh(t *testing.T) {
	t.Parallel()
	e := startEnv(t, timerConfig())
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	if res := p.call(conf, ""); res.code() != 200 || res.get("session-expires", "x") != "" {
		t.Fatalf("INVITE without timers: %s Session-Expires %q", res.first, res.get("session-expires", "x"))
	}
	waitFor(t, "the ACK", func() bool { // the re-INVITE before the ACK is processed gets 491
		n := p.send("INVITE", "Session-Expires: 2", rawSDP)
		r := p.final("INVITE", n)
		if r.code() == 200 {
			p.send("ACK", "", "", n)
			if r.get("session-expires", "x") != "2;refresher=uas" {
				t.Fatalf("re-INVITE: Session-Expires %q", r.get("session-expires", "x"))
			}
		}
		return r.code() == 200
	})
	r := p.request("INVITE")
	if r.get("session-expires", "x") != "2;refresher=uac" {
		t.Fatalf("Confer's refresh: Session-Expires %q", r.get("session-expires", "x"))
	}
	p.respond(r, 200, "OK", "Session-Expires: 2;refresher=uac", rawSDP)
	p.request("ACK")
	p.do("BYE", "", "")
	waitFor(t, "no call", func() bool { return e.ua.Stats().Calls == 0 })
}

// Confer's INVITE offers timers (Supported, Session-Expires, Min-SE); a
// 422 is retried once with the Min-SE it names (RFC 4028 section 7.4).
// The terminal takes the refresher role (uas) and refreshes with UPDATE;
// once it stops, Confer sends BYE and the terminal is offline in the
// terminal list, marked lost.
func TestSessionTimerDialled(t *testing.T) {
	t.Parallel()
	e := startEnv(t, timerConfig())
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(p.port()), 7)
	inv := p.request("INVITE")
	if inv.get("session-expires", "x") != "3" || inv.get("min-se") != "2" || !strings.Contains(inv.get("supported", "k"), "timer") {
		t.Fatalf("INVITE: Supported %q Session-Expires %q Min-SE %q", inv.get("supported", "k"), inv.get("session-expires", "x"), inv.get("min-se"))
	}
	p.respond(inv, 422, "Session Interval Too Small", "Min-SE: 4", "")
	inv2 := p.next("the INVITE again", func(m *msg) bool { return m.isRequest() && m.method() == "INVITE" && m.cseq() > inv.cseq() })
	if inv2.get("session-expires", "x") != "4" || inv2.get("call-id", "i") != inv.get("call-id", "i") {
		t.Fatalf("INVITE after 422: Session-Expires %q Call-ID %q", inv2.get("session-expires", "x"), inv2.get("call-id", "i"))
	}
	p.answer(inv2)
	p.respond(inv2, 200, "OK", "Session-Expires: 4;refresher=uas\nRequire: timer\nAllow: INVITE, ACK, BYE, UPDATE", rawSDP)
	p.request("ACK")
	waitFor(t, "the terminal online", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt {
				return online(m)
			}
		}
		return false
	})
	for i := range 4 { // 4 s: longer than the session's 8/3 s expiry
		time.Sleep(time.Second)
		if r := p.do("UPDATE", "Supported: timer\nSession-Expires: 4;refresher=uac", ""); r.code() != 200 ||
			r.get("session-expires", "x") != "4;refresher=uac" {
			t.Fatalf("refresh %d: %s Session-Expires %q", i, r.first, r.get("session-expires", "x"))
		}
	}
	bye := p.request("BYE")
	p.respond(bye, 200, "OK", "", "")
	waitFor(t, "the terminal offline", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt {
				return !online(m)
			}
		}
		return false
	})
	if !e.lost(t, conf, mt) {
		t.Fatal("the terminal is not marked lost")
	}
}

// A terminal that answers without Session-Expires does not support
// timers: the OPTIONS keep-alive runs instead (docs/sip.md).
func TestSessionTimerKeepAliveFallback(t *testing.T) {
	t.Parallel()
	cfg := timerConfig()
	cfg.KeepAlive = 300 * time.Millisecond
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(p.port()), 7)
	inv := p.request("INVITE")
	p.answer(inv)
	p.respond(inv, 200, "OK", "", rawSDP)
	p.request("ACK")
	for range 2 {
		o := p.request("OPTIONS")
		if o.get("session-expires", "x") != "" {
			t.Fatalf("a keep-alive with Session-Expires")
		}
		p.respond(o, 200, "OK", "", "")
	}
	body := testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})
	done := make(chan struct{})
	go func() { // the hang-up waits for the BYE's answer
		defer close(done)
		e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts", body)
	}()
	p.respond(p.request("BYE"), 200, "OK", "", "")
	<-done
}

// refreshAnswer is the part of uas_timer.xml that answers one of
// Confer's refresh re-INVITEs (refresher=uac: Confer stays the refresher).
const refreshAnswer = `  <recv request="INVITE">
    <action><ereg regexp="Session-Expires: 3;refresher=uac" search_in="msg" check_it="true" assign_to="r"/></action>
  </recv>
  <send><![CDATA[
SIP/2.0 200 OK
[last_Via:]
[last_From:]
[last_To:]
[last_Call-ID:]
[last_CSeq:]
Contact: <sip:[local_ip]:[local_port];transport=[transport]>
Require: timer
Session-Expires: 3;refresher=uac
Content-Type: application/sdp
Content-Length: [len]

v=0
o=sipp 53655765 2353687637 IN IP[local_ip_type] [local_ip]
s=-
c=IN IP[media_ip_type] [media_ip]
t=0 0
m=audio [media_port] RTP/AVP 8
a=rtpmap:8 PCMA/8000

]]></send>
  <recv request="ACK"/>`

// SIPp as a dialled terminal that makes Confer the refresher: Confer's
// refresh re-INVITEs reach it (and are ACKed); the third, answered 481,
// ends the call as lost (RFC 4028 section 10).
func TestSessionTimerSIPp(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, timerConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_timer.xml", map[string]string{"REFRESH": refreshAnswer}), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	s.wait(t)
	waitFor(t, "the terminal offline", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt {
				return !online(m)
			}
		}
		return false
	})
	if !e.lost(t, conf, mt) {
		t.Fatal("the terminal is not marked lost")
	}
}
