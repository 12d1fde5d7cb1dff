// Package mixer mixes a conference's audio for the endpoints that take
// one audio stream (SIP legs, recordings, live broadcasts, monitors, TV
// walls): per participant a jitter buffer and a decoder (Input), a mix of
// the selected participants in 20 ms frames at 48 kHz, each mixed as soon
// as its packets are there (clock.go), and per receiver (Output) the mix
// without its own voice (N−1), encoded in its codec.
//
// The design is that of Janus's AudioBridge and of the classic N−1
// conference bridge: the participants mixed in (at most a few talkers)
// each hear the full mix minus themselves, and every other receiver hears
// the one full mix; each distinct (codec, mix) is encoded once per frame
// and the packet is shared by all receivers of it.
package mixer

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/audio"
)

// Writer receives an output's RTP packets (sfu.RTPWriter has this shape).
type Writer interface {
	WriteRTP(h *rtp.Header, payload []byte) (int, error)
}

// Selection is what is mixed: the participants named (nil: everyone),
// and of them at most Loudest at a time, the loudest (0: all of them).
// Muted participants are never mixed.
type Selection struct {
	Members []string
	Loudest int
}

// Config tunes a mixer.
type Config struct {
	// Prefill is the packets an input's jitter buffer holds before it
	// plays (default 1: the clock waits for late packets instead, see
	// Slack).
	Prefill int
	// Slack is how long past its time a frame waits for an input's late
	// or reordered packet before it is mixed without it (default 30 ms):
	// the jitter the mix absorbs without a gap. It costs nothing while
	// packets come on time (clock.go).
	Slack time.Duration
}

// Mixer mixes one conference.
type Mixer struct {
	cfg Config

	mu       sync.Mutex // guards the fields below; never held while writing
	inputs   map[string]*Input
	outputs  map[*Output]struct{}
	sel      Selection
	members  map[string]bool // sel.Members as a set; nil: everyone
	muted    map[string]bool
	silenced map[string]bool
	encs     map[encKey]*encoder

	// writeMu serialises Tick and guards ts; tickMu guards the codecs
	// while a tick decodes and encodes, and is released before the tick
	// writes, so a writer may close inputs and outputs (a SIP leg that
	// hangs up on a write error) without deadlock.
	writeMu sync.Mutex
	tickMu  sync.Mutex
	ts      tickState
	stop    chan struct{}
	done    chan struct{}
	kick    chan struct{} // a packet arrived (clock.go)
	closed  bool
	count   counters // stats.go
}

// encKey is one distinct output: its codec and whose voice it lacks (""
// the full mix).
type encKey struct {
	mime string
	self string
}

type encoder struct {
	enc    audio.Encoder
	last   uint64 // the tick that last used it
	frame  []byte // this tick's payload
	ok     bool
	failed error
}

// New returns a mixer; Start runs its clock.
func New(cfg Config) *Mixer {
	if cfg.Prefill <= 0 {
		cfg.Prefill = 1
	}
	if cfg.Slack <= 0 {
		cfg.Slack = defaultSlack
	}
	return &Mixer{cfg: cfg, kick: make(chan struct{}, 1), inputs: map[string]*Input{}, outputs: map[*Output]struct{}{},
		muted: map[string]bool{}, silenced: map[string]bool{}, encs: map[encKey]*encoder{}}
}

// Input adds participant id's audio in codec mime (an RTP MIME subtype)
// and returns it; an input already there for id is replaced.
// audio.ErrUnsupported when the codec cannot be decoded here.
func (m *Mixer) Input(id, mime string) (*Input, error) {
	dec, err := audio.NewDecoder(mime)
	if err != nil {
		return nil, err
	}
	in := &Input{m: m, id: id, dec: dec, prefill: m.cfg.Prefill}
	m.mu.Lock()
	old := m.inputs[id]
	m.inputs[id] = in
	m.mu.Unlock()
	if old != nil {
		m.tickMu.Lock() // the tick may be decoding it
		old.dec.Close()
		m.tickMu.Unlock()
	}
	return in, nil
}

func (m *Mixer) removeInput(in *Input) {
	m.mu.Lock()
	if m.inputs[in.id] != in {
		m.mu.Unlock()
		return
	}
	delete(m.inputs, in.id)
	m.mu.Unlock()
	m.tickMu.Lock() // the tick may be decoding it
	in.dec.Close()
	m.tickMu.Unlock()
}

