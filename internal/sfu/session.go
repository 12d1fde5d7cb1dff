package sfu

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/interceptor/pkg/cc"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/mixer"
)

// end says why a session ends, which decides what Events hears.
type end int

const (
	endDelete end = iota // DELETE on the session: Left(lost=false)
	endLost              // ICE failed or connection closed: Left(lost=true)
	endEngine            // Hangup, EndConference, Close: nothing reported
)

// session is one WHIP or WHEP resource: one PeerConnection.
type session struct {
	id        string
	sfu       *SFU
	room      *room
	whep      bool
	dual      bool
	owner     bool // registered its member with Events.Joined
	tokenHash [32]byte
	pc        *webrtc.PeerConnection
	member    *member
	downs     []*downTrack
	senders   []*webrtc.RTPSender
	recvs     map[*webrtc.RTPReceiver]*receiver // guarded by room.mu
	ready     chan struct{}                     // closed once registered
	done      chan struct{}                     // closed when ended
	connected atomic.Bool
	once      sync.Once
	iceMu     sync.Mutex    // serialises PATCH
	local     *Local        // an endpoint inside the node (local.go): no PeerConnection
	watch     bool          // a WHEP viewer that is no participant (watch.go)
	tag       string        // its Grant.Tag
	wall      string        // the TV wall whose composition it shows (offer.wall)
	mixOut    *mixer.Output // a mixed local endpoint's audio (mix.go)
	mixMeter  rateMeter     // its bitrate (channels.go)
	mixView   bool          // a watching viewer that hears the full mix (Grant.MixedAudio, mix.go)
}

