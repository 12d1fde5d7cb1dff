package sip

import (
	"context"
	"crypto/subtle"
	"errors"
	"sync"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"github.com/confer-platform/confer/internal/media"
)

// maxPasswordTries bounds the passwords a caller may key in before the
// call ends.
const maxPasswordTries = 3

// onInvite answers an INVITE: a new call to a conference number
// (calling in), or a re-INVITE of a call (a session refresh).
func (u *UA) onInvite(req *sip.Request, tx sip.ServerTransaction) {
	if to := req.To(); to != nil {
		if _, ok := to.Params.Get("tag"); ok {
			u.reinvite(req, tx)
			return
		}
	}
	if !u.acquire() { // an INVITE flood: bounded calls (Config.MaxDialogs)
		respond(req, tx, 503, "Service Unavailable", sip.NewHeader("Retry-After", "5"))
		return
	}
	released := false
	defer func() {
		if !released {
			u.release()
		}
	}()
	if req.Contact() == nil || req.CallID() == nil {
		respond(req, tx, 400, "Bad Request")
		return
	}
	if n, _, ok := sessionExpires(req); ok && n < secs(u.cfg.MinSE) {
		u.tooSmall(req, tx) // RFC 4028 section 9 (timer.go)
		return
	}
	u.stats.callsIn.Add(1)
	ctx, cancel := context.WithTimeout(u.ctx, reportTimeout)
	defer cancel()
	// The offer is read before the number is looked up: a caller learns
	// nothing of the conferences from a 488 (issue 38). An INVITE without
	// SDP (delayed offer, RFC 3261 section 13.2.1: trunks of PBXs) gets
	// Confer's offer in the 200; the ACK answers.
	delayed := len(req.Body()) == 0
	var peer Media
	want := allLines
	if !delayed {
		var err error
		if peer, err = u.readSDP(req.Body()); err != nil { // the SRTP policy too (srtp.go)
			respond(req, tx, 488, "Not Acceptable Here")
			return
		}
		want = linesOf(peer) // the offer's m-lines only
	}
	caller := u.callerOf(ctx, req) // identity.go
	conf, err := u.lookupOrStart(ctx, u.dialledNumber(req), caller)
	switch {
	case errors.Is(err, ErrNoConference):
		u.refuse(req, tx, caller, 404, "Not Found")
		return
	case err != nil:
		u.log.Warn("sip: looking up a conference", "err", err)
		respond(req, tx, 500, "Server Internal Error")
		return
	case conf.Closed: // closed_conf: no one calls in (issue 26)
		u.refuse(req, tx, caller, 403, "Forbidden")
		return
	case !u.mayCallIn(caller, conf): // --sip-call-in (callin.go)
		u.refuse(req, tx, caller, 403, "Forbidden")
		return
	case conf.Redirect != "": // the conference's media is on another node (RFC 3261 section 21.3.3)
		respond(req, tx, 302, "Moved Temporarily", sip.NewHeader("Contact", "<sip:"+conf.ID+"@"+conf.Redirect+">"))
		return
	}
	ip := u.ipFor(req.Source())
	l, err := newLeg(ip, u.bindIP(ip), &u.cfg, want, &u.stats.rtpIn, &u.stats.rtpOut)
	if err != nil {
		respond(req, tx, 503, "Service Unavailable")
		return
	}
	c := u.newCall(conf.ID, "", false)
	c.leg, c.callID = l, req.CallID().Value()
	c.caller = caller
	ct := u.contact(ip, req.Transport())
	dua := &sipgo.DialogUA{Client: u.cli, ContactHDR: ct, RewriteContact: true}
	dss, err := dua.ReadInvite(req, tx)
	if err != nil {
		l.close()
		respond(req, tx, 400, "Bad Request")
		return
	}
	c.dss = dss
	name := c.caller.Name
	// Tracked before the caller joins: the engine shows it online before
	// the answer, and a hang-up from then on finds the call (UA.Hangup),
	// as do the ACK and a BYE that may come before the answer returns.
	// From here the call holds the slot, released by its hangup.
	u.track(c)
	released = true
	// The caller's CANCEL (the transaction answers it, and the INVITE
	// 487) ends the set-up; a caller that joined meanwhile leaves.
	if !tx.OnCancel(func(*sip.Request) { u.wg.Go(func() { c.hangup(endPeer) }) }) {
		c.hangup(endPeer) // cancelled already
		return
	}
	if delayed {
		u.offerIn200(c, req, conf)
		return
	}
	c.negotiated(peer)
	var ep Endpoint
	if conf.Password == "" { // joins before the answer: a full conference gets 486
		ep, err = c.join(ctx, name, peer)
		if err != nil {
			code, reason := joinRefusal(err)
			code, reason = refusal(caller, code, reason) // callin.go
			_ = dss.Respond(code, reason, nil)           // after a CANCEL the transaction's 487 stands
			c.hangup(endEngine)                          // not answered: no BYE
			return
		}
	}
	answer := answerSDP(l, peer) // the offer's m-lines in its order, content included (content.go)
	l.start(peer)
	hdrs, _ := c.negotiate(req) // the session timer (timer.go)
	hdrs = append(hdrs, sip.NewHeader("Content-Type", "application/sdp"), sip.NewHeader("Allow", allowed))
	if err := dss.Respond(200, "OK", answer, hdrs...); err != nil {
		c.hangup(endLost) // no ACK: a joined caller leaves as lost (a CANCEL ended it already)
		return
	}
	if ep != nil {
		u.wg.Go(func() { c.watch(ep) })
		return
	}
	u.wg.Go(func() { u.askPassword(c, conf, name, peer) })
}

