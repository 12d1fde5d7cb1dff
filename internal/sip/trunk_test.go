package sip_test

import (
	"testing"
	"time"
)

// Confer registers to a PBX (issue 39 item 8): SIPp as the registrar
// challenges the REGISTER with 401, verifies the digest of the one sent
// again and grants 60 s; Confer shows itself registered for 60 s; a call
// to the binding with the conference's number in To joins it; when
// Confer stops it removes the binding with Expires: 0.
func TestRegisterToPBX(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	port := freePort(t)
	s := startSIPpOn(t, port, scenario(t, "uas_registrar.xml", map[string]string{"USER": "confer-trunk", "PASSWORD": "pbx.secret"}), "")
	waitBound(t, s)
	cfg := sipConfig()
	cfg.RegisterTo = "127.0.0.1:" + itoa(port)
	cfg.OutboundUser, cfg.OutboundPassword = "confer-trunk", "pbx.secret"
	e := startEnv(t, cfg)
	waitFor(t, "Confer registered to the PBX", func() bool {
		st := e.ua.Trunk()
		return st.Registered && st.Expires == 60*time.Second
	})
	// The PBX sends a call to the binding with the dialled number in To.
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	p.target, p.remoteURI = "sip:confer-trunk@"+e.addr(), "sip:"+conf+"@127.0.0.1"
	n := p.send("INVITE", "", audioSDP(p.port()+2, "sendrecv"))
	if res := p.final("INVITE", n); res.code() != 200 {
		t.Fatalf("a call to the binding for %s: %s", conf, res.first)
	} else {
		p.remoteTag, p.target = tag(res.get("to", "t")), uriOf(res.get("contact", "m"))
		p.send("ACK", "", "", n)
		p.do("BYE", "", "")
	}
	if err := e.ua.Close(); err != nil {
		t.Fatal(err)
	}
	s.wait(t) // the binding removed
}
