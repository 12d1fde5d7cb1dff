package sip_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// msg is a SIP message a raw peer received.
type msg struct {
	raw   string // as received
	from  string // the sender's address
	first string
	hdrs  [][2]string
	body  string
}

func parseMsg(b string) *msg {
	head, body, _ := strings.Cut(b, "\r\n\r\n")
	lines := strings.Split(head, "\r\n")
	m := &msg{raw: b, first: lines[0], body: body}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, ":")
		if ok {
			m.hdrs = append(m.hdrs, [2]string{strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)})
		}
	}
	return m
}

// get is the first value of a header (its long name, lower case, or
// compact form), "" when absent.
func (m *msg) get(names ...string) string {
	for _, h := range m.hdrs {
		for _, n := range names {
			if h[0] == n {
				return h[1]
			}
		}
	}
	return ""
}

func (m *msg) all(name string) []string {
	var out []string
	for _, h := range m.hdrs {
		if h[0] == name {
			out = append(out, h[1])
		}
	}
	return out
}

func (m *msg) isRequest() bool { return !strings.HasPrefix(m.first, "SIP/2.0 ") }

func (m *msg) method() string {
	if m.isRequest() {
		return strings.Fields(m.first)[0]
	}
	f := strings.Fields(m.get("cseq"))
	return f[len(f)-1]
}

func (m *msg) code() int {
	if m.isRequest() {
		return 0
	}
	n, _ := strconv.Atoi(m.first[8:11])
	return n
}

func (m *msg) cseq() int {
	n, _ := strconv.Atoi(strings.Fields(m.get("cseq"))[0])
	return n
}

// tag is the tag parameter of a From or To value.
func tag(v string) string {
	if i := strings.Index(v, "tag="); i >= 0 {
		t, _, _ := strings.Cut(v[i+4:], ";")
		return strings.TrimSpace(t)
	}
	return ""
}

// uriOf is the URI in a Contact, From or To value.
func uriOf(v string) string {
	if i := strings.Index(v, "<"); i >= 0 {
		u, _, _ := strings.Cut(v[i+1:], ">")
		return u
	}
	u, _, _ := strings.Cut(v, ";")
	return u
}

// peer is a raw SIP terminal over UDP for one call (RFC 4028 and 3311
// tests): it sees every message Confer sends it.
type peer struct {
	t      *testing.T
	c      net.PacketConn
	confer net.Addr
	in     chan *msg
	local  string

	callID, localTag, remoteTag string
	localURI, remoteURI, target string
	cseq                        int
}

func newPeer(t *testing.T, confer string) *peer {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ra, err := net.ResolveUDPAddr("udp", confer)
	if err != nil {
		t.Fatal(err)
	}
	p := &peer{t: t, c: c, confer: ra, in: make(chan *msg, 64), local: c.LocalAddr().String(),
		callID: "peer-" + strconv.Itoa(rand.IntN(1e9)), localTag: "p" + strconv.Itoa(rand.IntN(1e6))}
	p.localURI = "sip:peer@" + p.local
	go func() {
		buf := make([]byte, 16384)
		for {
			n, from, err := c.ReadFrom(buf)
			if err != nil {
				close(p.in)
				return
			}
			if n > 4 {
				m := parseMsg(string(buf[:n]))
				m.from = from.String()
				p.in <- m
			}
		}
	}()
	t.Cleanup(func() { c.Close() })
	return p
}

func (p *peer) port() int { return p.c.LocalAddr().(*net.UDPAddr).Port }

func (p *peer) write(s string) {
	p.t.Helper()
	s = strings.ReplaceAll(strings.ReplaceAll(strings.TrimLeft(s, "\n"), "\r\n", "\n"), "\n", "\r\n")
	if _, err := p.c.WriteTo([]byte(s), p.confer); err != nil {
		p.t.Fatal(err)
	}
}

