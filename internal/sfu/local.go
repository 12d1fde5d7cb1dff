package sfu

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// Local endpoints live inside the node rather than behind a PeerConnection:
// a recorder or a monitor's tap (an invisible subscriber), a playback or a
// SIP terminal's bridge (a participant that publishes and receives plain
// RTP). They share the WebRTC sessions' forwarding: a local subscriber gets
// the same rewritten stream as a WHEP subscriber, a local publisher is
// forwarded like a WHIP publisher, and every vc control acts on both.

// Source says what a local endpoint receives.
type Source int

// Sources of a local endpoint.
const (
	SourceNone      Source = iota // receives nothing
	SourceBroadcast               // as WHEP: the speaker, else the most recently active publisher
	SourceTerminal                // one terminal: LocalOptions.Terminal
	SourceDual                    // the conference's dual stream (screen share)
)

// RTPWriter receives forwarded packets, rewritten like a WebRTC
// subscriber's: one SSRC, sequence numbers and timestamps continuous across
// source switches, the payload type of the codec in the accepted list.
// WriteRTP is called with no lock of the SFU held, one packet at a time
// per writer; it may call RequestKeyFrame, but must not end its own
// endpoint (Close waits for the write in progress).
type RTPWriter interface {
	WriteRTP(h *rtp.Header, payload []byte) (int, error)
}

// FormatWriter is an RTPWriter that is told the codec and SDP fmtp
// parameters of each source it is given, before that source's first
// packet (and again when the track switches to another source): a
// decoder of H.264 needs the sprop-parameter-sets of a terminal that
// sends its parameter sets only there (the compositor's panes).
type FormatWriter interface {
	RTPWriter
	SourceFormat(mime, fmtp string)
}

// LocalCodec is a codec a local endpoint publishes or accepts.
type LocalCodec struct {
	MimeType    string // e.g. webrtc.MimeTypeOpus, webrtc.MimeTypePCMU
	ClockRate   uint32
	Channels    uint16
	PayloadType uint8
	Fmtp        string // SDP fmtp parameters (H.264 profile-level-id, sprop-parameter-sets); reported in the terminal's channels, told to FormatWriter subscribers
}

// LocalOptions describe a local endpoint.
type LocalOptions struct {
	// Member makes the endpoint a participant: a terminal of the
	// conference, counted and listed, under the conference's controls.
	// Otherwise it is an invisible tap (a recorder, a monitor).
	Member bool
	// MtID is the terminal of a member the engine already placed (a SIP
	// call it dialled): it is not announced with Events.Joined. Without
	// it, Events.Joined registers the member with Name and Kind.
	MtID string
	Name string
	Kind Kind

	// What the endpoint publishes (nil: nothing of that kind). A screen is
	// the dual stream, accepted through Events.DualStarted.
	PublishAudio, PublishVideo, PublishScreen *LocalCodec
	// AudioLevelExtID is the RFC 6464 extension id in published audio
	// packets (0: none; SetAudioLevel reports levels measured otherwise).
	AudioLevelExtID uint8

	// MixedAudio makes the audio it receives the conference's mix in
	// AudioCodecs[0] (a member hears everyone but itself) instead of one
	// forwarded publisher (mix.go); OpenLocal fails when the mixer cannot
	// encode that codec.
	MixedAudio bool

	// What it receives and where the packets go (nil: not received).
	Receive Source
	// Composed makes a SourceBroadcast receiver take the composed picture
	// while a composition runs (composed.go), the speaker otherwise.
	Composed           bool
	Terminal           string
	AudioOut, VideoOut RTPWriter
	// The codecs it accepts, the first preferred; a source in another
	// codec is not forwarded to it.
	AudioCodecs, VideoCodecs []LocalCodec

	// OnKeyFrameRequest is called (at most every 300 ms, on a goroutine
	// of its own) when a subscriber needs a key frame of the video the
	// endpoint publishes.
	OnKeyFrameRequest func()
	// OnBitrateRequest is called (on a goroutine of its own, one call at
	// a time) when the least bandwidth cap of the subscribers of the
	// video the endpoint publishes changes, in bits a second, 0 when no
	// subscriber caps it any more (receiver_cap.go): a SIP terminal is
	// sent a TMMBR.
	OnBitrateRequest func(bps int)

	// ScreenOut receives the conference's dual stream in ScreenCodecs
	// besides what Receive says (a SIP terminal's content m-line); the
	// endpoint's own screen is not sent back to it.
	ScreenOut    RTPWriter
	ScreenCodecs []LocalCodec
	// OnScreenKeyFrameRequest is OnKeyFrameRequest for the screen.
	OnScreenKeyFrameRequest func()
	// OnScreenStopped is called when the platform ends the endpoint's
	// screen (StartScreen or PublishScreen): another participant's share
	// replaced it, or the engine's SetDual named another source or none.
	OnScreenStopped func()
}

