package sip

import (
	"bytes"
	"context"
	"net"
	"strings"

	"github.com/emiago/sipgo/sip"
)

// Message sizes over UDP (RFC 3261 section 18.1.1; docs/sip.md
// "Transports"). A request Confer sends that is larger than 1300 bytes
// (the path MTU is unknown) and would go over UDP goes over TCP; when the
// TCP connection cannot be made (refused, reset) it is sent over UDP
// after all, fragmented by IP. Responses go back the way the request came
// (section 18.2.2), over UDP whatever their size: a room system's INVITE
// through a proxy (two Via, a Record-Route, SDP with content and BFCP
// lines) gets a 200 of about as many bytes.

// udpRequestMax is the largest request Confer sends over UDP.
const udpRequestMax = 1300

// udpDatagramMax is the largest UDP payload over IPv4.
const udpDatagramMax = 65507

func init() {
	// sipgo refuses to write a UDP message larger than UDPMTUSize-200
	// (1300 bytes by default), a response included: Confer decides the
	// transport of its requests itself (sizedRequester).
	sip.UDPMTUSize = udpDatagramMax + 200
}

// sizedRequester is the user agent's client transaction requester
// (sipgo.Client.TxRequester): it sends a large request over TCP (section
// 18.1.1) and a UDP request from the SIP port, the address its Via names,
// rather than from a socket of its own (a terminal that answers the Via's
// port, or filters by source, sees one address).
type sizedRequester struct {
	tx    *sip.TransactionLayer
	tp    *sip.TransportLayer
	laddr sip.Addr // the UDP listener
}

func (r *sizedRequester) Request(ctx context.Context, req *sip.Request) (sip.ClientTransaction, error) {
	if req.IsAck() { // sipgo's Client.WriteRequest: an ACK has no transaction
		r.fromListener(req)
		return nil, r.tp.WriteMsg(req)
	}
	if !strings.EqualFold(req.Transport(), "UDP") || size(req) <= udpRequestMax {
		r.fromListener(req)
		return r.request(ctx, req)
	}
	setTransport(req, "TCP")
	if tx, err := r.request(ctx, req); err == nil {
		return tx, nil
	}
	// The terminal takes no TCP: UDP after all (section 18.1.1).
	setTransport(req, "UDP")
	r.fromListener(req)
	return r.request(ctx, req)
}

// request starts the client transaction (no typed nil on failure).
func (r *sizedRequester) request(ctx context.Context, req *sip.Request) (sip.ClientTransaction, error) {
	tx, err := r.tx.Request(ctx, req)
	if err != nil {
		return nil, err
	}
	return tx, nil
}

// fromListener binds a UDP request to the SIP port.
func (r *sizedRequester) fromListener(req *sip.Request) {
	if strings.EqualFold(req.Transport(), "UDP") && req.Laddr.IP == nil && r.laddr.IP != nil {
		req.Laddr = r.laddr
	}
}

// setTransport sends req over transport: its Via says so, with a new
// branch (a new transaction).
func setTransport(req *sip.Request, transport string) {
	req.SetTransport(transport)
	req.Laddr = sip.Addr{}
	if via := req.Via(); via != nil {
		via.Transport = transport
		via.Params.Add("branch", sip.GenerateBranchN(16))
	}
}

// size is the length of req as sent.
func size(req *sip.Request) int {
	var b bytes.Buffer
	req.StringWrite(&b)
	return b.Len()
}

// listenerAddr is the UDP listener's address as sipgo's connection pool
// names it.
func listenerAddr(c net.PacketConn) sip.Addr {
	a := c.LocalAddr().(*net.UDPAddr)
	return sip.Addr{IP: a.IP, Port: a.Port}
}
