package sip

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"github.com/confer-platform/confer/internal/media"
)

// Account types of a callee (seed 000 "Terminal entry").
const (
	accountE164      = 5
	accountTelephone = 6
	accountIP        = 7
	accountAliasIP   = 8
)

// route is where a call to a callee goes, and what that teaches of it.
type route struct {
	uri   sip.Uri
	id    media.Identity
	proxy bool // through Config.OutboundProxy (its credentials answer a challenge)
	// dest is where the request goes ("ip:port") when the URI names a
	// domain: its SIP server located through DNS (dns.go); "" the URI's
	// host.
	dest string
}

// peerHost is the address the call's requests go to.
func (r route) peerHost() string {
	if r.dest != "" {
		return r.dest
	}
	return r.uri.Host
}

// Routes tells whether a callee is a real SIP terminal (docs/sip.md
// "Which numbers are called"): protocol 1, not in the simulated
// directory while the simulated terminals are on, and an IP address
// (account_type 7), alias@ip (8), or an E.164/telephone number that a
// terminal registered or the outbound proxy takes.
func (u *UA) Routes(ctx context.Context, c media.Callee) bool {
	if c.Protocol != 1 {
		return false
	}
	if u.deps.Simulated {
		if _, err := u.deps.Store.DirectoryEntry(ctx, c.Account); err == nil {
			return false // a scripted terminal of the simulation
		}
	}
	_, ok := u.resolve(ctx, c)
	return ok
}

// resolve finds where a callee is called.
func (u *UA) resolve(ctx context.Context, c media.Callee) (r route, ok bool) {
	acc, secure := tlsAccount(c.Account) // sips: or transport=tls (tls.go)
	defer func() {
		if ok && secure {
			r.uri = withTLS(r.uri)
		}
	}()
	switch c.AccountType {
	case accountIP:
		host, port := splitHostPort(acc)
		if net.ParseIP(host) == nil {
			return route{}, false
		}
		return route{uri: sip.Uri{Scheme: "sip", Host: host, Port: port}, id: media.Identity{IP: host, MtType: 1}}, true
	case accountAliasIP:
		alias, hp, ok := strings.Cut(acc, "@")
		host, port := splitHostPort(hp)
		if !ok || alias == "" || host == "" {
			return route{}, false
		}
		uri := sip.Uri{Scheme: "sip", User: alias, Host: host, Port: port}
		if net.ParseIP(host) == nil { // a domain: RFC 3263 (dns.go)
			t, err := u.locateAccount(ctx, host, port, secure)
			if err != nil {
				return route{}, false
			}
			if t.transport != "UDP" && !secure {
				uri.UriParams = sip.NewParams()
				uri.UriParams.Add("transport", transportParam(t.transport))
			}
			return route{uri: uri, id: media.Identity{Alias: alias, IP: t.ip.String(), MtType: 1},
				dest: net.JoinHostPort(t.ip.String(), strconv.Itoa(t.port))}, true
		}
		return route{uri: uri, id: media.Identity{Alias: alias, IP: host, MtType: 1}}, true
	case accountE164, accountTelephone:
		if acc == "" || strings.Trim(acc, "0123456789+*#") != "" {
			return route{}, false
		}
		id := media.Identity{E164: acc, MtType: 1}
		if c.AccountType == accountTelephone {
			id.MtType = 3
		}
		if reg, ok := u.registered(ctx, acc); ok {
			uri := regURI(reg)
			id.IP = uri.Host
			return route{uri: uri, id: id}, true
		}
		if u.cfg.OutboundProxy != "" {
			host, port := splitHostPort(u.cfg.OutboundProxy)
			return route{uri: sip.Uri{Scheme: "sip", User: acc, Host: host, Port: port}, id: id, proxy: true}, true
		}
	}
	return route{}, false
}

func splitHostPort(s string) (string, int) {
	if h, p, err := net.SplitHostPort(s); err == nil {
		n, _ := strconv.Atoi(p)
		return h, n
	}
	return strings.Trim(s, "[]"), 0
}

