package sip_test

import (
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/testserver"
)

// A room system's INVITE through a proxy (two Via, a Record-Route, SDP
// with main video, BFCP and content: about 1.8 kB over UDP) is answered
// over UDP with a 200 as large (RFC 3261 section 18.2.2); the caller is
// online, its BFCP m-line refused, and the hang-up's BYE follows the
// Record-Route (issue 39 item 1).
func TestRoomSystemThroughProxy(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uac_roomsystem.xml", nil), e.addr(), "-s", conf)
	var mt string
	waitFor(t, "the room system online", func() bool {
		m := e.mtByAlias(t, conf, "Room 4.2 Boardroom")
		if m != nil && online(m) {
			mt, _ = m["mt_id"].(string)
		}
		return mt != ""
	})
	// Its audio flows before the hang-up: SIPp 3.6.1 under load drops a
	// BYE that comes within a moment of its ACK.
	waitFor(t, "the room system's RTP", func() bool { return e.ua.Stats().RTPReceived > 20 })
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t) // the BYE came through the proxy's address
}

// The same INVITE from a raw terminal: the 200 that answers it is larger
// than 1300 bytes and still comes over UDP, with both Via and the
// Record-Route.
func TestLargeInviteAnsweredOverUDP(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	inv := roomSystemInvite(conf, p.local)
	if len(inv) < 1700 {
		t.Fatalf("the INVITE is %d bytes, want a room system's 1.8 kB", len(inv))
	}
	p.write(inv)
	res := p.final("INVITE", 100)
	if res.code() != 200 {
		t.Fatalf("INVITE: %s", res.first)
	}
	if n := len(res.raw); n <= 1300 {
		t.Errorf("the 200 is %d bytes: the test wants one over 1300", n)
	}
	if vias := res.all("via"); len(vias) != 2 || !strings.Contains(vias[1], "192.0.2.10:5061") {
		t.Errorf("200 Via = %q, want the proxy's and the terminal's", vias)
	}
	if rr := res.get("record-route"); !strings.Contains(rr, p.local) {
		t.Errorf("200 Record-Route = %q", rr)
	}
	if !strings.Contains(res.body, "m=application 0 TCP/BFCP") {
		t.Errorf("the BFCP m-line is not refused:\n%s", res.body)
	}
}

// roomSystemInvite is a Cisco-shaped INVITE of about 1.8 kB as a proxy at
// local forwards it (its Via on top, a Record-Route) to conference conf.
func roomSystemInvite(conf, local string) string {
	sdp := `v=0
o=tandberg 7 2 IN IP4 127.0.0.1
s=-
c=IN IP4 127.0.0.1
b=AS:6000
t=0 0
m=audio 9 RTP/AVP 8 0 101
b=TIAS:64000
a=rtpmap:8 PCMA/8000
a=rtpmap:0 PCMU/8000
a=rtpmap:101 telephone-event/8000
a=fmtp:101 0-15
a=sendrecv
m=video 11 RTP/AVP 97 126
b=TIAS:6000000
a=rtpmap:97 H264/90000
a=fmtp:97 profile-level-id=428016;max-mbps=490000;max-fs=8160;max-cpb=200;max-br=5000;max-smbps=490000;max-fps=6000;packetization-mode=1
a=rtpmap:126 H264/90000
a=fmtp:126 profile-level-id=428016;max-mbps=490000;max-fs=8160;packetization-mode=0
a=rtcp-fb:* nack pli
a=rtcp-fb:* ccm fir
a=rtcp-fb:* ccm tmmbr
a=content:main
a=label:11
a=sendrecv
m=application 5070 TCP/BFCP *
a=floorctrl:c-s
a=confid:1
a=floorid:2 mstrm:12
a=userid:7
a=setup:actpass
a=connection:new
m=video 13 RTP/AVP 97
b=TIAS:3000000
a=rtpmap:97 H264/90000
a=fmtp:97 profile-level-id=428016;max-mbps=245000;max-fs=8160;packetization-mode=1
a=rtcp-fb:* nack pli
a=rtcp-fb:* ccm fir
a=content:slides
a=label:12
a=sendrecv
`
	sdp = strings.ReplaceAll(sdp, "\n", "\r\n")
	return `INVITE sip:` + conf + `@127.0.0.1 SIP/2.0
Via: SIP/2.0/UDP ` + local + `;branch=z9hG4bKproxy0001;rport
Via: SIP/2.0/TLS 192.0.2.10:5061;received=192.0.2.10;rport=50423;branch=z9hG4bK7c9a3a1f0e2d4b6f9a8c7e6d5b4a3f2e1;x-route-tag="tgrp:partner-room-systems;trunk-context=partner.example.com"
Record-Route: <sip:` + local + `;transport=udp;lr;ftag=8a7f6e5d4c3b2a19;x-proxy-session=0f1e2d3c4b5a6978>
From: "Room 4.2 Boardroom" <sip:room42@partner.example.com>;tag=8a7f6e5d4c3b2a19
To: <sip:` + conf + `@127.0.0.1>
Call-ID: 0f1e2d3c4b5a69788796a5b4c3d2e1f0@192.0.2.10
CSeq: 100 INVITE
Contact: <sip:room42@192.0.2.10:5061;transport=tls>;+sip.instance="<urn:uuid:00000000-0000-0000-0000-00506b2c3d4e>"
Max-Forwards: 69
Allow: INVITE,ACK,CANCEL,BYE,UPDATE,INFO,OPTIONS,REFER,NOTIFY
Supported: replaces,timer,gruu
Allow-Events: dialog,kpml
User-Agent: Cisco/Room Kit Pro ce11.5.1 (test)
P-Asserted-Identity: "Room 4.2 Boardroom" <sip:room42@partner.example.com>
Content-Type: application/sdp
Content-Length: ` + strconv.Itoa(len(sdp)) + "\n\n" + sdp
}