// SetSelection sets what is mixed.
func (m *Mixer) SetSelection(s Selection) {
	var set map[string]bool
	if s.Members != nil {
		set = make(map[string]bool, len(s.Members))
		for _, id := range s.Members {
			set[id] = true
		}
	}
	m.mu.Lock()
	m.sel, m.members = s, set
	m.mu.Unlock()
}

// SetMuted takes participant id out of every mix (or puts it back).
func (m *Mixer) SetMuted(id string, on bool) {
	m.mu.Lock()
	setFlag(m.muted, id, on)
	m.mu.Unlock()
}

// SetSilenced stops (or resumes) the outputs of participant id: it hears
// nothing.
func (m *Mixer) SetSilenced(id string, on bool) {
	m.mu.Lock()
	setFlag(m.silenced, id, on)
	m.mu.Unlock()
}

func setFlag(f map[string]bool, id string, on bool) {
	if on {
		f[id] = true
	} else {
		delete(f, id)
	}
}

// Codec is an output's codec: its RTP MIME subtype and payload type.
type Codec struct {
	MimeType    string
	PayloadType uint8
}

// Output is one receiver's mix.
type Output struct {
	m     *Mixer
	self  string
	codec Codec
	ticks uint32
	w     Writer
	bytes atomic.Uint64 // payload bytes written

	// RTP state, used by the tick only.
	ssrc  uint32
	seq   uint16
	ts    uint32
	first bool
}

// Output adds a receiver: participant self ("" for one that is not a
// participant, a recording or a broadcast) hears the mix without its own
// voice, in codec c, one packet per 20 ms written to w.
// audio.ErrUnsupported when the codec cannot be encoded here.
func (m *Mixer) Output(self string, c Codec, w Writer) (*Output, error) {
	if err := audio.Supported(c.MimeType); err != nil {
		return nil, err
	}
	var b [10]byte
	_, _ = rand.Read(b[:])
	o := &Output{m: m, self: self, codec: c, ticks: audio.FrameTicks(c.MimeType), w: w,
		ssrc: binary.BigEndian.Uint32(b[:4]), seq: binary.BigEndian.Uint16(b[4:6]), ts: binary.BigEndian.Uint32(b[6:]), first: true}
	m.mu.Lock()
	m.outputs[o] = struct{}{}
	m.mu.Unlock()
	return o, nil
}

// Codec is the output's codec.
func (o *Output) Codec() Codec { return o.codec }

// Bytes is the payload bytes written to the output so far.
func (o *Output) Bytes() uint64 { return o.bytes.Load() }

// SSRC is the synchronisation source of the output's packets.
func (o *Output) SSRC() uint32 { return o.ssrc }

// Close removes the output.
func (o *Output) Close() {
	o.m.mu.Lock()
	delete(o.m.outputs, o)
	o.m.mu.Unlock()
}

// Close stops the clock and frees every codec. It waits for a running
// tick: a Writer must not call it (nor may anyone holding a lock a Writer
// takes).
func (m *Mixer) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	stop, done := m.stop, m.done
	m.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
		running.Add(-1)
	}
	m.tickMu.Lock()
	defer m.tickMu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, in := range m.inputs {
		in.dec.Close()
	}
	for k, e := range m.encs {
		e.enc.Close()
		delete(m.encs, k)
	}
	m.inputs, m.outputs = map[string]*Input{}, map[*Output]struct{}{}
}

// Encoders is the encoders the mixer runs: one per distinct (codec, mix).
func (m *Mixer) Encoders() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.encs)
}

// String describes the mixer for logs.
func (m *Mixer) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return fmt.Sprintf("mixer: %d inputs, %d outputs, %d encoders", len(m.inputs), len(m.outputs), len(m.encs))
}

// selectMixed returns the inputs mixed this tick (m.mu held).
func (m *Mixer) selectMixed(ins []*Input) []*Input {
	var mixed []*Input
	for _, in := range ins {
		if in.frame == nil || in.silent || m.muted[in.id] || (m.members != nil && !m.members[in.id]) {
			continue
		}
		mixed = append(mixed, in)
	}
	if n := m.sel.Loudest; n > 0 && len(mixed) > n {
		sort.SliceStable(mixed, func(i, j int) bool { return mixed[i].level > mixed[j].level })
		mixed = mixed[:n]
	}
	return mixed
}
