package sip

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// Locating a SIP server of a domain (RFC 3263 section 4; docs/sip.md
// "Which numbers are called"): an alias@domain account is called at the
// transport, address and port the domain's DNS names. NAPTR records
// (RFC 3403) with the services SIP+D2U, SIP+D2T or SIPS+D2T and flag "s"
// name SRV records, in their order and preference; without NAPTR the SRV
// records _sip._udp, _sip._tcp and _sips._tcp are tried in that order;
// SRV records (RFC 2782) by priority, then weight; their targets' A
// records; without SRV the domain's own A record on port 5060 over UDP.

// sipTarget is where a request to a domain goes.
type sipTarget struct {
	ip        net.IP
	port      int
	transport string // UDP, TCP, TLS
}

// typeNAPTR is the NAPTR record type (RFC 3403), which dnsmessage lacks.
const typeNAPTR = dnsmessage.Type(35)

// dnsTimeout bounds one DNS query, locateTimeout all of a domain's.
const (
	dnsTimeout    = 2 * time.Second
	locateTimeout = 4 * time.Second
)

var errNoSIPServer = errors.New("sip: the domain names no SIP server")

// naptrServices are the NAPTR services Confer speaks, by transport.
var naptrServices = map[string]string{"SIP+D2U": "UDP", "SIP+D2T": "TCP", "SIPS+D2T": "TLS"}

// srvFallback are the SRV names tried without NAPTR (section 4.1).
var srvFallback = []struct{ prefix, transport string }{
	{"_sip._udp.", "UDP"}, {"_sip._tcp.", "TCP"}, {"_sips._tcp.", "TLS"},
}

// locate finds the SIP server of domain.
func (u *UA) locate(ctx context.Context, domain string) (sipTarget, error) {
	domain = strings.TrimSuffix(domain, ".") + "."
	type srvName struct{ name, transport string }
	var names []srvName
	if rrs, err := u.dnsQuery(ctx, domain, typeNAPTR); err == nil {
		var ns []naptr
		for _, rr := range rrs {
			if raw, ok := rr.Body.(*dnsmessage.UnknownResource); ok && rr.Header.Type == typeNAPTR {
				if n, ok := parseNAPTR(raw.Data); ok && strings.EqualFold(n.flags, "s") && naptrServices[strings.ToUpper(n.service)] != "" {
					ns = append(ns, n)
				}
			}
		}
		slices.SortStableFunc(ns, func(a, b naptr) int {
			return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.pref, b.pref))
		})
		for _, n := range ns {
			names = append(names, srvName{n.replacement, naptrServices[strings.ToUpper(n.service)]})
		}
	}
	if len(names) == 0 {
		for _, f := range srvFallback {
			names = append(names, srvName{f.prefix + domain, f.transport})
		}
	}
	for _, n := range names {
		rrs, err := u.dnsQuery(ctx, n.name, dnsmessage.TypeSRV)
		if err != nil {
			continue
		}
		var srvs []*dnsmessage.SRVResource
		for _, rr := range rrs {
			if s, ok := rr.Body.(*dnsmessage.SRVResource); ok {
				srvs = append(srvs, s)
			}
		}
		slices.SortStableFunc(srvs, func(a, b *dnsmessage.SRVResource) int {
			return cmp.Or(cmp.Compare(a.Priority, b.Priority), cmp.Compare(b.Weight, a.Weight))
		})
		for _, s := range srvs {
			if ip := u.lookupA(ctx, s.Target.String()); ip != nil {
				return sipTarget{ip: ip, port: int(s.Port), transport: n.transport}, nil
			}
		}
	}
	if ip := u.lookupA(ctx, domain); ip != nil {
		return sipTarget{ip: ip, port: 5060, transport: "UDP"}, nil
	}
	return sipTarget{}, errNoSIPServer
}

// lookupA is a host's first IPv4 address, nil for none.
func (u *UA) lookupA(ctx context.Context, host string) net.IP {
	rrs, err := u.dnsQuery(ctx, host, dnsmessage.TypeA)
	if err != nil {
		return nil
	}
	for _, rr := range rrs {
		if a, ok := rr.Body.(*dnsmessage.AResource); ok {
			return net.IP(a.A[:])
		}
	}
	return nil
}

