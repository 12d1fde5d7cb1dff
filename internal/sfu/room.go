package sfu

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/webrtc/v4"
)

// Broadcast is what WHEP broadcast subscribers and the join pages show: the
// speaker (empty: the most recently active publisher) and the composition's
// layout and panes (mt_ids, "" for an empty pane), rendered by the pages.
type Broadcast struct {
	Speaker string
	Layout  int
	Panes   []string
	// Chairman is shown to the pages: the chairman's page offers the
	// conference's controls.
	Chairman string
	// ShowNames draws the terminals' names on the composed picture
	// (show_mt_name).
	ShowNames bool
	// Selves are the self compositions (mtvmps, hduvmps): pictures
	// composed for one terminal or one TV wall (composed.go).
	Selves []SelfComposition
}

// SelfComposition is a picture composed for one receiver: the terminal
// MtID (its own composition, mtvmps) or the watching viewers of TV wall
// Wall (hduvmps); its panes are mt_ids by channel index.
type SelfComposition struct {
	MtID      string
	Wall      string
	Layout    int
	Panes     []string
	ShowNames bool
}

// flags are the engine's per-terminal controls; they outlive a member so a
// control sent right after Joined is not lost.
type flags struct {
	muted, silenced, videoOff bool
	volume                    *int // the loudspeaker volume its page plays at (0..35), nil: never set
}

// member is a participant: the terminal the engine knows by mtID. Its owner
// session registered it; linked sessions (the join page's WHEP
// subscriptions and screen share) act on its behalf.
type member struct {
	mtID, name string
	kind       Kind
	owner      *session
	sessions   map[*session]struct{}
	joined     time.Time
	rejoin     string // the client's rejoin key (rejoin.go)

	audio, video        *receiver
	screen, screenAudio *receiver
	camOff              bool          // its own camera button (selfmute.go); guarded by room.mu
	hand                bool          // its raised hand (chat.go); guarded by room.mu
	levelMin            atomic.Uint32 // loudest RFC 6464 level since the last report
	lastVoice           atomic.Int64  // unix ns of the last voiced packet
}

// room is one conference's media: members, sessions and the engine's
// broadcast, mix and dual stream settings.
type room struct {
	id     string
	sfu    *SFU
	wireMu sync.Mutex // serialises rewire

	mu        sync.Mutex
	members   map[string]*member
	flags     map[string]*flags
	sessions  map[*session]struct{}
	pending   int // joins between the capacity check and Joined
	bc        Broadcast
	mix       map[string]bool // nil: everyone's audio
	mixSmart  bool            // the mix is smart: its loudest members (mix.go)
	mix_      roomMix         // the mixer of mixed endpoints (mix.go)
	mixFull   *receiver       // the full mix in Opus for viewers that hear it (mix.go); nil when none
	dual      string
	active    string
	version   uint64
	changed   chan struct{}
	lastLevel atomic.Int64
	composed  map[composedKey]*receiver // the compositions' outputs by composition and codec (composed.go)
	reporting atomic.Bool
	// The join pages' chat and reactions (chat.go), the latest
	// maxMessages, and the terminals the engine hung up, so their pages
	// say so.
	messages []message
	seq      uint64
	removed  map[string]bool
}

func newRoom(s *SFU, id string) *room {
	return &room{id: id, sfu: s, members: map[string]*member{}, flags: map[string]*flags{},
		sessions: map[*session]struct{}{}, changed: make(chan struct{}), removed: map[string]bool{}}
}

func (rm *room) flagsOf(mtID string) *flags {
	f := rm.flags[mtID]
	if f == nil {
		f = &flags{}
		rm.flags[mtID] = f
	}
	return f
}

// bump records a change of what the pages show; caller holds rm.mu.
func (rm *room) bump() {
	rm.version++
	close(rm.changed)
	rm.changed = make(chan struct{})
}

