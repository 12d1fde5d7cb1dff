package sip

import (
	"sync"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// Content: a terminal's second video m-line (a=content:slides, RFC 4796;
// else the second video m-line) carries a dual stream without BFCP
// (docs/sip-media.md "Content"). RTP arriving on it makes the terminal the
// conference's dual stream source as a browser's screen share does
// (ContentEndpoint.StartContent asks the engine: vc's dual_mode applies);
// no packet for contentIdle, a BYE or a re-INVITE that sets the m-line to
// port 0, recvonly or inactive ends it. The m-line receives the
// conference's dual stream (someone else's share) in H.264 as it comes.
// A share the platform refused or took away (DELETE .../dualstream,
// another source) is asked for again only after the terminal paused its
// content for contentIdle, as a terminal that released its floor.

// contentIdle is how long content without a packet counts as stopped.
const contentIdle = 3 * time.Second

// contentState is a call's content m-line once in the conference.
type contentState struct {
	mu         sync.Mutex
	ep         ContentEndpoint // nil: no content m-line negotiated
	peer       Media           // the media negotiated with the terminal
	send       bool            // the terminal may send content (its port and direction)
	presenting bool            // its content is the dual stream
	starting   bool            // StartContent in progress
	held       bool            // refused or taken away: waits for a pause
}

// sends and receives tell what a direction lets the peer do.
func sends(dir string) bool    { return dir == "sendrecv" || dir == "sendonly" }
func receives(dir string) bool { return dir == "sendrecv" || dir == "recvonly" }

// setContentPeer applies the negotiated content m-line to its stream;
// nothing is sent on a line the terminal refused or does not receive.
func (l *leg) setContentPeer(peer Media) {
	if peer.Content == nil || peer.ContentPort == 0 {
		l.content.setHold(true)
		return
	}
	l.content.setPeer(peer.IP, peer.ContentPort, peer.Content.PT)
	l.content.setHold(!receives(peer.ContentDir))
}

func (l *leg) gotContent(p *rtp.Packet) {
	if l.counter != nil {
		l.counter.Add(1)
	}
	l.mu.Lock()
	f := l.onContent
	l.mu.Unlock()
	if f != nil {
		f(p)
	}
}

func (l *leg) contentKeyFrameRequested() {
	l.mu.Lock()
	f := l.onContentKFReq
	l.mu.Unlock()
	if f != nil {
		f()
	}
}

// requestContentKeyFrame sends a PLI to the terminal's content.
func (l *leg) requestContentKeyFrame() {
	l.content.sendRTCP(&rtcp.PictureLossIndication{SenderSSRC: l.content.ssrc})
}

// contentOptions adds the negotiated content m-line to the bridge's.
func (c *call) contentOptions(o *BridgeOptions, peer Media) {
	if peer.Content == nil || peer.ContentPort == 0 {
		return
	}
	o.Content, o.ContentOut = peer.Content, c.leg.content
	o.OnContentKeyFrameRequest = c.leg.requestContentKeyFrame
	o.OnContentStopped = c.contentTakenAway
}

// contentJoined follows the content m-line of a call in the conference.
func (c *call) contentJoined(ep Endpoint, peer Media) {
	ce, ok := ep.(ContentEndpoint)
	if !ok || peer.Content == nil || peer.ContentPort == 0 {
		return
	}
	cs := &c.content
	cs.mu.Lock()
	cs.ep, cs.peer, cs.send = ce, peer, sends(peer.ContentDir)
	cs.mu.Unlock()
	c.leg.mu.Lock()
	c.leg.onContent, c.leg.onContentKFReq = c.gotContent, ce.RequestContentKeyFrame
	c.leg.mu.Unlock()
	c.u.wg.Go(c.watchContent)
}

// gotContent forwards the terminal's content while it is the dual
// stream; its first packet asks to become it.
func (c *call) gotContent(p *rtp.Packet) {
	cs := &c.content
	cs.mu.Lock()
	ep := cs.ep
	switch {
	case ep == nil || !cs.send || cs.held || cs.starting:
		cs.mu.Unlock()
		return
	case cs.presenting:
		cs.mu.Unlock()
		ep.WriteContent(p)
		return
	}
	cs.starting = true
	cs.mu.Unlock()
	c.u.wg.Go(func() { c.startContent(ep) })
}

// startContent asks the conference for the dual stream (the engine may
// refuse: dual_mode) and, granted, a key frame of the terminal.
func (c *call) startContent(ep ContentEndpoint) {
	err := ep.StartContent()
	cs := &c.content
	cs.mu.Lock()
	cs.starting = false
	if err != nil {
		cs.held = true
		cs.mu.Unlock()
		c.u.log.Info("sip: a terminal's content is not the dual stream", "conf", c.conf, "mt", c.mt, "err", err)
		return
	}
	select {
	case <-c.done:
		cs.mu.Unlock()
		return // the call's end ends the share
	default:
	}
	if !cs.send { // a re-INVITE stopped it meanwhile
		cs.mu.Unlock()
		ep.StopContent()
		return
	}
	cs.presenting = true
	cs.mu.Unlock()
	c.leg.requestContentKeyFrame() // viewers start with a key frame
}

// contentTakenAway: the platform ended the terminal's share (vc's
// DELETE .../dualstream, another source): held until a pause.
func (c *call) contentTakenAway() {
	cs := &c.content
	cs.mu.Lock()
	if cs.presenting {
		cs.presenting, cs.held = false, true
	}
	cs.mu.Unlock()
}

// watchContent ends a share whose packets stopped and releases a held one
// after a pause, until the call ends.
func (c *call) watchContent() {
	t := time.NewTicker(contentIdle / 4)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-c.u.ctx.Done():
			return
		case now := <-t.C:
			if now.Sub(time.Unix(0, c.leg.contentLast.Load())) < contentIdle {
				continue
			}
			cs := &c.content
			cs.mu.Lock()
			stop := cs.presenting
			cs.presenting, cs.held = false, false
			ep := cs.ep
			cs.mu.Unlock()
			if stop {
				ep.StopContent()
			}
		}
	}
}

// contentOffer applies a new offer's content m-line (re-INVITE, UPDATE;
// offer.go): port 0, recvonly or inactive ends the terminal's share, and
// sendonly or inactive stops sending it the dual stream.
func (c *call) contentOffer(peer Media) {
	cs := &c.content
	cs.mu.Lock()
	if cs.ep == nil {
		cs.mu.Unlock()
		return
	}
	send := peer.Content != nil && sends(peer.ContentDir)
	recv := peer.Content != nil && receives(peer.ContentDir)
	if peer.Content != nil {
		c.leg.content.setPeer(peer.IP, peer.ContentPort, cs.peer.Content.PT)
	}
	if send == cs.send && recv == !c.leg.content.held() {
		cs.mu.Unlock()
		return // a session refresh
	}
	stop := cs.presenting && !send
	cs.send, cs.held = send, false
	if !send {
		cs.presenting = false
	}
	c.leg.content.setHold(!recv)
	ep := cs.ep
	cs.mu.Unlock()
	if stop {
		ep.StopContent()
	}
}
