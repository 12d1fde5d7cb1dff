// Package sip is Confer's SIP user agent (docs/sip.md): it calls SIP
// terminals for the engine (protocol 1), answers terminals that dial a
// conference number, registers terminals under their account's E.164
// number, and bridges their RTP into the node's SFU without transcoding.
// The SIP stack is emiago/sipgo; RTP and SDP are pion's.
package sip

import (
	"crypto/tls"
	"crypto/x509"
	"time"
)

// DefaultAddr is where the user agent listens, UDP and TCP.
const DefaultAddr = ":5060"

// DefaultTLSAddr is where the user agent listens for SIP over TLS when it
// has a certificate (RFC 3261 section 19.1.2: port 5061).
const DefaultTLSAddr = ":5061"

// Config is the user agent's configuration (docs/sip.md "Configuration").
type Config struct {
	// Addr is the UDP and TCP listen address ("host:port"; port 0 picks a
	// free one, the same for both transports).
	Addr string
	// PublicIP is the address written into Contact headers and SDP (c=)
	// when the node is behind a 1:1 NAT; "" uses the local address that
	// reaches the peer.
	PublicIP string
	// OutboundProxy, when set ("host[:port]"), receives the INVITE of an
	// E.164 or telephone number that no terminal registered.
	OutboundProxy string
	// OutboundUser and OutboundPassword answer the outbound proxy's
	// digest challenge (401, 407) to an INVITE sent through it.
	OutboundUser, OutboundPassword string
	// RegisterTo, when set ("host[:port]"), is a PBX's or trunk's
	// registrar that Confer registers OutboundUser at (trunk.go), asking
	// for RegisterExpires [1 h].
	RegisterTo      string
	RegisterExpires time.Duration
	// DNSServer is the DNS server ("host:port") that locates the SIP
	// server of an alias@domain account (dns.go, RFC 3263); "": the
	// system's first nameserver.
	DNSServer string
	// CallTimeout bounds how long an outgoing call rings (no answer).
	CallTimeout time.Duration
	// KeepAlive is the interval of the in-dialog OPTIONS that find a
	// vanished terminal that does not support session timers; one that
	// fails twice in a row ends the call as lost.
	KeepAlive time.Duration
	// SessionExpires is the RFC 4028 session interval Confer asks for
	// (Session-Expires of its INVITE) [1800 s]; MinSE the smallest it
	// accepts (Min-SE; an INVITE asking less gets 422) [90 s]. Whole
	// seconds; tests set a few seconds.
	SessionExpires, MinSE time.Duration
	// TLS, when set (certificates), serves SIP over TLS on TLSAddr
	// ("host:port"; port 0 a free one) and calls routes that ask for TLS.
	TLS     *tls.Config
	TLSAddr string
	// TLSRoots verifies the certificate of a terminal Confer opens a TLS
	// connection to (nil: the system's roots).
	TLSRoots *x509.CertPool
	// PasswordTimeout bounds how long a caller has to key in a
	// conference's password (DTMF ending with '#').
	PasswordTimeout time.Duration
	// MaxDialogs bounds the calls (in and out, ringing or established) of
	// the node; an INVITE beyond gets 503.
	MaxDialogs int
	// RegisterMin and RegisterMax bound the expiry a terminal may ask of a
	// registration (RFC 3261 section 10.3: 423 below the minimum).
	RegisterMin, RegisterMax time.Duration
	// RTPPortMin and RTPPortMax bound the UDP ports of RTP and RTCP.
	RTPPortMin, RTPPortMax int
	// SRTP is the SDES-SRTP policy (srtp.go): SRTPOptional (""),
	// SRTPRequired or SRTPOff.
	SRTP string
	// Limits per source address (limits.go): messages a second [100,
	// bursts of twice that], open TCP/TLS connections [32], and how long
	// a connection that spoke may stay silent [65 min].
	RatePerAddress, TCPPerAddress int
	TCPIdle                       time.Duration
	// TCPSilent is how long a new connection may stay silent [30 s].
	TCPSilent time.Duration
	// CallIn is who may call a conference in (callin.go): CallInOpen
	// (""), CallInPassword or CallInRegistered.
	CallIn string
}

func (c *Config) defaults() {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = 30 * time.Second
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = 30 * time.Second
	}
	if c.MinSE < time.Second {
		c.MinSE = 90 * time.Second // RFC 4028 section 4: at least 90 s
	}
	if c.SessionExpires <= 0 {
		c.SessionExpires = 1800 * time.Second // RFC 4028 section 4: recommended
	}
	c.SessionExpires = max(c.SessionExpires, c.MinSE)
	if c.TLSAddr == "" {
		c.TLSAddr = DefaultTLSAddr
	}
	if c.PasswordTimeout <= 0 {
		c.PasswordTimeout = 30 * time.Second
	}
	if c.MaxDialogs <= 0 {
		c.MaxDialogs = 500
	}
	if c.RegisterMin <= 0 {
		c.RegisterMin = 60 * time.Second
	}
	if c.RegisterMax <= 0 {
		c.RegisterMax = time.Hour
	}
	if c.RatePerAddress <= 0 {
		c.RatePerAddress = 100
	}
	if c.TCPPerAddress <= 0 {
		c.TCPPerAddress = 32
	}
	if c.TCPIdle <= 0 {
		c.TCPIdle = c.RegisterMax + 5*time.Minute // a registration's refresh comes first
	}
	if c.TCPSilent <= 0 {
		c.TCPSilent = 30 * time.Second
	}
	if c.RegisterExpires <= 0 {
		c.RegisterExpires = time.Hour
	}
	if c.CallIn == "" {
		c.CallIn = CallInOpen
	}
	if c.SRTP == "" {
		c.SRTP = SRTPOptional
	}
	if c.RTPPortMin <= 0 || c.RTPPortMax < c.RTPPortMin+5 {
		c.RTPPortMin, c.RTPPortMax = 40000, 49999
	}
}
