package sfu

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/pion/webrtc/v4"
)

// A local member's screen (a SIP terminal's content m-line, docs/sip-media.md
// "Content") starts and stops while its endpoint stays open, as a join
// page's share is a session of its own: StartScreen asks the engine like a
// WHIP ?dual=1 session does (Events.DualStarted), StopScreen reports the
// end like that session's DELETE (DualStopper). When the platform takes
// the dual stream away (the engine's SetDual, another share) the screen
// ends and OnScreenStopped is called; the endpoint keeps its call.

// StartScreen makes the member endpoint publish a screen in codec c, the
// conference's dual stream once Events.DualStarted accepts it (an error
// refuses it and changes nothing). Another participant's share ends.
// Starting a screen that is already published does nothing.
func (l *Local) StartScreen(c LocalCodec) error {
	sess, m := l.sess, l.sess.member
	if m == nil {
		return &httpError{http.StatusBadRequest, "a tap publishes no screen", ErrBadOffer}
	}
	l.screenMu.Lock()
	defer l.screenMu.Unlock()
	if l.screen.Load() != nil {
		return nil
	}
	select {
	case <-sess.done:
		return ErrClosed
	default:
	}
	rm := sess.room
	if err := sess.sfu.ev.DualStarted(rm.id, m.mtID); err != nil {
		return &httpError{http.StatusForbidden, "dual stream not allowed", err}
	}
	r := newLocalReceiver(sess, m, webrtc.RTPCodecTypeVideo, &c, true)
	var replaced []*session
	rm.mu.Lock()
	if _, open := rm.sessions[sess]; !open { // ended meanwhile: the accepted share ends too
		rm.mu.Unlock()
		if ds, ok := sess.sfu.ev.(DualStopper); ok {
			ds.DualStopped(rm.id, m.mtID)
		}
		return ErrClosed
	}
	for x := range rm.sessions {
		switch {
		case x.member == nil || x.member == m:
		case x.local != nil:
			rm.dropLocalScreen(x)
		case x.dual && !x.whep:
			replaced = append(replaced, x) // one source at a time, as rm.add
		}
	}
	m.screen, rm.dual = r, m.mtID
	l.screen.Store(r)
	rm.bump()
	rm.mu.Unlock()
	for _, x := range replaced {
		x.close(endEngine)
	}
	rm.rewire()
	return nil
}

// StopScreen ends the endpoint's screen (the terminal stopped presenting);
// when it was the dual stream, DualStopper hears it. Without a screen it
// does nothing.
func (l *Local) StopScreen() {
	sess, m := l.sess, l.sess.member
	if m == nil {
		return
	}
	l.screenMu.Lock()
	defer l.screenMu.Unlock()
	rm := sess.room
	rm.mu.Lock()
	r := l.screen.Swap(nil)
	if r == nil {
		rm.mu.Unlock()
		return
	}
	if m.screen == r {
		m.screen = nil
	}
	ended := rm.dual == m.mtID
	if ended {
		rm.dual = ""
	}
	rm.bump()
	rm.mu.Unlock()
	rm.rewire()
	if ds, ok := sess.sfu.ev.(DualStopper); ok && ended {
		ds.DualStopped(rm.id, m.mtID)
	}
}

// Screen tells whether the endpoint publishes a screen now.
func (l *Local) Screen() bool { return l.screen.Load() != nil }

// RequestScreenKeyFrame asks the dual stream's source for a key frame (a
// SIP terminal's PLI on its content m-line).
func (l *Local) RequestScreenKeyFrame() {
	for _, d := range l.sess.downs {
		if d.mode != srcDual || d.kind != webrtc.RTPCodecTypeVideo {
			continue
		}
		d.mu.Lock()
		r, layer := d.src, d.curLayer
		d.mu.Unlock()
		if r != nil {
			r.requestKeyFrame(layer)
		}
	}
}

// dropLocalScreen ends a local member's screen, not its call, and tells
// its owner; caller holds rm.mu and rewires after.
func (rm *room) dropLocalScreen(x *session) {
	l, m := x.local, x.member
	if l == nil || m == nil || m.owner != x {
		return
	}
	r := l.screen.Swap(nil)
	if r == nil {
		return
	}
	if m.screen == r {
		m.screen = nil
	}
	if f := l.opts.OnScreenStopped; f != nil {
		go f()
	}
}

// screenPreference is the codec a new screen share should send so that
// the room's SIP terminals see it on their content m-lines without
// transcoding: H.264 when a local member takes the dual stream in H.264
// and not in VP8; "" otherwise (as audioPreference, codec_plain.go).
func (rm *room) screenPreference() string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	for _, m := range rm.members {
		l := m.owner.local
		if l == nil || l.opts.ScreenOut == nil || acceptsMime(l.opts.ScreenCodecs, webrtc.MimeTypeVP8) {
			continue
		}
		if acceptsMime(l.opts.ScreenCodecs, webrtc.MimeTypeH264) {
			return webrtc.MimeTypeH264
		}
	}
	return ""
}

// preferVideo puts mime first among the codecs of a publisher's video in
// the answer (the offerer sends the first, RFC 3264 section 6.1), with
// the offer's payload types: H.264 in packetization mode 1 (what the SFU
// forwards) before mode 0, each RTX (RFC 4588) with its codec.
func preferVideo(pc *webrtc.PeerConnection, mime string) {
	for _, tr := range pc.GetTransceivers() {
		if tr.Kind() != webrtc.RTPCodecTypeVideo || tr.Receiver() == nil {
			continue
		}
		cs := tr.Receiver().GetParameters().Codecs // the offer's, after SetRemoteDescription
		rank := map[webrtc.PayloadType]int{}
		for _, c := range cs {
			switch {
			case !strings.EqualFold(c.MimeType, mime):
				rank[c.PayloadType] = 2
			case strings.Contains(c.SDPFmtpLine, "packetization-mode=1"):
				rank[c.PayloadType] = 0
			default:
				rank[c.PayloadType] = 1
			}
		}
		of := func(c webrtc.RTPCodecParameters) int {
			if apt, ok := strings.CutPrefix(c.SDPFmtpLine, "apt="); ok && strings.EqualFold(c.MimeType, webrtc.MimeTypeRTX) {
				if n, err := strconv.Atoi(apt); err == nil {
					if r, ok := rank[webrtc.PayloadType(n)]; ok {
						return r
					}
				}
			}
			return rank[c.PayloadType]
		}
		slices.SortStableFunc(cs, func(a, b webrtc.RTPCodecParameters) int { return of(a) - of(b) })
		if len(cs) > 0 {
			_ = tr.SetCodecPreferences(cs)
		}
	}
}