// offer is a validated WHIP or WHEP request.
type offer struct {
	confID, token string
	grant         Grant
	whep          bool
	sdp           string
	name          string
	kind          Kind
	viewer        string // session id whose member this session serves
	fixed         string // WHEP ?mt_id
	rejoin        string // the client's rejoin key (rejoin.go), "" none
	dual          bool
	composed      bool   // ?composed=1: the composed picture (composed.go)
	wall          string // ?wall= with ?composed=1: the TV wall's own composition when it runs one
	layer         int
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// parseOffer checks an SDP offer before anything is created: it must parse,
// carry a DTLS fingerprint (RFC 8842 section 5.1) and have media; a WHIP
// offer (publish) must send some audio or video: one with nothing to send
// is answered 422 (RFC 9725 section 4.2 answers an offer the endpoint
// cannot accept with a 4xx; RFC 9110 section 15.5.21).
func parseOffer(raw string, publish bool) error {
	var d sdp.SessionDescription
	if err := d.UnmarshalString(raw); err != nil {
		return &httpError{http.StatusBadRequest, "malformed SDP offer", err}
	}
	if len(d.MediaDescriptions) == 0 {
		return &httpError{http.StatusBadRequest, "SDP offer has no media", ErrBadOffer}
	}
	if !hasFingerprint(&d) {
		return &httpError{http.StatusBadRequest, "SDP offer has no DTLS fingerprint", ErrBadOffer}
	}
	if publish && !sends(&d) {
		return &httpError{http.StatusUnprocessableEntity, "WHIP offer sends no audio or video", ErrBadOffer}
	}
	return nil
}

// offerSends tells whether a (parsed, valid) SDP offer sends audio or
// video.
func offerSends(raw string) bool {
	var d sdp.SessionDescription
	return d.UnmarshalString(raw) == nil && sends(&d)
}

// sends tells whether an offer sends audio or video: an m-line that is not
// rejected (port 0) whose direction (its own, else the session's, else
// sendrecv: RFC 8866 section 6.7) is sendrecv or sendonly.
func sends(d *sdp.SessionDescription) bool {
	dir := func(attrs []sdp.Attribute, def string) string {
		for _, a := range attrs {
			switch a.Key {
			case "sendrecv", "sendonly", "recvonly", "inactive":
				return a.Key
			}
		}
		return def
	}
	session := dir(d.Attributes, "sendrecv")
	for _, m := range d.MediaDescriptions {
		if (m.MediaName.Media != "audio" && m.MediaName.Media != "video") || m.MediaName.Port.Value == 0 {
			continue
		}
		if x := dir(m.Attributes, session); x == "sendrecv" || x == "sendonly" {
			return true
		}
	}
	return false
}

// open creates a session for a validated offer and returns it with its SDP
// answer. A refused offer leaves nothing behind: no PeerConnection, no
// participant, no reserved slot.
func (s *SFU) open(ctx context.Context, o offer) (sess *session, answer string, err error) {
	if err := parseOffer(o.sdp, !o.whep); err != nil {
		return nil, "", err
	}
	if n := s.count.Add(1); s.cfg.MaxSessions > 0 && n > int64(s.cfg.MaxSessions) {
		s.count.Add(-1)
		return nil, "", &httpError{http.StatusServiceUnavailable, "media node is at its session limit", ErrUnavailable}
	}
	rm := s.room(o.confID, true)
	if rm == nil {
		s.count.Add(-1)
		return nil, "", ErrClosed
	}
	sess = &session{id: newID(), sfu: s, room: rm, whep: o.whep, dual: o.dual, wall: o.wall, tokenHash: sha256.Sum256([]byte(o.token)),
		recvs: map[*webrtc.RTPReceiver]*receiver{}, ready: make(chan struct{}), done: make(chan struct{})}
	var viewer *member
	if o.whep && o.grant.Watch {
		return s.openWatch(o, sess, rm)
	}
	if o.viewer != "" {
		s.mu.Lock()
		v := s.sessions[o.viewer]
		s.mu.Unlock()
		if v == nil || v.room != rm || v.member == nil || v.tokenHash != sess.tokenHash {
			s.count.Add(-1)
			return nil, "", &httpError{http.StatusNotFound, "unknown viewer session", ErrNotFound}
		}
		viewer = v.member
	} else if err := rm.reserve(o.grant); err != nil {
		s.count.Add(-1)
		return nil, "", err
	}
	reserved := viewer == nil
	created := sess // the named result is nil once an error is returned
	defer func() {
		if err != nil {
			s.count.Add(-1)
			if reserved {
				rm.unreserve()
			}
			if created.pc != nil {
				_ = created.pc.Close()
			}
		}
	}()
	if err := sess.negotiate(o); err != nil {
		return nil, "", err
	}
	if viewer == nil {
		// The same client back (a rejoin): its previous session ends
		// first, without a leave, so that the engine finds the terminal
		// as it was (rejoin.go).
		rm.endRejoined(o.rejoin)
		mtID, err := s.ev.Joined(ctx, o.confID, Participant{Name: o.name, Kind: o.kind, Rejoin: o.rejoin})
		if err != nil {
			return nil, "", err
		}
		rm.endMember(mtID)
		sess.owner = true
		viewer = &member{mtID: mtID, name: o.name, kind: o.kind, owner: sess, sessions: map[*session]struct{}{},
			joined: time.Now(), rejoin: o.rejoin}
		viewer.levelMin.Store(127)
	}
	if o.dual && !o.whep {
		if err := s.ev.DualStarted(o.confID, viewer.mtID); err != nil {
			if sess.owner {
				s.ev.Left(o.confID, viewer.mtID, false)
			}
			return nil, "", &httpError{http.StatusForbidden, "screen share refused: " + reason(err), err}
		}
	}
	for _, d := range sess.downs {
		d.setMaxLayer(o.layer)
	}
	replaced := rm.add(sess, viewer, reserved)
	s.mu.Lock()
	s.sessions[sess.id] = sess
	s.mu.Unlock()
	close(sess.ready)
	for i, d := range sess.downs {
		go d.readRTCP(sess.senders[i])
	}
	time.AfterFunc(s.cfg.ConnectTimeout, func() {
		if !sess.connected.Load() {
			sess.close(endLost)
		}
	})
	for _, x := range replaced {
		x.close(endEngine)
	}
	rm.rewire()
	return sess, sess.pc.LocalDescription().SDP, nil
}

// negotiate builds the PeerConnection and answers the offer, gathering all
// candidates first (no server-side trickle, RFC 9725 section 4.3.2).
func (sess *session) negotiate(o offer) error {
	var onBWE func(cc.BandwidthEstimator)
	if o.whep && !sess.sfu.cfg.NoBandwidthLayers {
		onBWE = func(e cc.BandwidthEstimator) {
			// The subscriber's estimate caps the simulcast layer of its
			// video (LiveKit's adaptive stream).
			e.OnTargetBitrateChange(func(bps int) {
				select {
				case <-sess.ready:
				default:
					return
				}
				for _, d := range sess.downs {
					d.setBandwidth(bps)
				}
			})
		}
	}
	api, err := sess.sfu.newAPI(onBWE, o.whep, !o.whep || offerSends(o.sdp))
	if err != nil {
		return err
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{ICEServers: sess.sfu.stunServers})
	if err != nil {
		return err
	}
	sess.pc = pc
	pc.OnTrack(sess.onTrack)
	pc.OnConnectionStateChange(sess.onState)
	if o.whep {
		mode := srcBroadcast
		if o.dual {
			mode = srcDual
		} else if o.fixed != "" {
			mode = srcFixed
		}
		for _, d := range []*downTrack{
			newDownTrack(sess, webrtc.RTPCodecTypeAudio, webrtc.MimeTypeOpus, mode, o.fixed),
			newDownTrack(sess, webrtc.RTPCodecTypeVideo, sess.room.videoMime(mode, o.fixed), mode, o.fixed),
		} {
			d.composed = o.composed && d.kind == webrtc.RTPCodecTypeVideo
			// A subscriber's audio goes the direct path (direct.go).
			d.directWanted = d.kind == webrtc.RTPCodecTypeAudio && sess.sfu.tr.batch != nil && !sess.sfu.cfg.NoDirectPath
			snd, err := pc.AddTrack(d)
			if err != nil {
				return err
			}
			sess.downs = append(sess.downs, d)
			sess.senders = append(sess.senders, snd)
		}
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: o.sdp}); err != nil {
		return &httpError{http.StatusBadRequest, "unusable SDP offer: " + shortErr(err), ErrBadOffer}
	}
	if !o.whep {
		// codec_plain.go: SIP terminals hear and see it without transcoding.
		if pref := sess.room.audioPreference(); pref != nil {
			prefer(pc, webrtc.RTPCodecTypeAudio, pref)
		}
		if pref := sess.room.videoPreference(); !o.dual && pref != "" {
			preferVideo(pc, pref)
		}
		if pref := sess.room.screenPreference(); o.dual && pref != "" {
			preferVideo(pc, pref) // local_screen.go: SIP terminals' content m-lines see it
		}
	}
	ans, err := pc.CreateAnswer(nil)
	if err != nil {
		return &httpError{http.StatusBadRequest, "no answer to this SDP offer: " + shortErr(err), ErrBadOffer}
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(ans); err != nil {
		return &httpError{http.StatusBadRequest, "no answer to this SDP offer: " + shortErr(err), ErrBadOffer}
	}
	select {
	case <-gathered:
	case <-time.After(10 * time.Second):
		return &httpError{http.StatusServiceUnavailable, "ICE gathering timed out", ErrUnavailable}
	}
	return nil
}

func shortErr(err error) string {
	msg := err.Error()
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return msg
}

// onTrack attaches a published track (or one more simulcast layer of it)
// to the member and forwards it until it ends.
func (sess *session) onTrack(t *webrtc.TrackRemote, r *webrtc.RTPReceiver) {
	select {
	case <-sess.ready:
	case <-sess.done:
		return
	}
	rm := sess.room
	layer := layerOfRID(t.RID())
	if sess.member == nil {
		return // a watching viewer publishes nothing (watch.go)
	}
	rm.mu.Lock()
	rc := sess.recvs[r]
	if rc == nil {
		m := sess.member
		rc = newReceiver(sess, m, t, r)
		sess.recvs[r] = rc
		switch {
		case sess.dual && rc.kind == webrtc.RTPCodecTypeVideo:
			m.screen = rc
		case sess.dual:
			m.screenAudio = rc
		case rc.kind == webrtc.RTPCodecTypeAudio && m.audio == nil:
			m.audio = rc
		case rc.kind == webrtc.RTPCodecTypeVideo && m.video == nil:
			m.video = rc
		}
		rm.bump()
	}
	rc.addLayer(layer, uint32(t.SSRC()))
	if t.RID() != "" {
		rc.simulcast.Store(true)
	}
	rm.mu.Unlock()
	rm.rewire()
	rc.readLoop(t, layer)
}

func (sess *session) onState(st webrtc.PeerConnectionState) {
	switch st {
	case webrtc.PeerConnectionStateConnected:
		if !sess.connected.Swap(true) {
			go sess.startDirect()
		}
	case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed:
		// A peer gone without DELETE (ICE timed out, or DTLS closed).
		go sess.close(endLost)
	}
}

// close ends the session once; the owner's end ends the member and every
// session serving it.
func (sess *session) close(why end) {
	sess.once.Do(func() {
		close(sess.done)
		s, rm := sess.sfu, sess.room
		s.mu.Lock()
		_, registered := s.sessions[sess.id]
		delete(s.sessions, sess.id)
		s.mu.Unlock()
		if !registered {
			return // refused in open, which cleans up
		}
		s.count.Add(-1)
		if c := s.tr.batch.checker(); c != nil {
			c.untrack(sess)
		}
		if r := s.tr.batch.rtcpReader(); r != nil {
			r.untrack(sess)
		}
		if sess.pc != nil {
			_ = sess.pc.Close()
		}
		for _, d := range sess.downs {
			d.setSource(nil)
			d.drain() // a write in progress ends before Close returns
		}
		rm.dropMixOutput(sess)
		linked, dualEnded := rm.remove(sess)
		for _, x := range linked {
			x.close(endEngine)
		}
		rm.rewire()
		sess.logEnd(why)
		if ds, ok := s.ev.(DualStopper); ok && dualEnded && why != endEngine {
			ds.DualStopped(rm.id, sess.member.mtID)
		}
		if sess.owner && why != endEngine {
			s.ev.Left(rm.id, sess.member.mtID, why == endLost)
		}
	})
}

// reserve holds a participant slot until add or unreserve.
func (rm *room) reserve(g Grant) error {
	limit := g.MaxParticipants
	if f := rm.sfu.cfg.ConferenceLimit; f != nil {
		if l := f(rm.id); l > 0 && (limit == 0 || l < limit) {
			limit = l
		}
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if limit > 0 && len(rm.members)+rm.pending >= limit {
		return &httpError{http.StatusConflict, fmt.Sprintf("conference is full (%d participants)", limit), ErrFull}
	}
	rm.pending++
	return nil
}

func (rm *room) unreserve() {
	rm.mu.Lock()
	rm.pending--
	rm.mu.Unlock()
}

// add registers a session (and, for an owner, its member). A new dual
// stream replaces the previous one, whose sessions are returned to close.
func (rm *room) add(sess *session, m *member, reserved bool) (replaced []*session) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if reserved {
		rm.pending--
	}
	sess.member = m
	m.sessions[sess] = struct{}{}
	rm.sessions[sess] = struct{}{}
	if sess.owner {
		rm.members[m.mtID] = m
	}
	if sess.dual && !sess.whep {
		for x := range rm.sessions {
			switch {
			case x.local != nil && x.member != m:
				// A local member's screen (a SIP terminal's content)
				// ends, not its call (local_screen.go).
				rm.dropLocalScreen(x)
			case x.dual && x != sess && !x.whep && x.local == nil:
				replaced = append(replaced, x)
			}
		}
		rm.dual = m.mtID
	}
	rm.bump()
	return replaced
}

// remove unregisters a session; for an owner it returns the sessions that
// served the member, to close. dualEnded tells that the session's screen
// share was the conference's dual stream.
func (rm *room) remove(sess *session) (linked []*session, dualEnded bool) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	delete(rm.sessions, sess)
	m := sess.member
	if m == nil {
		rm.bump() // a local tap (local.go)
		return nil, false
	}
	delete(m.sessions, sess)
	for _, rc := range sess.recvs {
		switch rc {
		case m.audio:
			m.audio = nil
		case m.video:
			m.video = nil
		case m.screen:
			m.screen = nil
		case m.screenAudio:
			m.screenAudio = nil
		}
	}
	if l := sess.local; l != nil && sess.owner {
		if r := l.screen.Swap(nil); r != nil { // a local member's screen (local_screen.go)
			if m.screen == r {
				m.screen = nil
			}
			if rm.dual == m.mtID {
				rm.dual = ""
				dualEnded = true
			}
		}
	} else if sess.dual && !sess.whep && rm.dual == m.mtID && m.screen == nil {
		rm.dual = ""
		dualEnded = true
	}
	if sess.owner {
		delete(rm.members, m.mtID)
		delete(rm.flags, m.mtID)
		for x := range m.sessions {
			linked = append(linked, x)
		}
		if rm.active == m.mtID {
			rm.active = ""
		}
	}
	rm.bump()
	return linked, dualEnded
}

