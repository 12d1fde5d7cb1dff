package sip_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/testserver"
)

// audioSDP is a PCMU offer on port with direction dir.
func audioSDP(port int, dir string) string {
	return fmt.Sprintf("v=0\no=raw 1 %d IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio %d RTP/AVP 0\na=rtpmap:0 PCMU/8000\na=%s\n",
		port, port, dir)
}

// callWith dials conference conf with body as the offer and returns the
// final response; a 2xx is ACKed.
func (p *peer) callWith(conf, body string) *msg {
	p.t.Helper()
	p.target, p.remoteURI, p.remoteTag = "sip:"+conf+"@127.0.0.1", "sip:"+conf+"@127.0.0.1", ""
	n := p.send("INVITE", "", body)
	res := p.final("INVITE", n)
	if res.code() >= 200 && res.code() < 300 {
		p.remoteTag = tag(res.get("to", "t"))
		p.target = uriOf(res.get("contact", "m"))
		p.send("ACK", "", "", n)
	}
	return res
}

// reinvite sends a re-INVITE with body and returns its 200 (ACKed).
func (p *peer) reinvite(body string) *msg {
	p.t.Helper()
	n := p.send("INVITE", "", body)
	res := p.final("INVITE", n)
	p.send("ACK", "", "", n)
	if res.code() != 200 {
		p.t.Fatalf("re-INVITE: %s", res.first)
	}
	return res
}

// counting counts the RTP packets that arrive on c.
func counting(c *net.UDPConn) *atomic.Int64 {
	var n atomic.Int64
	go func() {
		buf := make([]byte, 1500)
		for {
			k, err := c.Read(buf)
			if err != nil {
				if errors.Is(err, os.ErrDeadlineExceeded) {
					continue
				}
				return
			}
			var p rtp.Packet
			if p.Unmarshal(buf[:k]) == nil {
				n.Add(1)
			}
		}
	}()
	return &n
}

// A terminal puts the call on hold (a=sendonly), is answered recvonly and
// sent nothing more; it resumes on a new port (a=sendrecv), is answered
// sendrecv and receives the conference there (RFC 3264 sections 8.3.1,
// 8.4; issue 39 item 5).
func TestHoldResumeAndMove(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)

	// A speaks: its PCMU is what B receives.
	a, aMedia := newPeer(t, e.addr()), listenUDP(t)
	resA := a.callWith(conf, audioSDP(port(aMedia), "sendrecv"))
	if resA.code() != 200 {
		t.Fatalf("A: %s", resA.first)
	}
	mA := audioPort.FindStringSubmatch(resA.body)
	if mA == nil {
		t.Fatalf("A's answer: %s", resA.body)
	}
	conferA, _ := strconv.Atoi(mA[1])
	var sentA atomic.Int64
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: conferA}
		pkt := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 0, SSRC: 0xa11ce}, Payload: make([]byte, 160)}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			pkt.SequenceNumber, pkt.Timestamp = uint16(i), uint32(160*i)
			b, _ := pkt.Marshal()
			if _, err := aMedia.WriteToUDP(b, to); err == nil {
				sentA.Add(1)
			}
		}
	}()
	var mtA string
	waitFor(t, "A online", func() bool {
		m := e.mtByAlias(t, conf, "peer")
		if m != nil && online(m) {
			mtA = fmt.Sprint(m["mt_id"])
		}
		return mtA != ""
	})
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mtA})))

	b, bMedia := newPeer(t, e.addr()), listenUDP(t)
	gotB := counting(bMedia)
	if res := b.callWith(conf, audioSDP(port(bMedia), "sendrecv")); res.code() != 200 {
		t.Fatalf("B: %s", res.first)
	}
	waitFor(t, "A's audio at B", func() bool { return gotB.Load() >= 10 })

	// Hold: answered recvonly, nothing more is sent.
	res := b.reinvite(audioSDP(port(bMedia), "sendonly"))
	if !strings.Contains(res.body, "a=recvonly") {
		t.Fatalf("hold answered:\n%s", res.body)
	}
	// What B receives comes from the SFU or the conference's mix (no
	// longer A's packets as they are), so packets are counted: a second
	// of A's audio for those in flight, then another in which nothing
	// may arrive.
	rx := e.ua.Stats().RTPReceived
	waitFor(t, "a second of A's audio", func() bool { return e.ua.Stats().RTPReceived >= rx+50 })
	from := gotB.Load()
	waitFor(t, "another second of A's audio", func() bool { return e.ua.Stats().RTPReceived >= rx+100 })
	if n := gotB.Load() - from; n > 0 {
		t.Errorf("B on hold received %d packets", n)
	}

	// Resume on a new port.
	bMedia2 := listenUDP(t)
	gotB2 := counting(bMedia2)
	res = b.reinvite(audioSDP(port(bMedia2), "sendrecv"))
	if !strings.Contains(res.body, "a=sendrecv") {
		t.Fatalf("resume answered:\n%s", res.body)
	}
	waitFor(t, "A's audio at B's new port", func() bool { return gotB2.Load() >= 10 })
	b.do("BYE", "", "")
	a.do("BYE", "", "")
}

// The same with SIPp: a terminal holds and resumes, and hangs up.
func TestHoldWithSIPp(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uac_hold.xml", nil), e.addr(), "-s", conf)
	s.wait(t)
	waitFor(t, "the terminal offline", func() bool {
		m := e.mtByAlias(t, conf, "SIPp Hold")
		return m != nil && !online(m)
	})
}
