package sip_test

import (
	"context"
	"encoding/binary"
	"net"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"

	"github.com/confer-platform/confer/internal/media"
)

// dnsServer is a tiny authoritative DNS server over UDP for the tests:
// records by name and type; any other question gets NXDOMAIN.
type dnsServer struct {
	c       net.PacketConn
	mu      sync.Mutex
	records map[dnsmessage.Question][]dnsmessage.Resource
}

const typeNAPTR = dnsmessage.Type(35)

func newDNSServer(t *testing.T) *dnsServer {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &dnsServer{c: c, records: map[dnsmessage.Question][]dnsmessage.Resource{}}
	t.Cleanup(func() { c.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := c.ReadFrom(buf)
			if err != nil {
				return
			}
			var q dnsmessage.Message
			if q.Unpack(buf[:n]) != nil || len(q.Questions) != 1 {
				continue
			}
			res := dnsmessage.Message{Header: dnsmessage.Header{ID: q.ID, Response: true, Authoritative: true}, Questions: q.Questions}
			key := q.Questions[0]
			key.Name = mustName(strings.ToLower(key.Name.String()))
			s.mu.Lock()
			if rrs, ok := s.records[key]; ok {
				res.Answers = rrs
			} else {
				res.RCode = dnsmessage.RCodeNameError
			}
			s.mu.Unlock()
			b, err := res.Pack()
			if err == nil {
				_, _ = c.WriteTo(b, from)
			}
		}
	}()
	return s
}

func (s *dnsServer) addr() string { return s.c.LocalAddr().String() }

func mustName(n string) dnsmessage.Name {
	name, err := dnsmessage.NewName(n)
	if err != nil {
		panic(err)
	}
	return name
}

func (s *dnsServer) add(name string, t dnsmessage.Type, body dnsmessage.ResourceBody) {
	q := dnsmessage.Question{Name: mustName(name), Type: t, Class: dnsmessage.ClassINET}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[q] = append(s.records[q], dnsmessage.Resource{
		Header: dnsmessage.ResourceHeader{Name: q.Name, Type: t, Class: dnsmessage.ClassINET, TTL: 60}, Body: body})
}

func (s *dnsServer) a(name string, ip net.IP) {
	var a [4]byte
	copy(a[:], ip.To4())
	s.add(name, dnsmessage.TypeA, &dnsmessage.AResource{A: a})
}

func (s *dnsServer) srv(name string, prio, weight uint16, port int, target string) {
	s.add(name, dnsmessage.TypeSRV, &dnsmessage.SRVResource{Priority: prio, Weight: weight, Port: uint16(port), Target: mustName(target)})
}

// naptr adds a NAPTR record (RFC 3403 section 4.1: the replacement
// uncompressed).
func (s *dnsServer) naptr(name string, order, pref uint16, flags, service, replacement string) {
	b := binary.BigEndian.AppendUint16(nil, order)
	b = binary.BigEndian.AppendUint16(b, pref)
	for _, str := range []string{flags, service, ""} {
		b = append(append(b, byte(len(str))), str...)
	}
	for _, l := range strings.Split(strings.TrimSuffix(replacement, "."), ".") {
		b = append(append(b, byte(len(l))), l...)
	}
	b = append(b, 0)
	s.add(name, typeNAPTR, &dnsmessage.UnknownResource{Type: typeNAPTR, Data: b})
}

// An alias@domain account is called where the domain's DNS says (RFC
// 3263; issue 39 item 8): NAPTR (SIP+D2U before an unusable service)
// to SRV (the lower priority first) to A; the INVITE's request-URI keeps
// the domain. A domain with SRV records only is found through _sip._udp;
// one the DNS does not know has no route and is not dialled.
func TestAliasAtDomainThroughDNS(t *testing.T) {
	t.Parallel()
	dns := newDNSServer(t)
	cfg := sipConfig()
	cfg.DNSServer = dns.addr()
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	first, second := newPeer(t, e.addr()), newPeer(t, e.addr())
	dns.naptr("partner.test.", 10, 10, "s", "SIP+D2U", "_sip._udp.partner.test.")
	dns.naptr("partner.test.", 5, 10, "s", "SIP+D2X", "_sip._x.partner.test.") // a service Confer does not speak
	dns.srv("_sip._udp.partner.test.", 20, 0, 9, "backup.partner.test.")
	dns.srv("_sip._udp.partner.test.", 10, 5, first.port(), "sip1.partner.test.")
	dns.a("sip1.partner.test.", net.IPv4(127, 0, 0, 1))
	dns.a("backup.partner.test.", net.IPv4(127, 0, 0, 1))
	dns.srv("_sip._udp.other.test.", 0, 0, second.port(), "pbx.other.test.")
	dns.a("pbx.other.test.", net.IPv4(127, 0, 0, 1))

	mt := e.addMt(t, conf, "room@partner.test", 8)
	inv := first.request("INVITE")
	if !strings.HasPrefix(inv.first, "INVITE sip:room@partner.test SIP/2.0") {
		t.Fatalf("the INVITE through NAPTR and SRV: %s", inv.first)
	}
	first.respond(inv, 486, "Busy Here", "", "")
	waitFor(t, "room@partner.test busy", func() bool {
		st, o := e.outcome(t, conf, mt)
		return st != "calling" && o == int(media.Busy)
	})

	mt2 := e.addMt(t, conf, "desk@other.test", 8)
	inv = second.request("INVITE")
	if !strings.HasPrefix(inv.first, "INVITE sip:desk@other.test SIP/2.0") {
		t.Fatalf("the INVITE through SRV: %s", inv.first)
	}
	second.respond(inv, 486, "Busy Here", "", "")
	waitFor(t, "desk@other.test busy", func() bool {
		st, o := e.outcome(t, conf, mt2)
		return st != "calling" && o == int(media.Busy)
	})

	// A domain the DNS does not know is no SIP route (it would then be
	// offline with the outcome no route, simulated_test.go).
	if e.ua.Routes(context.Background(), media.Callee{Account: "room@unknown.test", AccountType: 8, Protocol: 1}) {
		t.Error("room@unknown.test is routed")
	}
}