// videoMime is the codec a new video down track asks for: its source's, or
// VP8 when there is none yet.
func (rm *room) videoMime(mode source, fixed string) string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	var r *receiver
	switch mode {
	case srcFixed:
		if m := rm.members[fixed]; m != nil {
			r = m.video
		}
	case srcDual:
		if m := rm.members[rm.dual]; m != nil {
			r = m.screen
		}
	default:
		if m := rm.broadcastMember(); m != nil {
			r = m.video
		}
	}
	if r != nil {
		return r.mime
	}
	return webrtc.MimeTypeVP8
}

// logEnd logs a session's end: a lost connection (a participant dropped)
// as a warning, a DELETE and the engine's ends as information.
func (sess *session) logEnd(why end) {
	mt := ""
	if sess.member != nil {
		mt = sess.member.mtID
	}
	args := []any{"conf_id", sess.room.id, "mt_id", mt, "session", sess.id, "whep", sess.whep, "dual", sess.dual}
	switch {
	case sess.local != nil && why == endEngine:
		return // a recorder's or monitor's tap closed by its owner: logged there
	case why == endLost:
		sess.sfu.cfg.Log.Warn("rtc: participant dropped (connection lost)", args...)
	case why == endDelete:
		sess.sfu.cfg.Log.Info("rtc: session ended by its DELETE", args...)
	default:
		sess.sfu.cfg.Log.Info("rtc: session ended by the platform", args...)
	}
}