// broadcastMember is the speaker if set and present, else the most recently
// active publisher, else the latest publisher to join; caller holds rm.mu.
func (rm *room) broadcastMember() *member {
	if m := rm.members[rm.bc.Speaker]; m != nil && rm.bc.Speaker != "" {
		return m
	}
	if m := rm.members[rm.active]; m != nil && (m.audio != nil || m.video != nil) {
		return m
	}
	var best *member
	for _, m := range rm.members {
		if (m.audio != nil || m.video != nil) && (best == nil || m.joined.After(best.joined)) {
			best = m
		}
	}
	return best
}

// sourceFor is the receiver a down track should forward now, nil for none;
// caller holds rm.mu. Mute gates a source's audio, video off its video, a
// mix with members everyone else's audio, silence everything a member gets.
func (rm *room) sourceFor(d *downTrack) *receiver {
	if d.kind == webrtc.RTPCodecTypeAudio && d.sess.mixView {
		return rm.mixFull // a TV wall channel hears the mix (mix.go)
	}
	sub := d.sess.member
	if sub == nil && d.sess.local == nil && !d.sess.watch || sub != nil && rm.flagsOf(sub.mtID).silenced {
		return nil // a local tap (a recorder) and a watching viewer (a preview) have no member and hear all
	}
	var m *member
	switch d.mode {
	case srcFixed:
		m = rm.members[d.fixed]
	case srcBroadcast:
		if r := rm.composedFor(d); r != nil {
			return r // the composition, for a receiver of one picture
		}
		m = rm.broadcastMember()
	case srcDual:
		if m = rm.members[rm.dual]; m == nil || m == sub && d.sess.local != nil {
			return nil // a SIP terminal is not sent its own content back
		}
		if d.kind == webrtc.RTPCodecTypeAudio {
			return m.screenAudio
		}
		return m.screen
	}
	if m == nil {
		return nil
	}
	f := rm.flagsOf(m.mtID)
	if d.kind == webrtc.RTPCodecTypeAudio {
		if f.muted || m == sub || (rm.mix != nil && !rm.mix[m.mtID]) || m.audio == nil {
			return nil
		}
		return m.audio
	}
	if f.videoOff || m.camOff || m.video == nil {
		return nil
	}
	return m.video
}

// rewire points every down track at its source after a change. Rewires
// run one at a time, so the last one applies the latest settings.
func (rm *room) rewire() {
	rm.wireMu.Lock()
	defer rm.wireMu.Unlock()
	rm.mu.Lock()
	type move struct {
		d *downTrack
		r *receiver
	}
	var moves []move
	composed := false
	for s := range rm.sessions {
		for _, d := range s.downs {
			moves = append(moves, move{d, rm.sourceFor(d)})
			composed = composed || d.composed
		}
	}
	rm.mu.Unlock()
	for _, mv := range moves {
		mv.d.setSource(mv.r)
	}
	rm.syncMix()
	if composed {
		// A receiver of the composed picture: the compositor follows
		// the change (composed.go).
		rm.sfu.wakeComposer(rm.id)
	}
}

// voicedLevel: RFC 6464 levels are -dBov; at or below it a packet is speech.
const voicedLevel = 50

// activeHold is how long the active publisher keeps the broadcast after it
// last spoke before a newer speaker takes it.
const activeHold = 1500 * time.Millisecond

// noteLevel records one audio packet's level and, once a LevelInterval,
// reports every member's loudest level and moves the active publisher.
func (rm *room) noteLevel(m *member, level uint8) {
	for {
		cur := m.levelMin.Load()
		if uint32(level) >= cur || m.levelMin.CompareAndSwap(cur, uint32(level)) {
			break
		}
	}
	now := rm.sfu.cfg.Clock.Now()
	if level <= voicedLevel {
		m.lastVoice.Store(now.UnixNano())
	}
	last := rm.lastLevel.Load()
	if now.UnixNano()-last < int64(rm.sfu.cfg.LevelInterval) || !rm.lastLevel.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	rm.reportLevels(now)
}