// Dial calls a SIP terminal as terminal mt of conference conf
// (media.Backend): the outcome is reported through Events.CallOutcome.
func (u *UA) Dial(ctx context.Context, conf, mt string, callee media.Callee) (media.Identity, error) {
	r, ok := u.resolve(ctx, callee)
	if !ok {
		return media.Identity{}, errors.New("sip: no route to the callee")
	}
	if !u.acquire() { // too many calls: the callee counts as busy
		return r.id, u.events.CallOutcome(ctx, conf, mt, media.Busy, r.id)
	}
	c := u.newCall(conf, mt, true)
	ringCtx, cancel := context.WithTimeout(u.ctx, u.cfg.CallTimeout)
	c.cancelRing = cancel
	if prev := u.track(c); prev != nil {
		prev.hangup(endEngine)
	}
	u.stats.dialled.Add(1)
	u.wg.Go(func() { u.place(ringCtx, c, r) })
	return r.id, nil
}

// place sends the INVITE and follows the call: answered, it joins the
// conference; refused or unanswered, the outcome is reported.
func (u *UA) place(ctx context.Context, c *call, r route) {
	report := func(o media.Outcome) {
		rctx, cancel := context.WithTimeout(context.Background(), reportTimeout)
		defer cancel()
		if err := u.events.CallOutcome(rctx, c.conf, c.mt, o, r.id); err != nil {
			u.log.Warn("sip: a call's outcome", "conf", c.conf, "mt", c.mt, "err", err)
		}
	}
	fail := func(o media.Outcome) {
		c.mu.Lock()
		ended := c.ended
		c.mu.Unlock()
		c.hangup(endEngine)
		if !ended {
			report(o)
		}
	}
	ip := u.ipFor(r.peerHost())
	l, err := newLeg(ip, u.bindIP(ip), &u.cfg, allLines, &u.stats.rtpIn, &u.stats.rtpOut)
	if err != nil {
		u.log.Warn("sip: no RTP ports", "err", err)
		fail(media.Offline)
		return
	}
	if !c.set(func() { c.leg = l }) {
		l.close()
		return
	}
	offer := offerSDP(l, u.cfg.SRTP == SRTPRequired) // audio, video and content (a=content:slides)
	var dcs *sipgo.DialogClientSession
	for hops := 0; ; hops++ {
		dcs, err = u.inviteTo(ctx, c, r, ip, offer)
		// A redirect (3xx with a Contact) is followed, up to maxRedirects
		// times, with a new INVITE (RFC 3261 section 8.1.3.4).
		next, ok := redirected(err)
		if !ok || hops >= maxRedirects {
			break
		}
		u.log.Info("sip: a call redirected", "conf", c.conf, "mt", c.mt, "code", next.code)
		r.uri, r.proxy = next.uri, false
	}
	if errors.Is(err, errEnded) {
		return
	}
	c.ringing.Store(false)
	if err != nil {
		var de *sipgo.ErrDialogResponse
		var ns notSent
		switch {
		case errors.As(err, &ns):
			u.log.Info("sip: INVITE not sent", "conf", c.conf, "mt", c.mt, "err", err)
			fail(media.Offline)
		case errors.As(err, &de):
			fail(outcomeOf(de.Res.StatusCode))
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			fail(media.NoAnswer) // rang for the call timeout: CANCEL sent
		default:
			fail(media.Offline) // hung up meanwhile (no report), or no response at all (timer B)
		}
		return
	}
	c.cancelRing()
	if err := dcs.Ack(context.Background()); err != nil {
		fail(media.Offline)
		return
	}
	c.answered(dcs.InviteResponse) // the session timer it names (timer.go)
	peer, err := u.readSDP(dcs.InviteResponse.Body())
	if err != nil {
		u.log.Info("sip: an answer without usable SDP", "conf", c.conf, "mt", c.mt, "err", err)
		fail(media.Offline)
		return
	}
	c.negotiated(peer)
	c.leg.start(peer)
	c.mu.Lock()
	ended := c.ended
	c.mu.Unlock()
	if ended {
		return
	}
	u.stats.answered.Add(1)
	report(media.Answered)
	// The engine may refuse an answered terminal (busy in another
	// conference: occupancy) or have hung it up meanwhile: then BYE.
	if !u.accepted(c, func() { report(media.Answered) }) {
		c.hangup(endEngine) // (not Events.Left: it would cancel the engine's retry of a busy terminal)
		return
	}
	jctx, cancel := context.WithTimeout(u.ctx, reportTimeout)
	ep, err := c.join(jctx, "", peer)
	cancel()
	if err != nil {
		u.log.Warn("sip: a dialled terminal's media", "conf", c.conf, "mt", c.mt, "err", err)
		c.hangup(endLost)
		return
	}
	c.watch(ep)
}

