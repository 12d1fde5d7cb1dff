package sip_test

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/browsertest"
)

// raw sends one SIP message over UDP and returns the status code of its
// final response.
func raw(t *testing.T, addr, msg string) int {
	t.Helper()
	f := strings.Fields(rawReply(t, addr, msg))
	if len(f) < 2 {
		return 0
	}
	code, _ := strconv.Atoi(f[1])
	return code
}

// rawReply sends one SIP message over UDP and returns its final response.
// Like a SIP client over UDP it sends the request again while no final
// response came (RFC 3261 17.1.2.2: after 500 ms, then doubling up to
// 4 s; the server's transaction answers a retransmission with the same
// response), until go test's -timeout nears: a loaded machine may answer
// after any fixed wait, or lose a datagram.
func rawReply(t *testing.T, addr, msg string) string {
	t.Helper()
	c, err := net.Dial("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	local := c.LocalAddr().String()
	msg = strings.ReplaceAll(msg, "LOCAL", local)
	msg = strings.ReplaceAll(strings.TrimLeft(msg, "\n"), "\n", "\r\n")
	buf := make([]byte, 4096)
	for wait := 500 * time.Millisecond; ; wait = min(2*wait, 4*time.Second) {
		if browsertest.Expired(t) {
			t.Fatalf("no final response to %.40q", msg)
		}
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(wait))
		for {
			n, err := c.Read(buf)
			if err != nil {
				break // no final response yet: send again
			}
			line, _ := bufio.NewReader(strings.NewReader(string(buf[:n]))).ReadString('\n')
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			if code, _ := strconv.Atoi(f[1]); code >= 200 {
				return string(buf[:n])
			}
		}
	}
}

func request(method, callID, toTag string) string {
	to := "<sip:1110000@127.0.0.1>"
	if toTag != "" {
		to += ";tag=" + toTag
	}
	return method + ` sip:1110000@127.0.0.1 SIP/2.0
Via: SIP/2.0/UDP LOCAL;branch=z9hG4bK` + callID + `
From: <sip:tester@127.0.0.1>;tag=t1
To: ` + to + `
Call-ID: ` + callID + `
CSeq: 1 ` + method + `
Contact: <sip:tester@LOCAL>
Max-Forwards: 70
Content-Length: 0

`
}

// withBody is msg with a body of type ct (and Content-Encoding enc); its
// Content-Length counts the CRLFs rawReply sends.
func withBody(msg, ct, enc, body string) string {
	h := "Content-Type: " + ct + "\n"
	if enc != "" {
		h += "Content-Encoding: " + enc + "\n"
	}
	msg = strings.Replace(msg, "Content-Length: 0\n", h+"Content-Length: "+strconv.Itoa(len(strings.ReplaceAll(body, "\n", "\r\n")))+"\n", 1)
	return msg + body
}