// waitBoundTCP waits until s's SIPp listens on its SIP port over TCP.
func waitBoundTCP(t *testing.T, s *sippRun) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(s.port))
		if errors.Is(err, syscall.EADDRINUSE) {
			select { // the port is taken: by SIPp, unless SIPp ended
			case err := <-s.done:
				s.done <- err
				t.Fatalf("sipp ended instead of listening on %d: %v\n%s", s.port, err, tail(s.out.String()))
			default:
			}
			return
		}
		if err == nil {
			c.Close()
		}
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("sipp ended before listening on %d: %v\n%s", s.port, err, tail(s.out.String()))
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("sipp did not listen on TCP port %d", s.port)
}

// A call to an alias of 100 characters: Confer's INVITE is over 1300
// bytes and goes over TCP to a terminal that takes TCP only (RFC 3261
// section 18.1.1); it answers, is online, and the hang-up's BYE reaches
// it.
func TestLargeInviteOverTCP(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	// A port free for TCP too: freePort checks UDP only, and a port of
	// the ephemeral range may be another connection's local TCP port,
	// which SIPp then cannot listen on (seen in CI).
	s := startSIPpOn(t, freeSIPpTCPPort(t), scenario(t, "uas_tcp.xml", nil), "", "-t", "t1")
	waitBoundTCP(t, s)
	mt := e.addMt(t, conf, strings.Repeat("a", 100)+"@127.0.0.1:"+itoa(s.port), 8)
	waitFor(t, "the terminal online", func() bool {
		select { // a SIPp that ended will not answer: say why at once
		case err := <-s.done:
			s.done <- err
			t.Fatalf("sipp ended before the terminal was online: %v\n%s", err, tail(s.out.String()))
		default:
		}
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt && online(m) {
				return true
			}
		}
		return false
	})
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}

// A terminal that takes no TCP gets the large INVITE over UDP after the
// TCP connection was refused (section 18.1.1), from Confer's SIP port.
func TestLargeInviteFallsBackToUDP(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	mt := e.addMt(t, conf, strings.Repeat("a", 100)+"@"+p.local, 8)
	inv := p.request("INVITE")
	if len(inv.raw) <= 1300 || !strings.Contains(inv.get("via", "v"), "SIP/2.0/UDP") {
		t.Fatalf("INVITE of %d bytes, Via %q", len(inv.raw), inv.get("via", "v"))
	}
	if inv.from != e.addr() {
		t.Errorf("the INVITE came from %s, not the SIP port %s", inv.from, e.addr())
	}
	p.respond(inv, 486, "Busy Here", "", "")
	waitFor(t, "the terminal busy", func() bool {
		st, o := e.outcome(t, conf, mt)
		return st != "calling" && o == int(media.Busy)
	})
}

// freeSIPpTCPPort is freePort for a SIPp that listens on TCP as well: a port
// no socket holds for UDP or TCP.
func freeSIPpTCPPort(t *testing.T) int {
	t.Helper()
	for {
		p := freePort(t)
		if l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p)); err == nil {
			l.Close()
			return p
		}
	}
}
