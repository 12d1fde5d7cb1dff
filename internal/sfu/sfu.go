// Package sfu is Confer's media plane: a selective forwarding unit on pion
// WebRTC that forwards RTP without decoding (LiveKit's pkg/sfu split: a
// receiver per published track, a down track per subscriber), the WHIP
// (RFC 9725) and WHEP endpoints, and the browser join page. The conference
// engine drives it through the controls below and hears from it through
// Events; docs/media.md describes the design and the HTTP contract.
package sfu

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// Role is what a token allows.
type Role string

// Roles of a token.
const (
	RolePublish   Role = "publish"
	RoleSubscribe Role = "subscribe"
	RoleBoth      Role = "both"
)

func (r Role) canPublish() bool   { return r == RolePublish || r == RoleBoth }
func (r Role) canSubscribe() bool { return r == RoleSubscribe || r == RoleBoth }

// Kind is how a participant connects.
type Kind string

// Kinds of participant.
const (
	KindBrowser Kind = "browser" // the join page
	KindWHIP    Kind = "whip"    // a WHIP publisher (OBS, GStreamer, ffmpeg)
	KindWHEP    Kind = "whep"    // a WHEP viewer
)

// Grant is what a valid token allows in one conference.
type Grant struct {
	ConfID string
	Role   Role
	// Name is the participant's display name (the request may override it
	// with ?name=).
	Name string
	// Title is the conference's name, shown by the join page.
	Title string
	// MaxParticipants caps the conference's participants (0: no cap).
	MaxParticipants int
	// Preview allows a WHEP preview (?preview=1): a viewer that is no
	// participant (no Events.Joined, not counted against MaxParticipants),
	// for an operator who may control the conference (docs/media.md
	// "Preview").
	Preview bool
	// Watch admits a WHEP viewer that is not a participant (watch.go): a
	// live broadcast's viewer, a monitor, a TV wall channel.
	Watch bool
	// Tag groups watching sessions the engine counts and closes together
	// (Watchers, CloseWatchers): "live:<rec_id>", "monitor:<key>", ...
	Tag string
	// MixedAudio gives a watching viewer the conference's full audio mix
	// in Opus instead of forwarded audio (mix.go): a TV wall channel,
	// which hears the conference as a room system does (issue 36).
	MixedAudio bool
}

// Participant is a newcomer as reported to Events.Joined.
type Participant struct {
	Name string
	Kind Kind
	// Rejoin is the key of the client that joins (rejoin.go): a client
	// that joins again with the same key is the same terminal. "" for
	// none.
	Rejoin string
}

// Authorizer checks a bearer token for a conference. It returns
// ErrUnauthorized, ErrPasswordRequired, ErrNotFound (unknown or ended
// conference) or a Grant. The token is "" when the request has none (a
// logged-in user's cookie may then grant access: RequestFromContext(ctx)
// gives the request).
type Authorizer interface {
	Authorize(ctx context.Context, confID, bearerToken string) (Grant, error)
}

// Events is how the media plane reports to the conference engine. Calls are
// made without SFU locks held, so the engine may call the controls from them.
type Events interface {
	// Joined registers a participant as a terminal and returns its mt_id;
	// ErrFull (409) or ErrUnavailable (503) refuse it.
	Joined(ctx context.Context, confID string, p Participant) (mtID string, err error)
	// Left reports a participant gone on its own: DELETE of its session
	// (lost false) or its connection lost or closed without DELETE (lost
	// true). Ends the engine ordered (Hangup, EndConference) are not
	// reported.
	Left(confID, mtID string, lost bool)
	// AudioLevels reports each publishing participant's loudest RFC 6464
	// level (0 loudest .. 127 silence) over the last Config.LevelInterval.
	AudioLevels(confID string, levels map[string]uint8)
	// DualStarted asks whether mtID may share its screen as the dual
	// stream; an error refuses it (403). Accepted, it replaces any other.
	DualStarted(confID, mtID string) error
}

// DualStopper is an Events that also hears when a screen share that was
// the dual stream ends (its session closed, replaced or refused later):
// the engine clears the conference's dual stream record. Ends the engine
// ordered (SetDual of another source, Hangup, EndConference) are not
// reported.
type DualStopper interface {
	DualStopped(confID, mtID string)
}

// SelfMuter is an Events that takes a participant's own microphone button
// (POST {session}/mute): the engine stores and applies it as a mute
// (through SetMute); an error refuses it (ErrForbidden: the chair's mute
// holds). Without it the SFU applies the mute itself.
type SelfMuter interface {
	SelfMuted(confID, mtID string, on bool) error
}

