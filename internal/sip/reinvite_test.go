package sip_test

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/browsertest"
)

// dialog is a raw UDP SIP peer for one call.
type dialog struct {
	t     *testing.T
	c     net.Conn
	toTag string
	last  string // the last final response
}

func (d *dialog) send(msg string) {
	d.t.Helper()
	msg = strings.ReplaceAll(msg, "LOCAL", d.c.LocalAddr().String())
	msg = strings.ReplaceAll(strings.TrimLeft(msg, "\n"), "\n", "\r\n")
	if _, err := d.c.Write([]byte(msg)); err != nil {
		d.t.Fatal(err)
	}
}

// final reads until a final response for method and returns its code,
// remembering the To tag.
func (d *dialog) final(method string) int {
	d.t.Helper()
	// Until go test's -timeout (browsertest.Deadline), not a budget of its
	// own: 3 s ran out on a loaded machine before Confer's answer came.
	_ = d.c.SetReadDeadline(browsertest.Deadline(d.t))
	buf := make([]byte, 8192)
	for {
		n, err := d.c.Read(buf)
		if err != nil {
			d.t.Fatalf("no final response to %s: %v", method, err)
		}
		msg := string(buf[:n])
		if !strings.HasPrefix(msg, "SIP/2.0 ") || !strings.Contains(msg, " "+method+"\r\n") {
			continue // a request of Confer's, or another response
		}
		code, _ := strconv.Atoi(msg[8:11])
		if code < 200 {
			continue
		}
		d.last = msg
		for _, line := range strings.Split(msg, "\r\n") {
			if strings.HasPrefix(strings.ToLower(line), "to:") {
				if i := strings.Index(line, "tag="); i >= 0 {
					d.toTag = strings.TrimSpace(line[i+4:])
				}
			}
		}
		return code
	}
}

func (d *dialog) request(method, conf string, cseq int, body string) string {
	to := "<sip:" + conf + "@127.0.0.1>"
	if d.toTag != "" {
		to += ";tag=" + d.toTag
	}
	ct := ""
	if body != "" {
		ct = "Content-Type: application/sdp\n"
	}
	return method + " sip:" + conf + "@127.0.0.1 SIP/2.0\nVia: SIP/2.0/UDP LOCAL;branch=z9hG4bKr" + strconv.Itoa(cseq) + method +
		"\nFrom: \"Raw\" <sip:raw@127.0.0.1>;tag=r1\nTo: " + to + "\nCall-ID: reinvite-1\nCSeq: " + strconv.Itoa(cseq) + " " + method +
		"\nContact: <sip:raw@LOCAL>\nMax-Forwards: 70\n" + ct + "Content-Length: " + strconv.Itoa(len(strings.ReplaceAll(body, "\n", "\r\n"))) + "\n\n" + body
}

const rawSDP = "v=0\no=raw 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 9 RTP/AVP 0\na=rtpmap:0 PCMU/8000\n"

// A re-INVITE before the call's ACK gets 491; after it, a session refresh
// is answered 200 with the same SDP; the BYE ends the call.
func TestReinvite(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	c, err := net.Dial("udp", e.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d := &dialog{t: t, c: c}
	d.send(d.request("INVITE", conf, 1, rawSDP))
	if code := d.final("INVITE"); code != 200 {
		t.Fatalf("INVITE = %d", code)
	}
	d.send(d.request("INVITE", conf, 2, rawSDP))
	if code := d.final("INVITE"); code != 491 {
		t.Fatalf("re-INVITE before ACK = %d, want 491", code)
	}
	d.send(d.request("ACK", conf, 1, ""))
	cseq := 3
	waitFor(t, "the ACK", func() bool { // each try a new transaction: a retransmission would get the cached 491
		cseq++
		d.send(d.request("INVITE", conf, cseq, rawSDP))
		return d.final("INVITE") == 200
	})
	d.send(d.request("ACK", conf, cseq, ""))
	d.send(d.request("BYE", conf, cseq+1, ""))
	if code := d.final("BYE"); code != 200 {
		t.Fatalf("BYE = %d", code)
	}
	waitFor(t, "the call's end", func() bool { return e.ua.Stats().Calls == 0 })
}