// maxRedirects bounds the redirects a call follows.
const maxRedirects = 3

// inviteTo sends the call's INVITE to r with offer and waits for the
// answer; a challenge of the outbound proxy (401, 407) is answered with
// its credentials (Config.OutboundUser, OutboundPassword).
func (u *UA) inviteTo(ctx context.Context, c *call, r route, ip net.IP, offer []byte) (*sipgo.DialogClientSession, error) {
	req := sip.NewRequest(sip.INVITE, r.uri)
	req.SetBody(offer)
	req.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	req.AppendHeader(sip.NewHeader("Allow", allowed))
	u.offerTimer(req, secs(u.cfg.SessionExpires)) // timer.go
	from := sip.FromHeader{Address: sip.Uri{Scheme: "sip", User: c.conf, Host: ip.String(), Port: u.port}, Params: sip.NewParams()}
	from.Params.Add("tag", sip.GenerateTagN(16))
	req.AppendHeader(&from)
	ct := u.contact(ip, uriTransport(r.uri)) // tls.go
	req.AppendHeader(&ct)
	// Over TCP or TLS the dialog's requests (ACK, BYE, refreshes) reuse
	// the connection of the answer, which reaches a terminal behind NAT
	// (tls.go).
	if r.dest != "" {
		req.SetDestination(r.dest) // the domain's SIP server (dns.go)
	}
	dua := &sipgo.DialogUA{Client: u.cli, ContactHDR: ct, RewriteContact: uriTransport(r.uri) != "UDP"}
	opts := sipgo.AnswerOptions{OnResponse: func(res *sip.Response) error {
		c.ringing.Store(res.IsProvisional() && res.StatusCode > 100)
		return nil
	}}
	if r.proxy {
		opts.Username, opts.Password = u.cfg.OutboundUser, u.cfg.OutboundPassword
	}
	return u.invite(ctx, c, dua, req, opts)
}

// redirect is where a 3xx sends a call.
type redirect struct {
	code int
	uri  sip.Uri
}

// redirected reads a 3xx answer's first Contact.
func redirected(err error) (redirect, bool) {
	var de *sipgo.ErrDialogResponse
	if !errors.As(err, &de) || de.Res.StatusCode < 300 || de.Res.StatusCode > 399 {
		return redirect{}, false
	}
	ct := de.Res.Contact()
	if ct == nil || ct.Address.Host == "" {
		return redirect{}, false
	}
	uri := *ct.Address.Clone()
	uri.Headers = nil
	return redirect{code: de.Res.StatusCode, uri: uri}, true
}

// outcomeOf maps a final response onto a call outcome (issue 26): 486
// and 600 busy, everything else (480, 404, 408, 603, 5xx) offline.
func outcomeOf(code int) media.Outcome {
	switch code {
	case 486, 600:
		return media.Busy
	}
	return media.Offline
}

