package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

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
	srtp, callIn          *string
	proxyUser, proxyPass  *string
	registerTo            *string
	registerExpires       *time.Duration
	rate, tcpPerAddr      *int
	tcpIdle               *time.Duration
}

func addSIPFlags(fs *flag.FlagSet) *sipFlags {
	return &sipFlags{
		fs:              fs,
		addr:            fs.String("sip-addr", envOr("CONFER_SIP_ADDR", sip.DefaultAddr), "SIP listen address, UDP and TCP (env CONFER_SIP_ADDR)"),
		tlsAddr:         fs.String("sip-tls-addr", envOr("CONFER_SIP_TLS_ADDR", sip.DefaultTLSAddr), "SIP over TLS listen address, with --tls-cert and --tls-key; \"\" turns it off (env CONFER_SIP_TLS_ADDR)"),
		publicIP:        fs.String("sip-public-ip", envOr("CONFER_SIP_PUBLIC_IP", ""), "address to write into SIP Contact headers and SDP behind a 1:1 NAT (env CONFER_SIP_PUBLIC_IP)"),
		proxy:           fs.String("sip-outbound-proxy", envOr("CONFER_SIP_OUTBOUND_PROXY", ""), "host[:port] that receives calls to E.164 numbers no terminal registered (env CONFER_SIP_OUTBOUND_PROXY)"),
		rtpPorts:        fs.String("sip-rtp-ports", envOr("CONFER_SIP_RTP_PORTS", "40000-49999"), "UDP port range of SIP calls' RTP and RTCP (env CONFER_SIP_RTP_PORTS)"),
		maxCalls:        fs.Int("sip-max-calls", 500, "SIP calls in progress at once, in and out; an INVITE beyond gets 503"),
		noSIP:           fs.Bool("no-sip", false, "run without the SIP user agent (it also needs the SFU: --no-rtc disables it)"),
		proxyUser:       fs.String("sip-outbound-user", envOr("CONFER_SIP_OUTBOUND_USER", ""), "username that answers the outbound proxy's digest challenge (401, 407) (env CONFER_SIP_OUTBOUND_USER)"),
		proxyPass:       fs.String("sip-outbound-password", envOr("CONFER_SIP_OUTBOUND_PASSWORD", ""), "password of --sip-outbound-user (env CONFER_SIP_OUTBOUND_PASSWORD; prefer the environment or the config file to the command line)"),
		registerTo:      fs.String("sip-register-to", envOr("CONFER_SIP_REGISTER_TO", ""), "host[:port] of a PBX's or trunk's registrar that Confer registers --sip-outbound-user at, with --sip-outbound-password (env CONFER_SIP_REGISTER_TO; docs/sip.md)"),
		registerExpires: fs.Duration("sip-register-expires", time.Hour, "expiry Confer asks of --sip-register-to; the binding is refreshed at half what is granted"),
		callIn:          fs.String("sip-call-in", envOr("CONFER_SIP_CALL_IN", sip.CallInOpen), "who may call a conference in: open (anyone who reaches the SIP port; a conference's password is asked for), password (only conferences with a password) or registered (only terminals registered from their address) (env CONFER_SIP_CALL_IN; docs/sip.md)"),
		rate:            fs.Int("sip-rate", 100, "SIP messages a second from one address (bursts of twice that); UDP beyond is dropped, TCP waits"),
		tcpPerAddr:      fs.Int("sip-tcp-per-address", 32, "SIP TCP/TLS connections open at once from one address"),
		tcpIdle:         fs.Duration("sip-tcp-idle", 65*time.Minute, "how long a SIP TCP/TLS connection that spoke may stay silent (one that never spoke: 30 s)"),
		srtp:            fs.String("sip-srtp", envOr("CONFER_SIP_SRTP", sip.SRTPOptional), "SDES-SRTP of SIP calls: optional (SRTP answered with SRTP), required (plain RTP refused, SRTP offered) or off (env CONFER_SIP_SRTP; docs/sip.md)"),
	}
}

// config is the user agent configuration the flags describe; nil when
// SIP is off. With the HTTPS certificate (--tls-cert, --tls-key) and
// --sip-tls-addr, SIP over TLS is served with it too (docs/sip.md "TLS").
func (f *sipFlags) config(noRTC bool, certFile, keyFile string) (*sip.Config, error) {
	if *f.noSIP || noRTC {
		return nil, nil
	}
	c := sip.Config{Addr: *f.addr, PublicIP: *f.publicIP, OutboundProxy: *f.proxy, MaxDialogs: *f.maxCalls, SRTP: *f.srtp}
	c.CallIn, c.RatePerAddress, c.TCPPerAddress, c.TCPIdle = *f.callIn, *f.rate, *f.tcpPerAddr, *f.tcpIdle
	c.OutboundUser, c.OutboundPassword = *f.proxyUser, *f.proxyPass
	c.RegisterTo, c.RegisterExpires = *f.registerTo, *f.registerExpires
	if c.RegisterTo != "" && c.OutboundUser == "" {
		return nil, fmt.Errorf("--sip-register-to needs --sip-outbound-user (the account Confer registers)")
	}
	if c.RegisterExpires < time.Minute {
		return nil, fmt.Errorf("--sip-register-expires must be at least 1m")
	}
	if c.CallIn != sip.CallInOpen && c.CallIn != sip.CallInPassword && c.CallIn != sip.CallInRegistered {
		return nil, fmt.Errorf("--sip-call-in: %q is not open, password or registered", c.CallIn)
	}
	if c.RatePerAddress < 1 || c.TCPPerAddress < 1 || c.TCPIdle < time.Second {
		return nil, fmt.Errorf("--sip-rate and --sip-tcp-per-address must be at least 1, --sip-tcp-idle at least 1s")
	}
	if c.SRTP != sip.SRTPOptional && c.SRTP != sip.SRTPRequired && c.SRTP != sip.SRTPOff {
		return nil, fmt.Errorf("--sip-srtp: %q is not off, optional or required", c.SRTP)
	}
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
	if !ok || err1 != nil || err2 != nil || a < 1024 || b > 65535 || b-a < 5 { // one call out takes three pairs
		return nil, fmt.Errorf("--sip-rtp-ports: want a range like 40000-49999 of at least 6 ports above 1023")
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