// SFU is the media plane of one node.
type SFU struct {
	cfg      Config
	auth     Authorizer
	ev       Events
	tr       *transport
	settings webrtc.SettingEngine
	// stunServers are Config.ICEServers' STUN URLs: the SFU learns its
	// public address from them; TURN relays are for clients only.
	stunServers []webrtc.ICEServer
	count       atomic.Int64 // sessions, reserved ones included
	// forwarded counts RTP packets written to subscribers.
	forwarded atomic.Uint64
	quit      chan struct{} // closed by Close: ends reportLoop

	mu       sync.Mutex
	rooms    map[string]*room
	sessions map[string]*session
	closed   bool
	composer Composer // SetComposer; guarded by mu
}

// New opens the ICE ports and returns an SFU.
func New(cfg Config, auth Authorizer, ev Events) (*SFU, error) {
	cfg.defaults()
	tr, err := openTransport(cfg)
	if err != nil {
		return nil, err
	}
	s := &SFU{cfg: cfg, auth: auth, ev: ev, tr: tr, rooms: map[string]*room{}, sessions: map[string]*session{}, quit: make(chan struct{})}
	s.buildSettings()
	go s.reportLoop()
	for _, is := range cfg.ICEServers {
		var urls []string
		for _, u := range is.URLs {
			if strings.HasPrefix(u, "stun:") || strings.HasPrefix(u, "stuns:") {
				urls = append(urls, u)
			}
		}
		if len(urls) > 0 {
			s.stunServers = append(s.stunServers, webrtc.ICEServer{URLs: urls})
		}
	}
	return s, nil
}

// Close ends every session (without Events.Left) and closes the ports.
func (s *SFU) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.quit)
	var all []*session
	for _, x := range s.sessions {
		all = append(all, x)
	}
	s.mu.Unlock()
	for _, x := range all {
		x.close(endEngine)
	}
	s.tr.close()
	return nil
}

// UDPAddrs returns the addresses of the ICE UDP mux.
func (s *SFU) UDPAddrs() []string {
	var out []string
	for _, a := range s.tr.udpAddrs {
		out = append(out, a.String())
	}
	return out
}

// room returns the conference's room, creating it when create is set.
func (s *SFU) room(confID string, create bool) *room {
	s.mu.Lock()
	defer s.mu.Unlock()
	rm := s.rooms[confID]
	if rm == nil && create && !s.closed {
		rm = newRoom(s, confID)
		s.rooms[confID] = rm
	}
	return rm
}

// Stats are the node's media figures, for metrics.
type Stats struct {
	Sessions     int    // open WHIP and WHEP sessions
	Conferences  int    // conferences with media state
	Participants int    // participants present
	Forwarded    uint64 // RTP packets written to subscribers since New
	// UDP is the ICE UDP port's system calls and datagrams (zero with
	// PlainUDP): datagrams per call is what batching saves.
	UDP udpbatch.Stats
}

// Stats returns the node's media figures.
func (s *SFU) Stats() Stats {
	s.mu.Lock()
	st := Stats{Sessions: len(s.sessions), Conferences: len(s.rooms), Forwarded: s.forwarded.Load(), UDP: s.tr.batch.stats()}
	rooms := make([]*room, 0, len(s.rooms))
	for _, rm := range s.rooms {
		rooms = append(rooms, rm)
	}
	s.mu.Unlock()
	for _, rm := range rooms {
		rm.mu.Lock()
		st.Participants += len(rm.members)
		rm.mu.Unlock()
	}
	return st
}

// Sessions returns the number of open sessions of the node.
func (s *SFU) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// ConfSessions returns the number of open sessions of a conference on
// the node (WHIP, WHEP, previews and watchers): the per-domain share of
// MaxSessions counts them (rtc.Authorizer, issue 38 item 12).
func (s *SFU) ConfSessions(confID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, x := range s.sessions {
		if x.room != nil && x.room.id == confID {
			n++
		}
	}
	return n
}

// Participants returns the mt_ids present in a conference.
func (s *SFU) Participants(confID string) []string {
	rm := s.room(confID, false)
	if rm == nil {
		return nil
	}
	st, _ := rm.state()
	out := make([]string, 0, len(st.Participants))
	for _, p := range st.Participants {
		out = append(out, p.MtID)
	}
	return out
}