func (rm *room) reportLevels(now time.Time) {
	levels := map[string]uint8{}
	rm.mu.Lock()
	var cand *member
	for id, m := range rm.members {
		if m.audio == nil {
			continue
		}
		levels[id] = uint8(m.levelMin.Swap(127))
		if v := m.lastVoice.Load(); v != 0 && (cand == nil || v > cand.lastVoice.Load()) {
			cand = m
		}
	}
	moved := false
	if cand != nil && cand.mtID != rm.active {
		cur := rm.members[rm.active]
		if cur == nil || now.UnixNano()-cur.lastVoice.Load() >= int64(activeHold) {
			rm.active, moved = cand.mtID, true
			rm.bump()
		}
	}
	rm.mu.Unlock()
	if moved {
		rm.rewire()
	}
	if len(levels) > 0 {
		rm.sfu.ev.AudioLevels(rm.id, levels)
	}
}

// memberState is one participant in the state the join page reads.
type memberState struct {
	MtID     string `json:"mt_id"`
	Name     string `json:"name"`
	Kind     Kind   `json:"kind"`
	Muted    bool   `json:"muted"`
	Silenced bool   `json:"silenced"`
	VideoOff bool   `json:"video_off"`
	// Volume is the loudspeaker volume the chair set (0..35; absent:
	// never set): the page plays the conference at it.
	Volume *int `json:"volume,omitempty"`
	Audio  bool `json:"audio"`
	Video  bool `json:"video"`
	Screen bool `json:"screen"`
	Hand   bool `json:"hand"`
}

// roomState is the JSON of GET /rtc/state/{conf_id}.
type roomState struct {
	Version uint64 `json:"version"`
	// Conference is the conference's name and Name the participant's
	// name the request's token or login carries (the lobby's default).
	Conference   string        `json:"conference"`
	Name         string        `json:"name"`
	You          string        `json:"you,omitempty"`
	Participants []memberState `json:"participants"`
	Speaker      string        `json:"speaker"`
	Chairman     string        `json:"chairman"`
	Active       string        `json:"active"`
	Layout       int           `json:"layout"`
	Panes        []string      `json:"panes"`
	Mix          []string      `json:"mix"`
	Dual         string        `json:"dual"`
	Ended        bool          `json:"ended,omitempty"`
	// Messages are the latest chat lines and reactions; Removed the
	// terminals hung up by the chair or the API.
	Messages []message `json:"messages"`
	Removed  []string  `json:"removed"`
	// ICEServers are the STUN/TURN servers the page's connections use.
	ICEServers []webrtc.ICEServer `json:"ice_servers"`
}

func (rm *room) state() (roomState, <-chan struct{}) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	st := roomState{Version: rm.version, Speaker: rm.bc.Speaker, Chairman: rm.bc.Chairman, Active: rm.active, Layout: rm.bc.Layout,
		Panes: slices.Clone(rm.bc.Panes), Dual: rm.dual, Participants: []memberState{},
		ICEServers: rm.sfu.cfg.ICEServers, Messages: slices.Clone(rm.messages), Removed: []string{}}
	if st.Messages == nil {
		st.Messages = []message{}
	}
	for id := range rm.removed {
		st.Removed = append(st.Removed, id)
	}
	slices.SortFunc(st.Removed, cmpMtID)
	if st.ICEServers == nil {
		st.ICEServers = []webrtc.ICEServer{}
	}
	if st.Panes == nil {
		st.Panes = []string{}
	}
	for id := range rm.mix {
		st.Mix = append(st.Mix, id)
	}
	slices.Sort(st.Mix)
	for _, m := range rm.members {
		f := rm.flagsOf(m.mtID)
		st.Participants = append(st.Participants, memberState{MtID: m.mtID, Name: m.name, Kind: m.kind,
			Muted: f.muted, Silenced: f.silenced, VideoOff: f.videoOff || m.camOff, Volume: f.volume,
			Audio: m.audio != nil, Video: m.video != nil, Screen: m.screen != nil, Hand: m.hand})
	}
	slices.SortFunc(st.Participants, func(a, b memberState) int { return cmpMtID(a.MtID, b.MtID) })
	return st, rm.changed
}

// cmpMtID orders numeric ids numerically ("2" before "10").
func cmpMtID(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