// askPassword plays the spoken prompt and collects the conference's
// password as RFC 4733 digits ending with '#', up to
// maxPasswordTries times within Config.PasswordTimeout, then joins.
func (u *UA) askPassword(c *call, conf Conference, name string, peer Media) {
	deadline := time.NewTimer(u.cfg.PasswordTimeout)
	defer deadline.Stop()
	// The spoken prompt (prompt.go) until the first digit.
	quiet := make(chan struct{})
	var once sync.Once
	hush := func() { once.Do(func() { close(quiet) }) }
	defer hush()
	u.wg.Go(func() { c.playPrompt(passwordPrompt, quiet) })
	var got []byte
	tries := 0
	for {
		select {
		case <-c.done:
			return
		case <-deadline.C:
			c.hangup(endEngine)
			return
		case d := <-c.leg.digits:
			hush()
			if d != '#' {
				if len(got) < 64 {
					got = append(got, d)
				}
				continue
			}
			if subtle.ConstantTimeCompare(got, []byte(conf.Password)) == 1 {
				ctx, cancel := context.WithTimeout(u.ctx, reportTimeout)
				ep, err := c.join(ctx, name, peer)
				cancel()
				if err != nil {
					c.hangup(endEngine) // answered already: BYE (docs/sip.md)
					return
				}
				c.watch(ep)
				return
			}
			got = got[:0]
			if tries++; tries >= maxPasswordTries {
				c.hangup(endEngine)
				return
			}
		}
	}
}

// joinRefusal is the response to a caller the conference refuses.
func joinRefusal(err error) (int, string) {
	switch {
	case errors.Is(err, media.ErrFull):
		return 486, "Busy Here" // max_join_mt reached (docs/sip.md)
	case errors.Is(err, media.ErrEnded):
		return 404, "Not Found"
	case errors.Is(err, media.ErrRefused):
		return 403, "Forbidden"
	}
	return 500, "Server Internal Error"
}

// callerName is how a caller is listed (alias): its display name, else
// its user.
func callerName(req *sip.Request) string {
	f := req.From()
	if f == nil {
		return "SIP"
	}
	if f.DisplayName != "" {
		return truncate(f.DisplayName, 64)
	}
	if f.Address.User != "" {
		return truncate(f.Address.User, 64)
	}
	return truncate(f.Address.Host, 64)
}

// onAck confirms an answered call; an ACK with SDP answers Confer's offer
// (a delayed offer's, or that of a re-INVITE without SDP).
func (u *UA) onAck(req *sip.Request, tx sip.ServerTransaction) {
	if req.CallID() == nil {
		return
	}
	c := u.callByID(req.CallID().Value())
	if c == nil {
		return
	}
	if c.dss != nil {
		_ = c.dss.ReadAck(req, tx)
		c.mu.Lock()
		c.acked = true
		c.mu.Unlock()
	}
	c.mu.Lock()
	d := c.delayed
	c.delayed = nil
	c.mu.Unlock()
	switch {
	case d != nil:
		body := req.Body()
		u.wg.Go(func() { u.answeredInAck(c, *d, body) })
	case len(req.Body()) > 0:
		c.reoffer(req.Body()) // applied as the terminal's new description (offer.go)
	}
}

// onBye ends a call the terminal hung up.
func (u *UA) onBye(req *sip.Request, tx sip.ServerTransaction) {
	var c *call
	if req.CallID() != nil {
		c = u.callByID(req.CallID().Value())
	}
	if c == nil {
		respond(req, tx, 481, "Call/Transaction Does Not Exist")
		return
	}
	var err error
	if c.dss != nil {
		err = c.dss.ReadBye(req, tx)
	} else if c.dcs != nil {
		err = c.dcs.ReadBye(req, tx)
	}
	if err != nil {
		respond(req, tx, 481, "Call/Transaction Does Not Exist")
		return
	}
	c.hangup(endPeer)
}

// reinvite answers an INVITE inside a call: before the call's ACK 491
// (RFC 3261 section 14.2), for no call 481; otherwise its offer is
// answered (offer.go: hold and resume, a new media address, the content
// m-line; the codecs stay), and the session timer refreshed. One without
// SDP gets Confer's description as the offer, answered in the ACK.
func (u *UA) reinvite(req *sip.Request, tx sip.ServerTransaction) {
	var c *call
	if req.CallID() != nil {
		c = u.callByID(req.CallID().Value())
	}
	if c == nil {
		respond(req, tx, 481, "Call/Transaction Does Not Exist")
		return
	}
	if !c.ready() || c.refreshing() { // an offer of Confer's outstanding (RFC 3261 section 14.2, glare)
		respond(req, tx, 491, "Request Pending")
		return
	}
	hdrs, ok := c.negotiate(req) // a session refresh (RFC 4028, timer.go)
	if !ok {
		u.tooSmall(req, tx)
		return
	}
	body := c.localSDP() // a re-INVITE without SDP: Confer's description, answered in the ACK
	if len(req.Body()) > 0 {
		body = c.reoffer(req.Body()) // hold, a new address, content (offer.go)
	}
	res := sip.NewSDPResponseFromRequest(req, body)
	for _, h := range hdrs {
		res.AppendHeader(h)
	}
	ct := u.contact(u.ipFor(req.Source()), req.Transport())
	res.AppendHeader(&ct)
	_ = tx.Respond(res)
}
