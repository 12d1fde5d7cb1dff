package sip

import (
	"github.com/emiago/sipgo/sip"
)

// onUpdate serves UPDATE (RFC 3311) in a call: a session refresh
// (RFC 4028) without SDP, answered 200 with the session timer; with SDP
// an offer, answered like a re-INVITE with the call's SDP unchanged (no
// renegotiation: docs/sip.md "Limits"). Outside a dialog 481; an offer
// while one of Confer's is outstanding (its refresh re-INVITE, or the
// call not yet up) 491.
func (u *UA) onUpdate(req *sip.Request, tx sip.ServerTransaction) {
	var c *call
	if req.CallID() != nil {
		c = u.callByID(req.CallID().Value())
	}
	if c == nil || !c.inDialog(req) {
		respond(req, tx, 481, "Call/Transaction Does Not Exist")
		return
	}
	offer := len(req.Body()) > 0
	if offer && (!c.ready() || c.refreshing()) {
		respond(req, tx, 491, "Request Pending") // RFC 3311 section 5.2
		return
	}
	hdrs, ok := c.negotiate(req) // timer.go
	if !ok {
		u.tooSmall(req, tx)
		return
	}
	var res *sip.Response
	if offer { // answered as a re-INVITE's offer (offer.go)
		res = sip.NewSDPResponseFromRequest(req, c.reoffer(req.Body()))
	} else {
		res = sip.NewResponseFromRequest(req, 200, "OK", nil)
	}
	for _, h := range hdrs {
		res.AppendHeader(h)
	}
	ct := u.contact(u.ipFor(req.Source()), req.Transport()) // RFC 3311 section 5.2: a 2xx has Contact
	res.AppendHeader(&ct)
	_ = tx.Respond(res)
}

// inDialog tells whether an in-dialog request belongs to the call's
// dialog: its To tag Confer's, its From tag the terminal's (RFC 3261
// section 12.2.2).
func (c *call) inDialog(req *sip.Request) bool {
	to, from := req.To(), req.From()
	if to == nil || from == nil {
		return false
	}
	toTag, _ := to.Params.Get("tag")
	fromTag, _ := from.Params.Get("tag")
	c.mu.Lock()
	dcs, dss := c.dcs, c.dss
	c.mu.Unlock()
	var local, remote string
	switch {
	case dcs != nil && dcs.InviteResponse != nil:
		local, _ = dcs.InviteRequest.From().Params.Get("tag")
		remote, _ = dcs.InviteResponse.To().Params.Get("tag")
	case dss != nil && dss.InviteResponse != nil:
		local, _ = dss.InviteResponse.To().Params.Get("tag")
		remote, _ = dss.InviteRequest.From().Params.Get("tag")
	default:
		return false
	}
	return toTag != "" && toTag == local && fromTag == remote
}

// ready tells whether the call's INVITE exchange is complete (an answered
// call got its ACK, a dialled one was ACKed).
func (c *call) ready() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return (c.dss != nil && c.acked) || (c.dcs != nil && c.dcs.LoadState() == sip.DialogStateConfirmed)
}

// refreshing tells whether a session refresh of Confer's is in progress.
func (c *call) refreshing() bool {
	c.tm.mu.Lock()
	defer c.tm.mu.Unlock()
	return c.tm.pending
}

// localSDP is Confer's session description of the call: its answer to
// the last offer of the terminal's (offer.go), else its answer, or its
// offer of a dialled call.
func (c *call) localSDP() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.local != nil {
		return c.local
	}
	if c.dss != nil && c.dss.InviteResponse != nil {
		return c.dss.InviteResponse.Body()
	}
	if c.dcs != nil {
		return c.dcs.InviteRequest.Body()
	}
	return nil
}
