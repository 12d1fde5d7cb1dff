package sip

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/media"
)

// reportTimeout bounds one report to the engine.
const reportTimeout = 10 * time.Second

// byeTimeout bounds the wait for the answer to a BYE.
const byeTimeout = 5 * time.Second

// How a call ends.
type ending int

const (
	endEngine ending = iota // hung up by the engine (Hangup, EndConference): no report
	endPeer                 // the terminal sent BYE: Events.Left(lost false)
	endLost                 // the terminal vanished: Events.Left(lost true)
)

// call is one SIP call, dialled (out) or answered.
type call struct {
	u        *UA
	callID   string
	conf, mt string
	out      bool
	leg      *leg

	cancelRing context.CancelFunc         // an outgoing call still ringing: CANCEL
	dcs        *sipgo.DialogClientSession // out
	dss        *sipgo.DialogServerSession // in

	ringing atomic.Bool // an outgoing call got 18x
	content contentState

	caller media.Participant // a caller's identity (identity.go)

	mu      sync.Mutex
	delayed *Conference // a delayed offer's conference, until the ACK's answer (delayed.go)
	media   Media       // as negotiated with the terminal (offer.go)
	local   []byte      // Confer's session description since the terminal's last offer; nil: the INVITE's
	ep      Endpoint    // set once in the conference
	acked   bool        // an answered call got its ACK
	ended   bool
	how     ending // how it ended, once ended
	// joining: a caller inside Events.Joined, whose mt_id the engine may
	// already show (and hang up) before Joined returns it; early are the
	// mt_ids the engine hung up meanwhile (UA.Hangup).
	joining bool
	early   []string
	done    chan struct{}

	tm timers // RFC 4028 session timer (timer.go)
}

func (u *UA) newCall(conf, mt string, out bool) *call {
	return &call{u: u, conf: conf, mt: mt, out: out, done: make(chan struct{}), tm: timers{kick: make(chan struct{}, 1)}}
}

// track files the call under its Call-ID (and conf/mt of a dialled call,
// replacing an earlier call of that terminal, which is ended).
func (u *UA) track(c *call) *call {
	u.mu.Lock()
	defer u.mu.Unlock()
	var prev *call
	if c.out {
		prev = u.byMT[c.conf+"/"+c.mt]
		u.byMT[c.conf+"/"+c.mt] = c
	}
	if c.callID != "" {
		u.byID[c.callID] = c
	}
	return prev
}

func (u *UA) untrack(c *call) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if c.out && u.byMT[c.conf+"/"+c.mt] == c { // a dialled call's mt never changes
		delete(u.byMT, c.conf+"/"+c.mt)
	}
	if u.byID[c.callID] == c {
		delete(u.byID, c.callID)
	}
}

// forget drops an earlier Call-ID of c.
func (u *UA) forget(id string, c *call) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byID[id] == c {
		delete(u.byID, id)
	}
}

func (u *UA) callByID(id string) *call {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.byID[id]
}

// hangup ends the call: CANCEL while ringing, BYE once answered, and the
// media endpoint closed (endEngine) or left (endPeer, endLost).
func (c *call) hangup(how ending) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return
	}
	c.ended, c.how = true, how
	ep, dcs, dss, l := c.ep, c.dcs, c.dss, c.leg
	close(c.done)
	c.mu.Unlock()
	if c.cancelRing != nil {
		c.cancelRing() // WaitAnswer sends CANCEL
	}
	bye := func() {
		ctx, cancel := context.WithTimeout(context.Background(), byeTimeout)
		defer cancel()
		switch {
		case dcs != nil && dcs.LoadState() == sip.DialogStateConfirmed:
			_ = dcs.Bye(ctx)
		case dss != nil && dss.LoadState() >= sip.DialogStateEstablished && dss.LoadState() < sip.DialogStateEnded:
			_ = dss.Bye(ctx)
		}
		c.cleanup(dcs, dss, nil)
	}
	switch how {
	case endEngine:
		bye()
	case endLost: // the terminal is likely gone: its BYE does not hold up the report
		c.u.wg.Go(bye)
	default:
		c.cleanup(dcs, dss, nil)
	}
	if l != nil {
		l.close()
	}
	if ep != nil {
		if how == endEngine {
			ep.Close()
		} else {
			ep.Leave(how == endLost)
		}
	}
	c.u.untrack(c)
	c.u.release()
}

// mtID is the call's terminal ("" for a caller not yet joined).
func (c *call) mtID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mt
}

// cleanup frees a call's dialog and sockets (again after a step that
// raced with the hang-up: each is idempotent).
func (c *call) cleanup(dcs *sipgo.DialogClientSession, dss *sipgo.DialogServerSession, l *leg) {
	if dcs != nil {
		_ = dcs.Close()
	}
	if dss != nil {
		_ = dss.Close()
	}
	if l != nil {
		l.close()
	}
}

// set records a dialog or the media of the call; false when the call
// ended meanwhile (the caller frees what it made).
func (c *call) set(f func()) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return false
	}
	f()
	return true
}

// levelSetter is an endpoint that takes measured audio levels
// (sfu.Local.SetAudioLevel).
type levelSetter interface{ SetAudioLevel(level uint8) }