// Local is an endpoint inside the node; its methods are safe for
// concurrent use.
type Local struct {
	sess         *session
	opts         LocalOptions
	audio, video *receiver
	screen       atomic.Pointer[receiver] // the member's screen while it is published
	screenMu     sync.Mutex               // serialises StartScreen and StopScreen
}

// KindPlayback and KindSIP are the local participants' kinds.
const (
	KindPlayback Kind = "playback"
	KindSIP      Kind = "sip"
	KindTap      Kind = "tap" // a recorder's or monitor's invisible subscriber
)

// OpenLocal opens a local endpoint in a conference. Refusals are those of
// WHIP: ErrFull (the conference's limit), ErrUnavailable (the node's
// session limit), Events.Joined's errors; nothing is left behind.
func (s *SFU) OpenLocal(ctx context.Context, confID string, o LocalOptions) (l *Local, err error) {
	if n := s.count.Add(1); s.cfg.MaxSessions > 0 && n > int64(s.cfg.MaxSessions) {
		s.count.Add(-1)
		return nil, &httpError{http.StatusServiceUnavailable, "media node is at its session limit", ErrUnavailable}
	}
	if err := checkMixable(o); err != nil {
		s.count.Add(-1)
		return nil, err
	}
	rm := s.room(confID, true)
	if rm == nil {
		s.count.Add(-1)
		return nil, ErrClosed
	}
	if o.Kind == "" {
		o.Kind = KindTap
	}
	sess := &session{id: newID(), sfu: s, room: rm, owner: o.Member, dual: o.PublishScreen != nil,
		recvs: map[*webrtc.RTPReceiver]*receiver{}, ready: make(chan struct{}), done: make(chan struct{})}
	l = &Local{sess: sess, opts: o}
	sess.local = l
	reserved := o.Member && o.MtID == ""
	if reserved {
		if err := rm.reserve(Grant{ConfID: confID}); err != nil {
			s.count.Add(-1)
			return nil, err
		}
	}
	var m *member
	defer func() {
		if err != nil {
			s.count.Add(-1)
			if reserved {
				rm.unreserve()
			}
		}
	}()
	if o.Member {
		mtID := o.MtID
		if mtID == "" {
			if mtID, err = s.ev.Joined(ctx, confID, Participant{Name: o.Name, Kind: o.Kind}); err != nil {
				return nil, err
			}
		}
		m = &member{mtID: mtID, name: o.Name, kind: o.Kind, owner: sess, sessions: map[*session]struct{}{},
			joined: time.Now()}
		m.levelMin.Store(127)
		if o.PublishScreen != nil {
			if err := s.ev.DualStarted(confID, mtID); err != nil {
				if o.MtID == "" {
					s.ev.Left(confID, mtID, false)
				}
				return nil, &httpError{http.StatusForbidden, "dual stream not allowed", err}
			}
		}
		l.audio = newLocalReceiver(sess, m, webrtc.RTPCodecTypeAudio, o.PublishAudio, false)
		l.video = newLocalReceiver(sess, m, webrtc.RTPCodecTypeVideo, o.PublishVideo, false)
		screen := newLocalReceiver(sess, m, webrtc.RTPCodecTypeVideo, o.PublishScreen, true)
		l.screen.Store(screen)
		if l.audio != nil {
			l.audio.levelID = o.AudioLevelExtID
		}
		m.audio, m.video, m.screen = l.audio, l.video, screen
	}
	mode := map[Source]source{SourceBroadcast: srcBroadcast, SourceTerminal: srcFixed, SourceDual: srcDual}[o.Receive]
	if o.Receive != SourceNone {
		if !o.MixedAudio { // else the mixer's output (addMixOutput below)
			if d := newLocalDown(sess, webrtc.RTPCodecTypeAudio, mode, o.Terminal, o.AudioOut, o.AudioCodecs); d != nil {
				sess.downs = append(sess.downs, d)
			}
		}
		if d := newLocalDown(sess, webrtc.RTPCodecTypeVideo, mode, o.Terminal, o.VideoOut, o.VideoCodecs); d != nil {
			d.composed = o.Composed && mode == srcBroadcast
			sess.downs = append(sess.downs, d)
		}
	}
	if d := newLocalDown(sess, webrtc.RTPCodecTypeVideo, srcDual, "", o.ScreenOut, o.ScreenCodecs); d != nil {
		sess.downs = append(sess.downs, d)
	}
	var replaced []*session
	if m != nil {
		rm.mu.Lock()
		old := rm.members[m.mtID]
		rm.mu.Unlock()
		if old != nil {
			old.owner.close(endEngine) // the same terminal again (a new call): the new one wins
		}
		replaced = rm.add(sess, m, reserved)
	} else {
		rm.addTap(sess)
	}
	s.mu.Lock()
	s.sessions[sess.id] = sess
	s.mu.Unlock()
	sess.connected.Store(true)
	close(sess.ready)
	for _, x := range replaced {
		x.close(endEngine)
	}
	if o.MixedAudio && o.AudioOut != nil && len(o.AudioCodecs) > 0 {
		if err := rm.addMixOutput(sess, o); err != nil { // checkMixable passed: a module that cannot start
			sess.close(endEngine)
			return nil, err
		}
	}
	rm.rewire()
	return l, nil
}

