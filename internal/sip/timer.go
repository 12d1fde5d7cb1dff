package sip

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
)

// RFC 4028 session timers (docs/sip.md "Session timers and keep-alive"):
// the refresher refreshes the session at half its interval with a
// re-INVITE or UPDATE; the other side ends a session that was not
// refreshed before its expiry (minus 32 s or a third of the interval) with
// BYE, and Confer reports the terminal lost.

// timers is a call's session timer state.
type timers struct {
	mu         sync.Mutex
	on         bool          // negotiated: else the OPTIONS keep-alive
	interval   time.Duration // the session interval
	weRefresh  bool          // Confer is the refresher
	peerUpdate bool          // the terminal allows UPDATE (its Allow)
	pending    bool          // a refresh of Confer's is in progress (491 glare)
	kick       chan struct{} // the terminal refreshed: the expiry restarts
}

// headered is a request or response.
type headered interface {
	GetHeader(name string) sip.Header
	GetHeaders(name string) []sip.Header
}

// header is a header's value by its name or compact form ("" none).
func header(m headered, name, compact string) string {
	if h := m.GetHeader(name); h != nil {
		return strings.TrimSpace(h.Value())
	}
	if compact != "" {
		if h := m.GetHeader(compact); h != nil {
			return strings.TrimSpace(h.Value())
		}
	}
	return ""
}

// hasToken tells whether a comma-separated header (Supported, Require,
// Allow) names token, in any of its occurrences.
func hasToken(m headered, name, compact, token string) bool {
	hs := m.GetHeaders(name)
	if compact != "" {
		hs = append(hs, m.GetHeaders(compact)...)
	}
	for _, h := range hs {
		for _, v := range strings.Split(h.Value(), ",") {
			if strings.EqualFold(strings.TrimSpace(v), token) {
				return true
			}
		}
	}
	return false
}

// sessionExpires parses Session-Expires (compact x): the interval in
// seconds and the refresher parameter ("uac", "uas" or "").
func sessionExpires(m headered) (secs int, refresher string, ok bool) {
	v := header(m, "Session-Expires", "x")
	if v == "" {
		return 0, "", false
	}
	parts := strings.Split(v, ";")
	n, err := strconv.Atoi(strings.TrimSpace(parts[0]))
	if err != nil || n <= 0 {
		return 0, "", false
	}
	for _, p := range parts[1:] {
		k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(k, "refresher") {
			refresher = strings.ToLower(strings.TrimSpace(val))
		}
	}
	return n, refresher, true
}

// minSE parses Min-SE (seconds; 0 when absent or malformed).
func minSE(m headered) int {
	v, _, _ := strings.Cut(header(m, "Min-SE", ""), ";")
	n, _ := strconv.Atoi(strings.TrimSpace(v))
	return max(n, 0)
}

func secs(d time.Duration) int { return max(int(d/time.Second), 1) }

// offerTimer adds RFC 4028's headers to an INVITE of Confer's: it
// supports timers and asks for interval (no refresher: the terminal
// chooses, section 7.1).
func (u *UA) offerTimer(req *sip.Request, interval int) {
	req.AppendHeader(sip.NewHeader("Supported", "timer"))
	req.AppendHeader(sip.NewHeader("Session-Expires", strconv.Itoa(interval)))
	req.AppendHeader(sip.NewHeader("Min-SE", strconv.Itoa(secs(u.cfg.MinSE))))
}

// errEnded: the call was hung up while its INVITE was being placed.
var errEnded = errors.New("sip: the call ended")

// notSent is an INVITE that could not be sent (no transport, no route).
type notSent struct{ err error }

func (e notSent) Error() string { return "sip: INVITE not sent: " + e.err.Error() }

// invite sends a call's INVITE and waits for its answer; a 422 Session
// Interval Too Small is retried once with the Min-SE it names, with the
// same Call-ID and the next CSeq (RFC 4028 section 7.4).
func (u *UA) invite(ctx context.Context, c *call, dua *sipgo.DialogUA, req *sip.Request, opts sipgo.AnswerOptions) (*sipgo.DialogClientSession, error) {
	for try := 0; ; try++ {
		dcs, err := dua.WriteInvite(ctx, req)
		if err != nil {
			return nil, notSent{err}
		}
		prevID := ""
		if !c.set(func() { prevID, c.dcs, c.callID = c.callID, dcs, req.CallID().Value() }) {
			c.cleanup(dcs, nil, nil)
			return nil, errEnded
		}
		if prevID != "" && prevID != c.callID { // a redirected call's earlier INVITE (dial.go)
			u.forget(prevID, c)
		}
		u.track(c)
		err = dcs.WaitAnswer(ctx, opts)
		var de *sipgo.ErrDialogResponse
		if try == 0 && errors.As(err, &de) && de.Res.StatusCode == 422 {
			se, _, _ := sessionExpires(req)
			if m := minSE(de.Res); m > se {
				_ = dcs.Close()
				req = retryInvite(req, m)
				continue
			}
		}
		return dcs, err
	}
}