// join puts the call into the conference's media: the terminal's packets
// go to the SFU, the SFU's to the terminal.
func (c *call) join(ctx context.Context, name string, peer Media) (Endpoint, error) {
	bridge := c.u.deps.Bridge
	if bridge == nil {
		bridge = signalOnly{ev: func() media.Events { return c.u.events }}
	}
	mt := c.mt
	if !c.out { // a caller: a terminal of the conference with its identity (identity.go)
		var err error
		if mt, err = c.joined(ctx, name); err != nil {
			return nil, err
		}
	}
	o := BridgeOptions{MtID: mt, Name: name, Audio: peer.Audio, Video: peer.Video,
		OnKeyFrameRequest: func() { c.leg.requestKeyFrame(0) }, OnBitrateRequest: c.requestBitrate}
	if peer.Audio != nil {
		o.AudioOut = c.leg.audio
	}
	if peer.Video != nil {
		o.VideoOut = c.leg.video
	}
	c.contentOptions(&o, peer)
	ep, err := bridge.Open(ctx, c.conf, o)
	if err != nil {
		if !c.out { // registered above: it leaves again
			_ = c.u.events.Left(context.WithoutCancel(ctx), c.conf, mt, false)
		}
		return nil, err
	}
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		if c.out {
			ep.Close()
		} else {
			ep.Leave(false) // hung up meanwhile: the caller's record goes offline
		}
		return nil, errHungUp
	}
	c.ep, c.mt = ep, ep.MtID()
	c.mu.Unlock()
	if !c.out {
		c.u.stats.joined.Add(1)
	}
	audio := func(p *rtp.Packet) { ep.WriteAudio(p) }
	if lv, ok := ep.(levelSetter); ok && peer.Audio != nil {
		codec := peer.Audio.Name
		audio = func(p *rtp.Packet) {
			if l, ok := g711Level(codec, p.Payload); ok {
				lv.SetAudioLevel(l)
			}
			ep.WriteAudio(p)
		}
	}
	c.leg.sinks(audio, func(p *rtp.Packet) { ep.WriteVideo(p) }, ep.RequestKeyFrame)
	c.leg.setTMMBR(func() { c.capVideo() })
	c.capVideo() // b=TIAS, b=AS (bandwidth.go)
	c.contentJoined(ep, peer)
	return ep, nil
}

// errHungUp ends the set-up of a call hung up meanwhile: by the caller
// (CANCEL, BYE) or by the engine (UA.Hangup). A caller not yet answered
// gets a final refusal, an answered one BYE.
var errHungUp = fmt.Errorf("sip: the call was hung up while it was set up: %w", media.ErrRefused)

// joined makes a caller a terminal of the conference (Events.Joined)
// unless the call ended first. The engine shows the terminal online
// before Joined returns its mt_id: a hang-up of that mt_id meanwhile
// (UA.Hangup, noted in early) or the caller's CANCEL or BYE takes the
// record offline again and ends the set-up (errHungUp).
func (c *call) joined(ctx context.Context, name string) (string, error) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return "", errHungUp
	}
	c.joining = true
	c.mu.Unlock()
	p := c.caller
	p.Name = name
	mt, err := c.u.events.Joined(ctx, c.conf, p)
	if h := testHookJoined.Load(); h != nil && err == nil {
		(*h)(c.conf, mt)
	}
	c.mu.Lock()
	c.joining = false
	hungUp := c.ended || slices.Contains(c.early, mt)
	c.early = nil
	if err == nil {
		c.mt = mt // UA.Hangup finds the call from here
	}
	c.mu.Unlock()
	if err != nil {
		return "", err
	}
	if hungUp {
		_ = c.u.events.Left(context.WithoutCancel(ctx), c.conf, mt, false)
		return "", errHungUp
	}
	return mt, nil
}

// testHookJoined, when set (tests), runs when Events.Joined returned a
// caller's mt_id, before the call knows it.
var testHookJoined atomic.Pointer[func(conf, mt string)]

// watch follows an established call until it ends: the endpoint closed by
// the engine or the SFU (BYE), or the terminal gone: its session not
// refreshed (RFC 4028, timer.go), or, for a terminal without session
// timers, in-dialog OPTIONS unanswered twice (lost).
func (c *call) watch(ep Endpoint) {
	if c.timerOn() {
		c.watchTimer(ep)
		return
	}
	t := time.NewTicker(c.u.cfg.KeepAlive)
	defer t.Stop()
	failed := 0
	for {
		select {
		case <-c.done:
			return
		case <-c.u.ctx.Done():
			return
		case <-ep.Done():
			c.hangup(endEngine)
			return
		case <-c.tm.kick: // a re-INVITE or UPDATE started a session timer
			if c.timerOn() {
				c.watchTimer(ep)
				return
			}
		case <-t.C:
			if c.alive() {
				failed = 0
				continue
			}
			if failed++; failed >= 2 {
				c.u.log.Info("sip: a terminal stopped answering", "conf", c.conf, "mt", c.mt)
				c.hangup(endLost)
				return
			}
		}
	}
}

// alive sends an in-dialog OPTIONS: any answer but 408 and 481 proves the
// terminal is there.
func (c *call) alive() bool {
	ctx, cancel := context.WithTimeout(c.u.ctx, c.u.cfg.KeepAlive)
	defer cancel()
	var res *sip.Response
	var err error
	if c.dcs != nil {
		to := c.dcs.InviteRequest.Recipient
		if ct := c.dcs.InviteResponse.Contact(); ct != nil { // a 200 without Contact: the request URI
			to = ct.Address
		}
		req := sip.NewRequest(sip.OPTIONS, to)
		res, err = c.dcs.Do(ctx, req)
	} else {
		req := sip.NewRequest(sip.OPTIONS, c.dss.InviteRequest.Contact().Address)
		res, err = c.dss.Do(ctx, req)
	}
	return err == nil && res.StatusCode != 408 && res.StatusCode != 481
}
