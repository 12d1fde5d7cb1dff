package sip_test

import (
	"strings"
	"testing"
)

// digits is the scenario part that keys in ds (one pcap per digit),
// the first a moment after the ACK.
func digits(ds string) string {
	var b strings.Builder
	names := map[rune]string{'#': "pound", '*': "star"}
	for _, d := range ds {
		b.WriteString(`<pause milliseconds="300"/>` + "\n")
		n := names[d]
		if n == "" {
			n = string(d)
		}
		b.WriteString(`<nop><action><exec play_pcap_audio="` + pcapDir + `/dtmf_2833_` + n + `.pcap"/></action></nop>` + "\n")
	}
	return b.String()
}

const (
	// hangUpOnCue: the caller waits for the test's cue (sippRun.cue: the
	// test saw what it waited for), then sends BYE. Nothing before the
	// wait: SIPp aborts a call that gets a request while it pauses, and a
	// pcap played cuts the one still playing (the last digit).
	hangUpOnCue = `<recv request="INFO"/>
  <send retrans="500"><![CDATA[
BYE sip:[service]@[remote_ip]:[remote_port] SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: "SIPp Room" <sip:sipp@[local_ip]:[local_port]>;tag=[pid]SIPpTag04[call_number]
[last_To:]
Call-ID: [call_id]
CSeq: 2 BYE
Contact: <sip:sipp@[local_ip]:[local_port]>
Max-Forwards: 70
Content-Length: 0

]]></send>
  <recv response="200"/>`
	// byConfer: Confer ends the call (a wrong password).
	byConfer = `<recv request="BYE"/>
  <send><![CDATA[
SIP/2.0 200 OK
[last_Via:]
[last_From:]
[last_To:]
[last_Call-ID:]
[last_CSeq:]
Content-Length: 0

]]></send>`
)

// waitAcked waits until n calls of conf got their ACK (SIPp is then at
// its cue, past the INVITE: the engine lists a caller online before the
// 200).
func (e *sipEnv) waitAcked(t *testing.T, conf string, n int) {
	t.Helper()
	waitFor(t, "the caller's ACK", func() bool { return e.ua.Acked(conf) >= n })
}

func (e *sipEnv) caller(t *testing.T, conf string) map[string]any {
	for _, m := range e.mts(t, conf) {
		if m["alias"] == "SIPp Room" {
			return m
		}
	}
	return nil
}

// A terminal dials the conference number and keys in the password as
// RFC 4733 digits ending with '#': it joins (Kind sip, its display name
// as alias) and its BYE takes it offline (issue 26 "Calling in").
func TestDialInWithPassword(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, map[string]any{"password": "12"})
	s := startSIPp(t, scenario(t, "uac_dtmf.xml", map[string]string{"DIGITS": digits("12#"), "TAIL": hangUpOnCue}), e.addr(), "-s", conf)
	waitFor(t, "the caller online", func() bool {
		m := e.caller(t, conf)
		return m != nil && online(m)
	})
	// Online comes with the engine's join, before the call is bridged:
	// the cue waits for the bridge (a BYE before it is an early hang-up).
	waitFor(t, "the caller bridged", func() bool { return e.ua.Stats().Joined == 1 })
	waitFor(t, "the caller's RTP", func() bool { return e.ua.Stats().RTPReceived > 0 })
	e.waitAcked(t, conf, 1)
	s.cue(t, 1) // it hangs up
	s.wait(t)
	waitFor(t, "the caller offline", func() bool {
		m := e.caller(t, conf)
		return m != nil && !online(m)
	})
	if st := e.ua.Stats(); st.Joined != 1 || st.RTPReceived == 0 {
		t.Fatalf("stats %+v", st)
	}
}

// A wrong password three times: Confer hangs up and the caller never
// joins.
func TestDialInWrongPassword(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, map[string]any{"password": "12"})
	s := startSIPp(t, scenario(t, "uac_dtmf.xml", map[string]string{"DIGITS": digits("9#1#21#"), "TAIL": byConfer}), e.addr(), "-s", conf)
	s.wait(t)
	if m := e.caller(t, conf); m != nil {
		t.Fatalf("the caller joined: %v", m)
	}
}

// No password: the caller joins before the answer.
func TestDialInOpen(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uac_dtmf.xml", map[string]string{"DIGITS": "", "TAIL": hangUpOnCue}), e.addr(), "-s", conf)
	waitFor(t, "the caller online", func() bool {
		m := e.caller(t, conf)
		return m != nil && online(m)
	})
	e.waitAcked(t, conf, 1)
	s.cue(t, 1)
	s.wait(t)
}

// Refusals: an unknown number and a closed conference (closed_conf) get
// the same 404 (issue 38: the caller is not registered, and cannot tell
// them apart).
func TestDialInRefused(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	closed := e.conf(t, map[string]any{"closed_conf": 1})
	for _, tc := range []struct{ number, code string }{{"9999999", "404"}, {closed, "404"}} {
		s := startSIPp(t, scenario(t, "uac_refused.xml", map[string]string{"CODE": tc.code}), e.addr(), "-s", tc.number)
		s.wait(t)
	}
}
