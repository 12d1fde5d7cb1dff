package sip

import (
	"context"

	"github.com/emiago/sipgo/sip"
)

// Delayed offer (RFC 3261 section 13.2.1, RFC 3264 section 5): an INVITE
// without SDP, as the trunks of PBXs send them, is answered 200 with
// Confer's offer (audio, video, content: every m-line Confer bridges);
// the ACK carries the terminal's answer, and only then does the caller
// join (or key in the conference's password). An ACK without an answer,
// or with one Confer cannot use, ends the call with BYE (section
// 13.3.1.4). A full conference found then also ends it with BYE: the 486
// of an INVITE with an offer is no longer possible.

// offerIn200 answers a delayed offer's INVITE with Confer's offer.
func (u *UA) offerIn200(c *call, req *sip.Request, conf Conference) {
	c.mu.Lock()
	c.delayed = &conf
	c.mu.Unlock()
	hdrs, _ := c.negotiate(req)
	hdrs = append(hdrs, sip.NewHeader("Content-Type", "application/sdp"), sip.NewHeader("Allow", allowed))
	if err := c.dss.Respond(200, "OK", offerSDP(c.leg, u.cfg.SRTP == SRTPRequired), hdrs...); err != nil {
		c.hangup(endEngine) // no ACK
	}
}

// answeredInAck applies the ACK's answer to a delayed offer and joins the
// caller (or asks for the password).
func (u *UA) answeredInAck(c *call, conf Conference, body []byte) {
	peer, err := u.readSDP(body)
	if err != nil {
		u.log.Info("sip: a delayed offer's ACK without a usable answer", "conf", conf.ID, "err", err)
		c.hangup(endEngine)
		return
	}
	c.negotiated(peer)
	c.leg.start(peer)
	if conf.Password != "" {
		u.askPassword(c, conf, c.caller.Name, peer)
		return
	}
	ctx, cancel := context.WithTimeout(u.ctx, reportTimeout)
	ep, err := c.join(ctx, c.caller.Name, peer)
	cancel()
	if err != nil {
		c.hangup(endEngine)
		return
	}
	c.watch(ep)
}