// retryInvite is the INVITE again with interval m: a new transaction.
func retryInvite(req *sip.Request, m int) *sip.Request {
	r := req.Clone()
	r.RemoveHeader("Via")
	r.RemoveHeader("Session-Expires")
	r.RemoveHeader("Min-SE")
	r.CSeq().SeqNo++
	r.AppendHeader(sip.NewHeader("Session-Expires", strconv.Itoa(m)))
	r.AppendHeader(sip.NewHeader("Min-SE", strconv.Itoa(m)))
	return r
}

// answered applies the terminal's 2xx to Confer's INVITE: with
// Session-Expires the timer runs (refresher uac: Confer, the default when
// the parameter is missing; uas: the terminal), without it the terminal
// does not support timers and the keep-alive runs (section 7.2).
func (c *call) answered(res *sip.Response) {
	n, ref, ok := sessionExpires(res)
	c.tm.mu.Lock()
	defer c.tm.mu.Unlock()
	c.tm.peerUpdate = hasToken(res, "Allow", "", "UPDATE")
	if !ok {
		return
	}
	c.tm.on = true
	c.tm.interval = time.Duration(max(n, secs(c.u.cfg.MinSE))) * time.Second
	c.tm.weRefresh = ref != "uas"
}

// negotiate reads an INVITE, re-INVITE or UPDATE of the terminal's
// (section 9): ok false when its interval is below Config.MinSE (the
// caller answers 422 with Min-SE); else the headers of the 2xx, and the
// call's timer updated (a refresh restarts the expiry). A first INVITE
// without Session-Expires leaves the timer off (the keep-alive runs); a
// refresh without it keeps the negotiated one.
func (c *call) negotiate(req *sip.Request) (hdrs []sip.Header, ok bool) {
	n, ref, has := sessionExpires(req)
	if has && n < secs(c.u.cfg.MinSE) {
		return nil, false
	}
	supported := hasToken(req, "Supported", "k", "timer") || hasToken(req, "Require", "", "timer")
	c.tm.mu.Lock()
	if hasToken(req, "Allow", "", "UPDATE") {
		c.tm.peerUpdate = true
	}
	if !has && !c.tm.on {
		c.tm.mu.Unlock()
		return []sip.Header{sip.NewHeader("Supported", "timer")}, true
	}
	if !has {
		n = secs(c.tm.interval)
		switch {
		case !c.tm.weRefresh && supported:
			ref = "uac" // the terminal stays the refresher
		default:
			ref = "uas"
		}
	}
	switch {
	case ref == "uac" && !supported: // it cannot be asked to refresh
		ref = "uas"
	case ref == "":
		ref = "uas"
		if supported {
			ref = "uac" // the terminal, which knows timers, refreshes
		}
	case ref != "uac":
		ref = "uas"
	}
	c.tm.on, c.tm.interval, c.tm.weRefresh = true, time.Duration(n)*time.Second, ref == "uas"
	c.tm.mu.Unlock()
	select {
	case c.tm.kick <- struct{}{}:
	default:
	}
	hdrs = []sip.Header{sip.NewHeader("Supported", "timer"),
		sip.NewHeader("Session-Expires", strconv.Itoa(n)+";refresher="+ref)}
	if supported {
		hdrs = append(hdrs, sip.NewHeader("Require", "timer"))
	}
	return hdrs, true
}

// tooSmall answers 422 with Confer's Min-SE (RFC 4028 section 9).
func (u *UA) tooSmall(req *sip.Request, tx sip.ServerTransaction) {
	respond(req, tx, 422, "Session Interval Too Small", sip.NewHeader("Min-SE", strconv.Itoa(secs(u.cfg.MinSE))))
}

// timerOn tells whether the call's session timer runs.
func (c *call) timerOn() bool {
	c.tm.mu.Lock()
	defer c.tm.mu.Unlock()
	return c.tm.on
}

// expiryGuard is how long before the expiry the side that does not
// refresh gives up: the lesser of 32 s and a third of the interval
// (RFC 4028 section 10).
func expiryGuard(iv time.Duration) time.Duration { return min(32*time.Second, iv/3) }

