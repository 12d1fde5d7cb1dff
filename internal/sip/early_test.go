package sip_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/testserver"
)

// invite sends the peer's INVITE to conf with a Via branch of its own
// (a CANCEL repeats it) and returns its CSeq and branch.
func (p *peer) invite(conf string) (int, string) {
	p.t.Helper()
	p.target, p.remoteURI, p.remoteTag = "sip:"+conf+"@127.0.0.1", "sip:"+conf+"@127.0.0.1", ""
	p.cseq++
	branch := "z9hG4bK" + strconv.Itoa(rand.IntN(1e9))
	p.write(p.inDialog("INVITE", branch, p.cseq, "Content-Type: application/sdp\n", rawSDP))
	return p.cseq, branch
}

// inDialog is a request of the peer's INVITE transaction (CANCEL, the ACK
// of a final error: RFC 3261 sections 9.1, 17.1.1.3) or dialog.
func (p *peer) inDialog(method, branch string, n int, extra, body string) string {
	to := "<" + p.remoteURI + ">"
	if p.remoteTag != "" {
		to += ";tag=" + p.remoteTag
	}
	body = strings.ReplaceAll(body, "\n", "\r\n") // as write sends it
	return method + " " + p.target + " SIP/2.0\nVia: SIP/2.0/UDP " + p.local + ";branch=" + branch +
		"\nFrom: <" + p.localURI + ">;tag=" + p.localTag + "\nTo: " + to + "\nCall-ID: " + p.callID + "\nCSeq: " + strconv.Itoa(n) + " " + method +
		"\nContact: <sip:peer@" + p.local + ">\nMax-Forwards: 70\n" + extra + "Content-Length: " + strconv.Itoa(len(body)) + "\n\n" + body
}

// The engine shows a caller online as Events.Joined stores it, before
// the call knows its mt_id: a hang-up from the API at that moment ends
// the set-up. The caller gets a final refusal (404: it is not
// registered) rather than a 200 of a call no one would end, and its
// terminal is offline with no call left (issue 39: no terminal online
// without a call; before, UA.Hangup did not find the call, the caller
// was answered and stayed bridged while the engine listed it offline).
func TestHungUpWhileJoining(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	hung := make(chan string, 1)
	defer sip.SetJoinedHook(func(c, mt string) {
		if c != conf {
			return
		}
		testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
			testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
		hung <- mt
	})()
	p := newPeer(t, e.addr())
	n, branch := p.invite(conf)
	res := p.final("INVITE", n)
	if res.code() != 404 {
		t.Fatalf("the caller hung up while joining got %s", res.first)
	}
	p.write(p.inDialog("ACK", branch, n, "", ""))
	mt := <-hung
	waitFor(t, "no call left", func() bool { return e.ua.Stats().Calls == 0 })
	m := e.mtByAlias(t, conf, "peer")
	if m == nil || m["mt_id"] != mt || online(m) {
		t.Fatalf("the caller's terminal %v (mt %s)", m, mt)
	}
}

// A caller that cancels its INVITE while it joins (CANCEL, answered
// 200, the INVITE 487 by the transaction) is taken out of the
// conference as a caller that hung up: offline, not lost, no call left
// (before, the set-up went on to a 200 that failed and the caller was
// reported lost).
func TestCancelledWhileJoining(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	entered, release := make(chan string, 1), make(chan struct{})
	defer sip.SetJoinedHook(func(c, mt string) {
		if c == conf {
			entered <- mt
			<-release
		}
	})()
	p := newPeer(t, e.addr())
	n, branch := p.invite(conf)
	var mt string
	for mt == "" {
		select {
		case mt = <-entered: // the engine shows the caller online
		case m := <-p.in:
			if m.code() < 100 || m.code() >= 200 { // 100 Trying may come first
				t.Fatalf("the caller got %s before it joined", m.first)
			}
		}
	}
	p.write(p.inDialog("CANCEL", branch, n, "", ""))
	if res := p.final("CANCEL", n); res.code() != 200 {
		t.Fatalf("CANCEL: %s", res.first)
	}
	if res := p.final("INVITE", n); res.code() != 487 {
		t.Fatalf("the cancelled INVITE got %s", res.first)
	}
	p.write(p.inDialog("ACK", branch, n, "", ""))
	close(release)
	waitFor(t, "no call left", func() bool { return e.ua.Stats().Calls == 0 })
	waitFor(t, "the caller offline", func() bool {
		m := e.mtByAlias(t, conf, "peer")
		return m != nil && m["mt_id"] == mt && !online(m)
	})
	if e.lost(t, conf, mt) {
		t.Fatal("a caller that cancelled is marked lost")
	}
}