func newLocalReceiver(sess *session, m *member, kind webrtc.RTPCodecType, c *LocalCodec, screen bool) *receiver {
	if c == nil {
		return nil
	}
	r := &receiver{sess: sess, member: m, kind: kind, mime: c.MimeType, lmime: strings.ToLower(c.MimeType),
		clockRate: c.ClockRate, screen: screen, fmtp: c.Fmtp, meter: newRateMeter()}
	r.downs.Store(&[]*downTrack{})
	r.addLayer(layerLow, 0) // one layer, as a WebRTC track without simulcast
	return r
}

func newLocalDown(sess *session, kind webrtc.RTPCodecType, mode source, fixed string, w RTPWriter, codecs []LocalCodec) *downTrack {
	if w == nil || len(codecs) == 0 {
		return nil
	}
	d := newDownTrack(sess, kind, codecs[0].MimeType, mode, fixed)
	var b [4]byte
	_, _ = rand.Read(b[:])
	d.bound, d.ssrc, d.pt, d.ws = true, binary.BigEndian.Uint32(b[:]), codecs[0].PayloadType, w
	d.pts = map[string]uint8{}
	for _, c := range codecs {
		if mt := strings.ToLower(c.MimeType); d.pts[mt] == 0 {
			d.pts[mt] = c.PayloadType
		}
	}
	return d
}

// addTap registers a session that is not a participant.
func (rm *room) addTap(sess *session) {
	rm.mu.Lock()
	rm.sessions[sess] = struct{}{}
	rm.mu.Unlock()
}

// MtID is the terminal of a member endpoint ("" for a tap).
func (l *Local) MtID() string {
	if m := l.sess.member; m != nil {
		return m.mtID
	}
	return ""
}

// WriteAudio publishes an audio packet; the endpoint must publish audio.
func (l *Local) WriteAudio(p *rtp.Packet) { l.audio.arrived(p); l.audio.forward(p, layerLow) }

// WriteVideo publishes a video packet.
func (l *Local) WriteVideo(p *rtp.Packet) { l.video.arrived(p); l.video.forward(p, layerLow) }

// WriteScreen publishes a packet of the screen (dual stream); dropped
// while the endpoint publishes no screen.
func (l *Local) WriteScreen(p *rtp.Packet) {
	r := l.screen.Load()
	r.arrived(p)
	r.forward(p, layerLow)
}

// SetAudioLevel reports the published audio's level (RFC 6464: 0 loudest,
// 127 silence) when the packets carry no level extension.
func (l *Local) SetAudioLevel(level uint8) {
	if l.audio != nil && l.sess.member != nil {
		l.sess.room.noteLevel(l.sess.member, min(level, 127))
	}
}

// RequestKeyFrame asks the sources the endpoint receives for a key frame
// (a recorder starting a file, a SIP terminal's FIR).
func (l *Local) RequestKeyFrame() {
	for _, d := range l.sess.downs {
		d.mu.Lock()
		r, layer := d.src, d.curLayer
		d.mu.Unlock()
		if r != nil {
			r.requestKeyFrame(layer)
		}
	}
}

// Close ends the endpoint by its owner's order: Events.Left is not called.
func (l *Local) Close() { l.sess.close(endEngine) }

// Leave ends a member endpoint that left on its own (a SIP BYE: lost
// false; a terminal gone silent: lost true): Events.Left reports it.
func (l *Local) Leave(lost bool) {
	if lost {
		l.sess.close(endLost)
	} else {
		l.sess.close(endDelete)
	}
}

// Done is closed once the endpoint has ended, by anyone: its owner, the
// engine (Hangup, EndConference) or the SFU's Close.
func (l *Local) Done() <-chan struct{} { return l.sess.done }

// Forwarded is the number of packets written to the endpoint's writers.
func (l *Local) Forwarded() uint64 {
	var n uint64
	for _, d := range l.sess.downs {
		n += d.packets.Load()
	}
	return n
}