// watchTimer follows a call with a session timer until it ends: as
// refresher Confer refreshes at half the interval; otherwise a session
// the terminal did not refresh in time ends with BYE as lost.
func (c *call) watchTimer(ep Endpoint) {
	expires := time.Now()
	reset := func() {
		c.tm.mu.Lock()
		expires = time.Now().Add(c.tm.interval)
		c.tm.mu.Unlock()
	}
	reset()
	var retry time.Duration // after a refresh that failed without ending the call
	for {
		c.tm.mu.Lock()
		iv, we := c.tm.interval, c.tm.weRefresh
		c.tm.mu.Unlock()
		deadline := expires.Add(-expiryGuard(iv))
		wait := time.Until(deadline)
		if we {
			wait = time.Until(expires.Add(-iv / 2))
			if retry > 0 {
				wait = min(retry, time.Until(deadline))
			}
		}
		t := time.NewTimer(max(wait, 0))
		select {
		case <-c.done:
			t.Stop()
			return
		case <-c.u.ctx.Done():
			t.Stop()
			return
		case <-ep.Done():
			t.Stop()
			c.hangup(endEngine)
			return
		case <-c.tm.kick: // the terminal refreshed
			t.Stop()
			retry = 0
			reset()
			continue
		case <-t.C:
		}
		if !time.Now().Before(deadline) {
			c.u.log.Info("sip: a session expired without refresh", "conf", c.conf, "mt", c.mt)
			c.hangup(endLost)
			return
		}
		if !we {
			continue
		}
		switch c.refresh() {
		case refreshed:
			retry = 0
			reset()
		case refreshLost:
			c.u.log.Info("sip: a session refresh failed", "conf", c.conf, "mt", c.mt)
			c.hangup(endLost)
			return
		default: // tried again until the expiry
			retry = max(iv/8, 50*time.Millisecond)
		}
	}
}

type refreshResult int

const (
	refreshed   refreshResult = iota
	refreshLost               // 408, 481 or no answer: the terminal is gone (RFC 4028 section 10)
	refreshFailed
)

// refresh sends one session refresh: UPDATE without SDP when the terminal
// allows it, else a re-INVITE with the call's SDP unchanged (RFC 4028
// section 7.4); a 422 is retried with its Min-SE, an UPDATE refused with
// 405/501 as a re-INVITE.
func (c *call) refresh() refreshResult {
	c.tm.mu.Lock()
	if c.tm.pending {
		c.tm.mu.Unlock()
		return refreshFailed
	}
	c.tm.pending = true
	iv, update := c.tm.interval, c.tm.peerUpdate
	c.tm.mu.Unlock()
	defer func() {
		c.tm.mu.Lock()
		c.tm.pending = false
		c.tm.mu.Unlock()
	}()
	for try := 0; try < 3; try++ {
		method := sip.INVITE
		if update {
			method = sip.UPDATE
		}
		res, err := c.sendRefresh(method, secs(iv))
		if err != nil {
			if errors.Is(err, errEnded) {
				return refreshFailed
			}
			return refreshLost // no response: timer B/F
		}
		switch {
		case res.IsSuccess():
			c.tm.mu.Lock()
			if n, ref, ok := sessionExpires(res); ok {
				c.tm.interval = time.Duration(max(n, secs(c.u.cfg.MinSE))) * time.Second
				c.tm.weRefresh = ref != "uas"
			}
			c.tm.mu.Unlock()
			return refreshed
		case res.StatusCode == 408 || res.StatusCode == 481:
			return refreshLost
		case res.StatusCode == 422 && minSE(res) > secs(iv):
			iv = time.Duration(minSE(res)) * time.Second
		case update && (res.StatusCode == 405 || res.StatusCode == 501):
			update = false
			c.tm.mu.Lock()
			c.tm.peerUpdate = false
			c.tm.mu.Unlock()
		default:
			return refreshFailed // 491, 5xx: again shortly, until the expiry
		}
	}
	return refreshFailed
}

// sendRefresh sends a refresh request in the call's dialog and, for a
// re-INVITE answered 2xx, its ACK.
func (c *call) sendRefresh(method sip.RequestMethod, interval int) (*sip.Response, error) {
	c.mu.Lock()
	dcs, dss, ended := c.dcs, c.dss, c.ended
	c.mu.Unlock()
	if ended {
		return nil, errEnded
	}
	var target sip.Uri
	switch {
	case dcs != nil:
		target = dcs.InviteRequest.Recipient
		if ct := dcs.InviteResponse.Contact(); ct != nil {
			target = ct.Address
		}
	case dss != nil && dss.InviteRequest.Contact() != nil:
		target = dss.InviteRequest.Contact().Address
	default:
		return nil, errEnded
	}
	body := c.localSDP() // update.go
	req := sip.NewRequest(method, *target.Clone())
	req.AppendHeader(sip.NewHeader("Supported", "timer"))
	req.AppendHeader(sip.NewHeader("Session-Expires", strconv.Itoa(interval)+";refresher=uac"))
	req.AppendHeader(sip.NewHeader("Min-SE", strconv.Itoa(secs(c.u.cfg.MinSE))))
	req.AppendHeader(sip.NewHeader("Allow", allowed))
	if method == sip.INVITE {
		req.SetBody(body)
		req.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	}
	// Timer F/B bound the transaction; the context only stops it early.
	ctx, cancel := context.WithTimeout(c.u.ctx, 64*sip.T1)
	defer cancel()
	var res *sip.Response
	var err error
	if dcs != nil {
		res, err = dcs.Do(ctx, req)
	} else {
		res, err = dss.Do(ctx, req)
	}
	if err != nil || method != sip.INVITE || !res.IsSuccess() {
		return res, err
	}
	ack := sip.NewRequest(sip.ACK, *target.Clone())
	if dcs != nil {
		_ = dcs.WriteRequest(ack)
	} else {
		_ = dss.WriteRequest(ack)
	}
	return res, nil
}