// Hangup ends terminal mt's call: CANCEL while ringing, BYE once up;
// false when the user agent has no call for it.
func (u *UA) Hangup(conf, mt string) bool {
	c := u.find(conf, mt)
	if c == nil {
		u.hungUpJoining(conf, mt)
		return false // mt may be another participant's: the SFU hangs it up too
	}
	c.hangup(endEngine)
	return true
}

// hungUpJoining notes a hang-up of mt for the callers of conf inside
// Events.Joined: the engine shows a caller online before Joined returns
// its mt_id, and the caller that gets mt ends its set-up (call.joined).
func (u *UA) hungUpJoining(conf, mt string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, c := range u.byID {
		if c.out || c.conf != conf {
			continue
		}
		c.mu.Lock()
		if c.joining {
			c.early = append(c.early, mt)
		}
		c.mu.Unlock()
	}
}

// EndConference ends every call of a conference.
func (u *UA) EndConference(conf string) {
	u.mu.Lock()
	var cs []*call
	for _, c := range u.byID {
		if c.conf == conf {
			cs = append(cs, c)
		}
	}
	for _, c := range u.byMT {
		if c.conf == conf && c.callID == "" {
			cs = append(cs, c)
		}
	}
	u.mu.Unlock()
	for _, c := range cs {
		c.hangup(endEngine)
	}
}

// find returns the call of terminal mt of conf, nil when none.
func (u *UA) find(conf, mt string) *call {
	u.mu.Lock()
	defer u.mu.Unlock()
	if c := u.byMT[conf+"/"+mt]; c != nil {
		return c
	}
	for _, c := range u.byID {
		if c.conf == conf && c.mtID() == mt {
			return c
		}
	}
	return nil
}

// Apply applies a per-terminal control to a SIP call; handled is false
// for a terminal that has no SIP call. Mute, silence and video off act in
// the SFU (the call is its member); a key frame request is a PLI to the
// terminal; camera control (FECC) is not supported (docs/sip.md).
func (u *UA) Apply(conf, mt string, ctl media.Control) (handled bool, err error) {
	c := u.find(conf, mt)
	if c == nil {
		return false, nil
	}
	switch ctl.Kind {
	case media.ControlCamera:
		return true, media.ErrUnsupported
	case media.ControlKeyFrame:
		c.mu.Lock()
		l := c.leg
		c.mu.Unlock()
		if l != nil {
			l.requestKeyFrame(0)
		}
	}
	return true, nil
}

// Ringing tells whether terminal mt's outgoing call got a provisional
// response and no final one yet (tests, diagnostics).
func (u *UA) Ringing(conf, mt string) bool {
	c := u.find(conf, mt)
	if c == nil {
		return false
	}
	return c.ringing.Load()
}

// refuseAfter is how long an answered terminal may stay out of the
// engine's online state (idle, or not stored yet) before it counts as
// refused: an answer reported while the call was placed is applied only
// once the terminal is stored (moments later), and until then its record
// reads as before the call.
const refuseAfter = 2 * time.Second

// reportAgain is how often an answer is reported again while the
// terminal's record still says calling: the node that dialled (another
// node, when this one owns the conference's media) may have stored the
// call after the first report, which the engine then ignored.
const reportAgain = 250 * time.Millisecond

// accepted waits until the engine has the answered terminal online (true)
// or has refused it (busy in another conference, hung up meanwhile);
// again reports the answer once more.
func (u *UA) accepted(c *call, again func()) bool {
	ctx, cancel := context.WithTimeout(u.ctx, reportTimeout)
	defer cancel()
	start, reported := time.Now(), time.Now()
	for {
		st, err := u.deps.Confs.State(ctx, c.conf, c.mt)
		switch {
		case err != nil:
			return false
		case st == "online":
			return true
		case st != "calling" && time.Since(start) > refuseAfter:
			return false
		case st == "calling" && time.Since(reported) > reportAgain:
			again() // ignored by the engine unless the first report was
			reported = time.Now()
		}
		select {
		case <-ctx.Done():
			return false
		case <-c.done:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
}
