package sip_test

import (
	"net"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/testserver"
)

// A number without registration goes to the outbound proxy, which
// challenges the INVITE (407); Confer answers with the configured
// credentials and the call completes (issue 39 item 8).
func TestOutboundProxyChallenge(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	port := freePort(t)
	cfg := sipConfig()
	cfg.OutboundProxy = "127.0.0.1:" + itoa(port)
	cfg.OutboundUser, cfg.OutboundPassword = "trunk7", "t.secret"
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	s := startSIPpOn(t, port, scenario(t, "uas_auth.xml", map[string]string{"USER": "trunk7", "PASSWORD": "t.secret", "NUMBER": "5552001"}), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "5552001", 5)
	e.waitOnline(t, conf, mt, "the number behind the proxy online")
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}

// A 302 is followed to its Contact with a new INVITE (RFC 3261 section
// 8.1.3.4): the second terminal's answer (486) is the call's outcome.
func TestRedirectFollowed(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	first, second := newPeer(t, e.addr()), newPeer(t, e.addr())
	mt := e.addMt(t, conf, first.local, 7)
	inv := first.request("INVITE")
	first.respond(inv, 302, "Moved Temporarily", "Contact: <sip:room@"+second.local+">", "")
	inv2 := second.request("INVITE")
	if !startsWith(inv2.first, "INVITE sip:room@"+second.local) {
		t.Fatalf("the redirected INVITE: %s", inv2.first)
	}
	second.respond(inv2, 486, "Busy Here", "", "")
	waitFor(t, "the terminal busy", func() bool {
		st, o := e.outcome(t, conf, mt)
		return st != "calling" && o == int(media.Busy)
	})
}

// A 407 of the proxy is answered with Proxy-Authorization.
func TestOutboundProxy407(t *testing.T) {
	t.Parallel()
	p := newPeerOnly(t)
	cfg := sipConfig()
	cfg.OutboundProxy = p.local
	cfg.OutboundUser, cfg.OutboundPassword = "trunk7", "t.secret"
	e := startEnv(t, cfg)
	p.connect(t, e.addr())
	conf := e.conf(t, nil)
	mt := e.addMt(t, conf, "5552002", 5)
	inv := p.request("INVITE")
	p.respond(inv, 407, "Proxy Authentication Required", `Proxy-Authenticate: Digest realm="trunk", nonce="abc123", algorithm=MD5`, "")
	inv2 := p.next("the INVITE with credentials", func(m *msg) bool {
		return m.isRequest() && m.method() == "INVITE" && m.get("proxy-authorization") != ""
	})
	if a := inv2.get("proxy-authorization"); !strings.Contains(a, `username="trunk7"`) || !strings.Contains(a, `realm="trunk"`) {
		t.Fatalf("Proxy-Authorization %q", a)
	}
	p.respond(inv2, 486, "Busy Here", "", "")
	waitFor(t, "the number busy", func() bool {
		st, o := e.outcome(t, conf, mt)
		return st != "calling" && o == int(media.Busy)
	})
}

func startsWith(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// newPeerOnly is a raw peer whose Confer address is set later
// (connect): the user agent's configuration names the peer first.
func newPeerOnly(t *testing.T) *peer {
	t.Helper()
	return newPeer(t, "127.0.0.1:9")
}

func (p *peer) connect(t *testing.T, confer string) {
	t.Helper()
	ra, err := net.ResolveUDPAddr("udp", confer)
	if err != nil {
		t.Fatal(err)
	}
	p.confer = ra
}
