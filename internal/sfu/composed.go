package sfu

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// Composed pictures (docs/composition.md): while a picture
// composition runs, receivers that take one picture (SIP terminals,
// recordings, live streams, monitors, TV walls, a WHEP viewer with
// ?composed=1) receive the composition encoded by the node's compositor
// (internal/compose, connected by internal/rtc) instead of the speaker.
// The compositor reads what to compose with Composition and publishes
// each distinct output with PublishComposed; browsers keep drawing the
// panes from forwarded streams.

// Composer is told when a conference that has receivers of the composed
// picture changed (after every rewire: its broadcast, members, tracks or
// receivers). Wake is called without the room's lock held and must not
// block.
type Composer interface {
	Wake(confID string)
}

// ErrNoComposer refuses a receiver that asks for the composed picture on
// a node that cannot compose (no ffmpeg).
var ErrNoComposer = errors.New("sfu: this media node cannot compose pictures (ffmpeg is not installed)")

// SetComposer sets the node's compositor; nil: pictures are not composed
// (?composed=1 is refused, single-picture receivers get the speaker).
func (s *SFU) SetComposer(c Composer) {
	s.mu.Lock()
	s.composer = c
	s.mu.Unlock()
}

func (s *SFU) wakeComposer(confID string) {
	s.mu.Lock()
	c := s.composer
	s.mu.Unlock()
	if c != nil {
		c.Wake(confID)
	}
}

// Composition is one picture a conference's compositor composes now.
type Composition struct {
	// Key names the picture: "" the conference's composition (or its
	// speaker transcoded), "mt:<mt_id>" a terminal's own composition
	// (mtvmps), "wall:<hdu_id>" a TV wall's (hduvmps).
	Key       string
	Layout    int      // reference A2 style; 0: no composition runs
	Panes     []string // mt_ids by channel index, "" an empty pane
	ShowNames bool
	Names     map[string]string // the participants' names by mt_id
	// Speaker is the member the broadcast shows, when no composition
	// runs and a receiver of one picture cannot take its codec: the
	// compositor transcodes it (one pane); "" otherwise.
	Speaker string
	// Codecs are the video codecs (lower-case MIME types) the composed
	// picture must be encoded in for its receivers: as few as cover
	// them all, none when no receiver wants it.
	Codecs []string
}

// composedKey names one output: a composition (Composition.Key) and a
// codec.
type composedKey struct {
	comp, mime string
}