// Bad input gets SIP's own answers and changes nothing (issue 26 "Bad
// input and faults"): unknown methods 501, known unserved ones 405, a
// re-INVITE, UPDATE (RFC 3311) or BYE of no call 481, an INVITE without a
// codec Confer bridges 488 (no conference: 404 first), an unsupported
// Require 420, SIP/3.0 505, a compressed or multipart body 415; garbage is
// dropped and the agent still answers.
func TestBadInput(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	addr := e.addr()
	for _, tc := range []struct {
		name, msg string
		want      int
	}{
		{"unknown method", request("FROBNICATE", "c1", ""), 501},
		{"known, not served", request("SUBSCRIBE", "c2", ""), 405},
		{"re-INVITE of no call", request("INVITE", "c3", "nosuch"), 481},
		{"BYE of no call", request("BYE", "c4", "nosuch"), 481},
		{"UPDATE of no call", request("UPDATE", "c13", "nosuch"), 481},
		{"UPDATE outside a dialog", request("UPDATE", "c14", ""), 481},
		{"INVITE to no conference", strings.Replace(request("INVITE", "c5", ""), "1110000@", "9999999@", 2), 404},
		{"INVITE without a codec Confer bridges", withBody(strings.Replace(request("INVITE", "c6", ""), "1110000@", conf+"@", 2),
			"application/sdp", "", "v=0\no=x 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 9 RTP/AVP 18\n"), 488},
		// RFC 3261 sections 8.2.2.3, 8.2.3, 21.5.20 (issue 39 item 7).
		{"Require: 100rel", strings.Replace(strings.Replace(request("INVITE", "c15", ""), "1110000@", conf+"@", 2), "Max-Forwards", "Require: 100rel\nMax-Forwards", 1), 420},
		{"Require: an unknown extension", strings.Replace(request("OPTIONS", "c16", ""), "Max-Forwards", "Require: frobnication\nMax-Forwards", 1), 420},
		{"SIP/3.0", strings.Replace(request("OPTIONS", "c17", ""), "SIP/2.0\n", "SIP/3.0\n", 1), 505},
		{"a gzip body", withBody(strings.Replace(request("INVITE", "c18", ""), "1110000@", conf+"@", 2), "application/sdp", "gzip", "\x1f\x8b\x08\x00zzzz"), 415},
		{"a multipart body", withBody(strings.Replace(request("INVITE", "c19", ""), "1110000@", conf+"@", 2), "multipart/mixed;boundary=b1", "",
			"--b1\nContent-Type: application/sdp\n\nv=0\n--b1--\n"), 415},
		{"REGISTER without To user", strings.Replace(request("REGISTER", "c7", ""), "<sip:1110000@127.0.0.1>", "<sip:127.0.0.1>", 2), 400},
		{"REGISTER without credentials", request("REGISTER", "c8", ""), 401},
		{"REGISTER with a forged nonce", strings.Replace(request("REGISTER", "c9", ""), "Max-Forwards", `Authorization: Digest username="1110000", realm="confer", nonce="00", uri="sip:127.0.0.1", response="00"`+"\nMax-Forwards", 1), 401},
		{"OPTIONS", request("OPTIONS", "c10", ""), 200},
		{"CANCEL of nothing", request("CANCEL", "c12", ""), 481},
	} {
		if got := raw(t, addr, tc.msg); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	for _, junk := range []string{"\x00\x01\x02", "INVITE\r\n\r\n", "SIP/2.0 200 OK\r\n\r\n", strings.Repeat("A", 3000),
		"INVITE sip:x SIP/2.0\r\nContent-Length: 99999\r\n\r\nv=0"} {
		c, err := net.Dial("udp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.Write([]byte(junk))
		c.Close()
	}
	if got := raw(t, addr, request("OPTIONS", "c11", "")); got != 200 {
		t.Fatalf("after garbage OPTIONS = %d", got)
	}
	if st := e.ua.Stats(); st.Calls != 0 || st.Joined != 0 {
		t.Fatalf("bad input changed state: %+v", st)
	}
	if n := len(e.mts(t, conf)); n != 0 {
		t.Fatalf("bad input added %d terminals", n)
	}
}

// An INVITE flood: beyond Config.MaxDialogs calls in progress, 503.
func TestInviteFlood(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	cfg := sipConfig()
	cfg.MaxDialogs = 1
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uac_dtmf.xml", map[string]string{"DIGITS": "", "TAIL": hangUpOnCue}), e.addr(), "-s", conf)
	waitFor(t, "the first caller online", func() bool {
		m := e.caller(t, conf)
		return m != nil && online(m)
	})
	r := startSIPp(t, scenario(t, "uac_refused.xml", map[string]string{"CODE": "503"}), e.addr(), "-s", conf)
	r.wait(t)
	e.waitAcked(t, conf, 1)
	s.cue(t, 1)
	s.wait(t)
}

// A terminal that vanishes mid-call (no BYE, no answer to the in-dialog
// OPTIONS) is taken offline as lost.
func TestVanishedTerminal(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	cfg := sipConfig()
	cfg.KeepAlive = 300 * time.Millisecond
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_vanish.xml", nil), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	s.wait(t) // answered, then gone
	waitFor(t, "the terminal offline", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt {
				return !online(m) && e.ua.Stats().Calls == 0
			}
		}
		return false
	})
}
