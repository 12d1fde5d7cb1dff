package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/sip"
)

// sipFlags are the SIP user agent's flags (docs/sip.md "Configuration").
type sipFlags struct {
	fs                    *flag.FlagSet
	addr, publicIP, proxy *string
	tlsAddr               *string
	rtpPorts              *string
	maxCalls              *int
	noSIP                 *bool
}

func addSIPFlags(fs *flag.FlagSet) *sipFlags {
	return &sipFlags{
		fs:       fs,
		addr:     fs.String("sip-addr", envOr("CONFER_SIP_ADDR", sip.DefaultAddr), "SIP listen address, UDP and TCP (env CONFER_SIP_ADDR)"),
		tlsAddr:  fs.String("sip-tls-addr", envOr("CONFER_SIP_TLS_ADDR", sip.DefaultTLSAddr), "SIP over TLS listen address, with --tls-cert and --tls-key; \"\" turns it off (env CONFER_SIP_TLS_ADDR)"),
		publicIP: fs.String("sip-public-ip", envOr("CONFER_SIP_PUBLIC_IP", ""), "address to write into SIP Contact headers and SDP behind a 1:1 NAT (env CONFER_SIP_PUBLIC_IP)"),
		proxy:    fs.String("sip-outbound-proxy", envOr("CONFER_SIP_OUTBOUND_PROXY", ""), "host[:port] that receives calls to E.164 numbers no terminal registered (env CONFER_SIP_OUTBOUND_PROXY)"),
		rtpPorts: fs.String("sip-rtp-ports", envOr("CONFER_SIP_RTP_PORTS", "40000-49999"), "UDP port range of SIP calls' RTP and RTCP (env CONFER_SIP_RTP_PORTS)"),
		maxCalls: fs.Int("sip-max-calls", 500, "SIP calls in progress at once, in and out; an INVITE beyond gets 503"),
		noSIP:    fs.Bool("no-sip", false, "run without the SIP user agent (it also needs the SFU: --no-rtc disables it)"),
	}
}

// config is the user agent configuration the flags describe; nil when
// SIP is off. With the HTTPS certificate (--tls-cert, --tls-key) and
// --sip-tls-addr, SIP over TLS is served with it too (docs/sip.md "TLS").
func (f *sipFlags) config(noRTC bool, certFile, keyFile string) (*sip.Config, error) {
	if *f.noSIP || noRTC {
		return nil, nil
	}
	c := sip.Config{Addr: *f.addr, PublicIP: *f.publicIP, OutboundProxy: *f.proxy, MaxDialogs: *f.maxCalls}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return nil, fmt.Errorf("--sip-addr: %v", err)
	}
	if *f.tlsAddr != "" && certFile != "" && keyFile != "" {
		if _, _, err := net.SplitHostPort(*f.tlsAddr); err != nil {
			return nil, fmt.Errorf("--sip-tls-addr: %v", err)
		}
		kp, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("TLS: %v", err)
		}
		c.TLS, c.TLSAddr = &tls.Config{Certificates: []tls.Certificate{kp}}, *f.tlsAddr
	}
	if c.PublicIP != "" && net.ParseIP(c.PublicIP) == nil {
		return nil, fmt.Errorf("--sip-public-ip: %q is not an IP address", c.PublicIP)
	}
	lo, hi, ok := strings.Cut(*f.rtpPorts, "-")
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	b, err2 := strconv.Atoi(strings.TrimSpace(hi))
	if !ok || err1 != nil || err2 != nil || a < 1024 || b > 65535 || b-a < 3 {
		return nil, fmt.Errorf("--sip-rtp-ports: want a range like 40000-49999 of at least 4 ports above 1023")
	}
	c.RTPPortMin, c.RTPPortMax = a, b
	if c.MaxDialogs < 1 {
		return nil, fmt.Errorf("--sip-max-calls must be at least 1")
	}
	return &c, nil
}

// addrDefault tells whether the operator left --sip-addr at its default:
// then a port taken by another process (a second node on one laptop)
// falls back to a free one instead of failing the start.
func (f *sipFlags) addrDefault() bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == "sip-addr" })
	return !set && *f.addr == sip.DefaultAddr
}

// tlsAddrDefault is addrDefault for --sip-tls-addr.
func (f *sipFlags) tlsAddrDefault() bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == "sip-tls-addr" })
	return !set && *f.tlsAddr == sip.DefaultTLSAddr
}