// dnsQuery asks the DNS server (Config.DNSServer, else the system's
// first nameserver) for name's records of type t, over UDP.
func (u *UA) dnsQuery(ctx context.Context, name string, t dnsmessage.Type) ([]dnsmessage.Resource, error) {
	n, err := dnsmessage.NewName(name)
	if err != nil {
		return nil, err
	}
	id := uint16(rand.IntN(1 << 16))
	q := dnsmessage.Message{Header: dnsmessage.Header{ID: id, RecursionDesired: true},
		Questions: []dnsmessage.Question{{Name: n, Type: t, Class: dnsmessage.ClassINET}}}
	b, err := q.Pack()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, dnsTimeout)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "udp", u.dnsServer())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	}
	if _, err := c.Write(b); err != nil {
		return nil, err
	}
	buf := make([]byte, 4096)
	for {
		k, err := c.Read(buf)
		if err != nil {
			return nil, err
		}
		var m dnsmessage.Message
		if m.Unpack(buf[:k]) != nil || m.ID != id || !m.Response {
			continue // not the answer to this query
		}
		if m.RCode != dnsmessage.RCodeSuccess {
			return nil, errors.New("sip: DNS " + m.RCode.String())
		}
		return append(m.Answers, m.Additionals...), nil
	}
}

// dnsServer is the DNS server's address.
func (u *UA) dnsServer() string {
	if u.cfg.DNSServer != "" {
		return u.cfg.DNSServer
	}
	if f, err := os.Open("/etc/resolv.conf"); err == nil {
		defer f.Close()
		s := bufio.NewScanner(f)
		for s.Scan() {
			if fs := strings.Fields(s.Text()); len(fs) >= 2 && fs[0] == "nameserver" {
				return net.JoinHostPort(fs[1], "53")
			}
		}
	}
	return "127.0.0.1:53"
}

// naptr is a NAPTR record (RFC 3403 section 4.1).
type naptr struct {
	order, pref            uint16
	flags, service, regexp string
	replacement            string
}

// parseNAPTR reads a NAPTR record's data; its replacement is an
// uncompressed domain name (RFC 3403 section 4.1).
func parseNAPTR(b []byte) (naptr, bool) {
	var n naptr
	if len(b) < 4 {
		return n, false
	}
	n.order, n.pref = binary.BigEndian.Uint16(b), binary.BigEndian.Uint16(b[2:])
	b = b[4:]
	for _, dst := range []*string{&n.flags, &n.service, &n.regexp} {
		if len(b) < 1 || len(b) < 1+int(b[0]) {
			return n, false
		}
		*dst, b = string(b[1:1+int(b[0])]), b[1+int(b[0]):]
	}
	var labels []string
	for {
		if len(b) < 1 {
			return n, false
		}
		l := int(b[0])
		if l == 0 {
			break
		}
		if l > 63 || len(b) < 1+l {
			return n, false
		}
		labels = append(labels, string(b[1:1+l]))
		b = b[1+l:]
	}
	n.replacement = strings.Join(labels, ".") + "."
	return n, len(labels) > 0
}

// locateAccount is where an alias@domain account is called: with a port,
// the domain's A record (section 4.2); over TLS (sips:) its _sips._tcp
// SRV records, else its A record on 5061; otherwise locate.
func (u *UA) locateAccount(ctx context.Context, domain string, port int, secure bool) (sipTarget, error) {
	if !validDomain(domain) {
		return sipTarget{}, errNoSIPServer
	}
	ctx, cancel := context.WithTimeout(ctx, locateTimeout)
	defer cancel()
	transport := "UDP"
	if secure {
		transport = "TLS"
	}
	if port != 0 {
		if ip := u.lookupA(ctx, domain); ip != nil {
			return sipTarget{ip: ip, port: port, transport: transport}, nil
		}
		return sipTarget{}, errNoSIPServer
	}
	if !secure {
		return u.locate(ctx, domain)
	}
	if rrs, err := u.dnsQuery(ctx, "_sips._tcp."+strings.TrimSuffix(domain, ".")+".", dnsmessage.TypeSRV); err == nil {
		for _, rr := range rrs {
			if s, ok := rr.Body.(*dnsmessage.SRVResource); ok {
				if ip := u.lookupA(ctx, s.Target.String()); ip != nil {
					return sipTarget{ip: ip, port: int(s.Port), transport: "TLS"}, nil
				}
			}
		}
	}
	if ip := u.lookupA(ctx, domain); ip != nil {
		return sipTarget{ip: ip, port: 5061, transport: "TLS"}, nil
	}
	return sipTarget{}, errNoSIPServer
}

// validDomain tells whether s is a host name (RFC 1123 labels).
func validDomain(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