// Compositions returns the pictures the conference's compositor must
// compose now (those with receivers: the conference's composition first,
// then the self compositions by key) and a channel closed at their next
// change; ok is false once the conference has no room.
func (s *SFU) Compositions(confID string) (cs []Composition, changed <-chan struct{}, ok bool) {
	rm := s.room(confID, false)
	if rm == nil {
		return nil, nil, false
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	names := map[string]string{}
	for id, m := range rm.members {
		names[id] = m.name
	}
	wants := map[string][][]string{} // each receiver's codecs, its preferred first, by composition
	for x := range rm.sessions {
		for _, d := range x.downs {
			if !d.composed || d.kind != webrtc.RTPCodecTypeVideo {
				continue
			}
			if key, self := rm.selfFor(d); self != nil {
				wants[key] = append(wants[key], d.videoCodecs())
			} else if rm.needsComposed(d) {
				wants[""] = append(wants[""], d.videoCodecs())
			}
		}
	}
	if w := wants[""]; len(w) > 0 {
		c := Composition{Layout: rm.bc.Layout, Panes: slices.Clone(rm.bc.Panes), ShowNames: rm.bc.ShowNames,
			Names: names, Codecs: coverCodecs(w)}
		if c.Layout == 0 && len(c.Codecs) > 0 {
			c.Speaker = rm.broadcastMember().mtID // needsComposed found its video
		}
		cs = append(cs, c)
	}
	for _, sc := range rm.bc.Selves {
		key := sc.key()
		if w := wants[key]; len(w) > 0 {
			cs = append(cs, Composition{Key: key, Layout: sc.Layout, Panes: slices.Clone(sc.Panes), ShowNames: sc.ShowNames,
				Names: names, Codecs: coverCodecs(w)})
			delete(wants, key) // a second entry of the same key is not composed twice
		}
	}
	return cs, rm.changed, true
}

// key is the self composition's Composition.Key.
func (sc *SelfComposition) key() string {
	if sc.Wall != "" {
		return "wall:" + sc.Wall
	}
	return "mt:" + sc.MtID
}

// selfFor is the self composition receiver d of the composed picture is
// shown instead of the conference's: its TV wall's (a wall viewer's
// ?wall=), or its own terminal's; nil for none. Caller holds rm.mu.
func (rm *room) selfFor(d *downTrack) (string, *SelfComposition) {
	if !d.composed || d.kind != webrtc.RTPCodecTypeVideo || d.mode != srcBroadcast {
		return "", nil
	}
	for i := range rm.bc.Selves {
		sc := &rm.bc.Selves[i]
		switch {
		case sc.Wall != "" && sc.Wall == d.sess.wall && sc.Layout > 0:
			return sc.key(), sc
		case sc.Wall == "" && d.sess.wall == "" && d.sess.member != nil && sc.MtID == d.sess.member.mtID && sc.Layout > 0:
			return sc.key(), sc
		}
	}
	return "", nil
}

// needsComposed tells whether receiver d needs the conference's
// composition: one runs, or the speaker's video is in a codec d does not
// take (transcoding: a VP8 browser seen by an H.264 room system). Caller
// holds rm.mu.
func (rm *room) needsComposed(d *downTrack) bool {
	if rm.bc.Layout > 0 {
		return true
	}
	m := rm.broadcastMember()
	if m == nil || m.video == nil {
		return false
	}
	if f := rm.flagsOf(m.mtID); f.videoOff || m.camOff {
		return false
	}
	return !slices.Contains(d.videoCodecs(), m.video.lmime)
}

// videoCodecs are the composable codecs d takes, its preferred first.
func (d *downTrack) videoCodecs() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	if m := strings.ToLower(d.mime); composable(m) {
		out = append(out, m)
	}
	for m := range d.pts {
		if composable(m) && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	slices.Sort(out[min(1, len(out)):])
	return out
}

func composable(mime string) bool { return mime == "video/vp8" || mime == "video/h264" }

// coverCodecs picks as few codecs as serve every receiver: those some
// receiver takes alone, then each remaining receiver's preferred one.
func coverCodecs(wants [][]string) []string {
	var out []string
	for _, w := range wants {
		if len(w) == 1 && !slices.Contains(out, w[0]) {
			out = append(out, w[0])
		}
	}
	for _, w := range wants {
		if len(w) > 0 && !slices.ContainsFunc(w, func(m string) bool { return slices.Contains(out, m) }) {
			out = append(out, w[0])
		}
	}
	slices.Sort(out)
	return out
}

// ComposedTrack is one encoded output of a conference's composition, a
// source the SFU forwards like a publisher's video.
type ComposedTrack struct {
	rm     *room
	r      *receiver
	key    composedKey
	closed atomic.Bool
}

// PublishComposed makes packets of codec c the composition comp's picture
// (Composition.Key) in that codec (replacing an earlier track of the
// same); onKeyFrame is called (on a goroutine of its own, at most every
// 300 ms) when a receiver needs a key frame.
func (s *SFU) PublishComposed(confID, comp string, c LocalCodec, onKeyFrame func()) (*ComposedTrack, error) {
	rm := s.room(confID, false)
	if rm == nil {
		return nil, &httpError{http.StatusNotFound, "no such conference", ErrNotFound}
	}
	sess := &session{id: newID(), sfu: s, room: rm, ready: make(chan struct{}), done: make(chan struct{})}
	sess.local = &Local{sess: sess, opts: LocalOptions{OnKeyFrameRequest: onKeyFrame}}
	r := newLocalReceiver(sess, nil, webrtc.RTPCodecTypeVideo, &c, false)
	t := &ComposedTrack{rm: rm, r: r, key: composedKey{comp, r.lmime}}
	rm.mu.Lock()
	if rm.composed == nil {
		rm.composed = map[composedKey]*receiver{}
	}
	rm.composed[t.key] = r
	rm.mu.Unlock()
	rm.rewire()
	return t, nil
}

// WriteVideo forwards one packet of the composed picture.
func (t *ComposedTrack) WriteVideo(p *rtp.Packet) {
	if !t.closed.Load() {
		t.r.forward(p, layerLow)
	}
}

// Close withdraws the track: its receivers go back to the speaker.
func (t *ComposedTrack) Close() {
	if t.closed.Swap(true) {
		return
	}
	t.rm.mu.Lock()
	if t.rm.composed[t.key] == t.r {
		delete(t.rm.composed, t.key)
	}
	t.rm.mu.Unlock()
	t.rm.rewire()
}

// composedFor is the composed picture d receives: its own terminal's or
// TV wall's composition when one runs and is encoded; else, while the
// conference's composition runs (or the speaker is transcoded for d),
// that; in d's codec, else another it negotiated; nil for none. Caller
// holds rm.mu.
func (rm *room) composedFor(d *downTrack) *receiver {
	if !d.composed || d.kind != webrtc.RTPCodecTypeVideo {
		return nil
	}
	key := ""
	if k, self := rm.selfFor(d); self != nil {
		key = k
	} else if !rm.needsComposed(d) {
		return nil
	}
	for _, m := range d.videoCodecs() {
		if r := rm.composed[composedKey{key, m}]; r != nil {
			return r
		}
	}
	return nil
}