// next waits for the first message that match accepts; the others are
// dropped (a retransmission, a provisional response).
func (p *peer) next(what string, match func(*msg) bool) *msg {
	p.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case m, ok := <-p.in:
			if !ok {
				p.t.Fatalf("connection closed waiting for %s", what)
			}
			if match(m) {
				return m
			}
		case <-deadline:
			p.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// request waits for a request of Confer's.
func (p *peer) request(method string) *msg {
	p.t.Helper()
	return p.next(method, func(m *msg) bool { return m.isRequest() && m.method() == method })
}

// final waits for the final response to the request of CSeq n.
func (p *peer) final(method string, n int) *msg {
	p.t.Helper()
	return p.next("the response to "+method, func(m *msg) bool {
		return !m.isRequest() && m.method() == method && m.cseq() == n && m.code() >= 200
	})
}

// send sends a request in the peer's dialog (CSeq the next; ACK the
// given one) and returns its CSeq.
func (p *peer) send(method, extra, body string, ackOf ...int) int {
	p.t.Helper()
	n := p.cseq + 1
	if method == "ACK" {
		n = ackOf[0]
	} else {
		p.cseq = n
	}
	to := "<" + p.remoteURI + ">"
	if p.remoteTag != "" {
		to += ";tag=" + p.remoteTag
	}
	if extra != "" && !strings.HasSuffix(extra, "\n") {
		extra += "\n"
	}
	if body != "" {
		extra += "Content-Type: application/sdp\n"
		body = strings.ReplaceAll(body, "\n", "\r\n")
	}
	p.write(method + " " + p.target + " SIP/2.0\nVia: SIP/2.0/UDP " + p.local + ";branch=z9hG4bK" + strconv.Itoa(rand.IntN(1e9)) +
		"\nFrom: <" + p.localURI + ">;tag=" + p.localTag + "\nTo: " + to + "\nCall-ID: " + p.callID + "\nCSeq: " + strconv.Itoa(n) + " " + method +
		"\nContact: <sip:peer@" + p.local + ">\nMax-Forwards: 70\n" + extra + "Content-Length: " + strconv.Itoa(len(body)) + "\n\n" + body)
	return n
}

// do sends an in-dialog request and returns its final response.
func (p *peer) do(method, extra, body string) *msg {
	p.t.Helper()
	return p.final(method, p.send(method, extra, body))
}

// respond answers a request of Confer's.
func (p *peer) respond(req *msg, code int, reason, extra, body string) {
	p.t.Helper()
	var b strings.Builder
	b.WriteString("SIP/2.0 " + strconv.Itoa(code) + " " + reason + "\n")
	for _, v := range req.all("via") {
		b.WriteString("Via: " + v + "\n")
	}
	to := req.get("to", "t")
	if tag(to) == "" {
		to += ";tag=" + p.localTag
	}
	b.WriteString("From: " + req.get("from", "f") + "\nTo: " + to + "\nCall-ID: " + req.get("call-id", "i") + "\nCSeq: " + req.get("cseq") + "\n")
	if code >= 200 && code < 300 {
		b.WriteString("Contact: <sip:peer@" + p.local + ">\n")
	}
	if extra != "" && !strings.HasSuffix(extra, "\n") {
		extra += "\n"
	}
	b.WriteString(extra)
	if body != "" {
		b.WriteString("Content-Type: application/sdp\n")
		body = strings.ReplaceAll(body, "\n", "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\n\n" + body)
	p.write(b.String())
}

// call dials conference conf (the peer is the caller) with extra headers
// and returns the final response; a 2xx is ACKed and sets the dialog.
func (p *peer) call(conf, extra string) *msg {
	p.t.Helper()
	p.target, p.remoteURI, p.remoteTag = "sip:"+conf+"@127.0.0.1", "sip:"+conf+"@127.0.0.1", ""
	n := p.send("INVITE", extra, rawSDP)
	res := p.final("INVITE", n)
	if res.code() >= 200 && res.code() < 300 {
		p.remoteTag = tag(res.get("to", "t"))
		p.target = uriOf(res.get("contact", "m"))
		p.send("ACK", "", "", n)
	}
	return res
}

// answer takes Confer's INVITE as the dialog's (the peer is called).
func (p *peer) answer(inv *msg) {
	p.callID = inv.get("call-id", "i")
	p.remoteTag = tag(inv.get("from", "f"))
	p.remoteURI = uriOf(inv.get("from", "f"))
	p.localURI = uriOf(inv.get("to", "t"))
	p.target = uriOf(inv.get("contact", "m"))
	p.cseq = 100
}

// lost tells whether the engine marked terminal mt of conf lost (Left
// with lost true: the record's _lost).
func (e *sipEnv) lost(t *testing.T, conf, mt string) bool {
	t.Helper()
	recs, _, err := e.env.Store.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindMT})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.ID == conf+"/"+mt {
			var doc map[string]any
			_ = json.Unmarshal(r.Data, &doc)
			return doc["_lost"] == true
		}
	}
	return false
}

// mtByAlias is the terminal of conf listed with alias ("" none).
func (e *sipEnv) mtByAlias(t *testing.T, conf, alias string) map[string]any {
	t.Helper()
	for _, m := range e.mts(t, conf) {
		if m["alias"] == alias {
			return m
		}
	}
	return nil
}
