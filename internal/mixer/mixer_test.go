package mixer

import (
	"sync"
	"testing"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
)

// talker sends a tone as participant id, encoded in mime, one packet per
// tick.
type talker struct {
	in   *Input
	enc  audio.Encoder
	freq float64
	amp  float64
	seq  uint16
	n    int
}

func (k *talker) send(t *testing.T) {
	p, err := k.enc.Encode(nil, tone.Sine(k.freq, k.amp, audio.Rate, k.n*audio.Frame, audio.Frame))
	if err != nil {
		t.Fatal(err)
	}
	k.in.Push(k.seq, p)
	k.seq++
	k.n++
}

// listener decodes what an output receives.
type listener struct {
	mu   sync.Mutex
	dec  audio.Decoder
	pcm  []int16
	hdrs []rtp.Header
}

func (l *listener) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hdrs = append(l.hdrs, *h)
	var err error
	l.pcm, err = l.dec.Decode(l.pcm, payload)
	return len(payload), err
}

// levels returns the level of each frequency over the last half second.
func (l *listener) levels(freqs ...float64) []float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	tail := l.pcm[max(0, len(l.pcm)-audio.Rate/2):]
	out := make([]float64, len(freqs))
	for i, f := range freqs {
		out[i] = tone.Level(tail, f, audio.Rate)
	}
	return out
}

func (l *listener) reset() {
	l.mu.Lock()
	l.pcm = l.pcm[:0]
	l.mu.Unlock()
}

type room struct {
	t       *testing.T
	m       *Mixer
	talkers map[string]*talker
}

func newRoom(t *testing.T, mime string) *room {
	r := &room{t: t, m: New(Config{}), talkers: map[string]*talker{}}
	t.Cleanup(r.m.Close)
	for _, k := range []struct {
		id   string
		freq float64
	}{{"a", 440}, {"b", 660}, {"c", 880}} {
		in, err := r.m.Input(k.id, mime)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := audio.NewEncoder(mime)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(enc.Close)
		r.talkers[k.id] = &talker{in: in, enc: enc, freq: k.freq, amp: 6000}
	}
	return r
}

func (r *room) listen(self, mime string) *listener {
	dec, err := audio.NewDecoder(mime)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(dec.Close)
	l := &listener{dec: dec}
	if _, err := r.m.Output(self, Codec{MimeType: mime, PayloadType: 0}, l); err != nil {
		r.t.Fatal(err)
	}
	return l
}

// run plays n ticks of everyone's tone.
func (r *room) run(n int) {
	for i := 0; i < n; i++ {
		for _, id := range []string{"a", "b", "c"} {
			r.talkers[id].send(r.t)
		}
		r.m.Tick()
	}
}

// hears checks which of the three tones l holds.
func hears(t *testing.T, what string, l *listener, want440, want660, want880 bool) {
	t.Helper()
	lv := l.levels(440, 660, 880)
	for i, want := range []bool{want440, want660, want880} {
		f := []int{440, 660, 880}[i]
		switch {
		case want && lv[i] < 2000:
			t.Errorf("%s: %d Hz at %.0f, want it (about 6000)", what, f, lv[i])
		case !want && lv[i] > 300:
			t.Errorf("%s: %d Hz at %.0f, want none", what, f, lv[i])
		}
	}
}

// TestNMinusOne: with three talkers and the default selection, a talker
// hears the two others and not itself; a receiver that is not a
// participant hears all three. Both in Opus and in G.711.
func TestNMinusOne(t *testing.T) {
	for _, mime := range []string{"opus", "PCMU", "PCMA", "G722"} {
		t.Run(mime, func(t *testing.T) {
			r := newRoom(t, mime)
			b, tap := r.listen("b", mime), r.listen("", mime)
			r.run(50)
			hears(t, "b", b, true, false, true)
			hears(t, "the tap", tap, true, true, true)
			if len(b.hdrs) != 50 || len(tap.hdrs) != 50 {
				t.Errorf("packets: b %d, tap %d, want 50 each (one per tick)", len(b.hdrs), len(tap.hdrs))
			}
			for i := 1; i < len(b.hdrs); i++ {
				if b.hdrs[i].SequenceNumber != b.hdrs[i-1].SequenceNumber+1 || b.hdrs[i].Timestamp-b.hdrs[i-1].Timestamp != audio.FrameTicks(mime) {
					t.Fatalf("packet %d: sequence or timestamp not continuous: %+v after %+v", i, b.hdrs[i], b.hdrs[i-1])
				}
			}
		})
	}
}

// TestSelection: a custom mix of two members takes out the third, mute
// takes out a tone, and the loudest two of three are those mixed.
func TestSelection(t *testing.T) {
	r := newRoom(t, "opus")
	tap := r.listen("", "opus")
	r.m.SetSelection(Selection{Members: []string{"a", "c"}})
	r.run(40)
	hears(t, "custom mix a, c", tap, true, false, true)

	r.m.SetSelection(Selection{})
	r.m.SetMuted("c", true)
	tap.reset()
	r.run(40)
	hears(t, "everyone, c muted", tap, true, true, false)

	r.m.SetMuted("c", false)
	r.talkers["a"].amp, r.talkers["b"].amp, r.talkers["c"].amp = 2000, 6000, 8000
	r.m.SetSelection(Selection{Loudest: 2})
	tap.reset()
	r.run(40)
	lv := tap.levels(440, 660, 880)
	if lv[0] > 300 || lv[1] < 3000 || lv[2] < 4000 {
		t.Errorf("loudest two: levels 440 %.0f, 660 %.0f, 880 %.0f; want 440 out, 660 and 880 in", lv[0], lv[1], lv[2])
	}
}

// TestSilence: a silenced participant receives nothing; its voice still
// reaches the others.
func TestSilence(t *testing.T) {
	r := newRoom(t, "PCMU")
	a, tap := r.listen("a", "PCMU"), r.listen("", "PCMU")
	r.m.SetSilenced("a", true)
	r.run(30)
	if len(a.hdrs) != 0 {
		t.Errorf("a silenced received %d packets", len(a.hdrs))
	}
	hears(t, "the tap", tap, true, true, true)
}

// TestSharedEncoders: receivers of the same mix share one encoder: three
// talkers mixed in (three N−1 mixes) and any number of others (one full
// mix) make four encoders per codec.
func TestSharedEncoders(t *testing.T) {
	r := newRoom(t, "opus")
	for _, self := range []string{"a", "b", "c", "d", "e", "f", ""} {
		r.listen(self, "opus")
	}
	r.run(3)
	r.m.mu.Lock()
	n := len(r.m.encs)
	r.m.mu.Unlock()
	if n != 4 {
		t.Errorf("%d encoders, want 4 (3 N−1 and the full mix)", n)
	}
}

// TestJitter: packets arriving out of order and a lost one still give a
// continuous tone.
func TestJitter(t *testing.T) {
	m := New(Config{})
	defer m.Close()
	in, err := m.Input("a", "opus")
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := audio.NewEncoder("opus")
	defer enc.Close()
	dec, _ := audio.NewDecoder("opus")
	l := &listener{dec: dec}
	m.Output("", Codec{MimeType: "opus"}, l)
	var pkts [][]byte
	for i := 0; i < 60; i++ {
		p, _ := enc.Encode(nil, tone.Sine(440, 6000, audio.Rate, i*audio.Frame, audio.Frame))
		pkts = append(pkts, p)
	}
	for i := 0; i < 60; i += 2 { // pairs swapped, packet 31 lost
		if i+1 != 31 {
			in.Push(uint16(i+1), pkts[i+1])
		}
		in.Push(uint16(i), pkts[i])
		m.Tick()
		m.Tick()
	}
	if lv := l.levels(440); lv[0] < 4000 {
		t.Errorf("440 Hz at %.0f after reordering and a loss, want about 6000", lv[0])
	}
}

// closer is a writer that closes its output and an input on its first
// write, as an endpoint that ends on a write error does.
type closer struct {
	o  *Output
	in *Input
	n  int
}

func (c *closer) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	if c.n++; c.n == 1 {
		c.o.Close()
		c.in.Close()
	}
	return len(payload), nil
}

// TestCloseFromWriter: a writer may close outputs and inputs from within
// its write without deadlock; the output receives nothing more.
func TestCloseFromWriter(t *testing.T) {
	r := newRoom(t, "PCMU")
	c := &closer{in: r.talkers["a"].in}
	o, err := r.m.Output("", Codec{MimeType: "PCMU"}, c)
	if err != nil {
		t.Fatal(err)
	}
	c.o = o
	r.run(5)
	if c.n != 1 {
		t.Errorf("%d writes, want 1 (the output closed itself)", c.n)
	}
}

// TestQuietNotDecoded: packets marked silent by their RFC 6464 level are
// not decoded after the first, count as played (no underrun), a loss
// among them is concealed as silence (no echo of the talk before), and
// the talker is heard at once when it talks again after them.
func TestQuietNotDecoded(t *testing.T) {
	m := New(Config{})
	defer m.Close()
	in, err := m.Input("a", "opus")
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := audio.NewEncoder("opus")
	defer enc.Close()
	dec, _ := audio.NewDecoder("opus")
	defer dec.Close()
	l := &listener{dec: dec}
	m.Output("", Codec{MimeType: "opus"}, l)
	for i := 0; i < 100; i++ {
		loud := i < 30 || i >= 60 // a talk, a silence, a talk
		amp, level := 0.0, 127
		if loud {
			amp, level = 6000, 30
		}
		p, _ := enc.Encode(nil, tone.Sine(440, amp, audio.Rate, i*audio.Frame, audio.Frame))
		if i == 45 {
			continue // lost in the silence: concealed when 46 is there
		}
		in.PushLevel(uint16(i), p, level)
		if i == 46 {
			m.Tick()
		}
		m.Tick()
		if i == 59 {
			if lv := l.levels(440); lv[0] > 300 {
				t.Errorf("440 Hz at %.0f during the silence, want none", lv[0])
			}
			l.reset()
		}
	}
	s := m.Stats()
	if s.Skipped != 28 || s.Underruns != 0 || s.Concealed != 1 {
		t.Errorf("skipped %d, underruns %d, concealed %d; want 28 quiet packets skipped (of 30: the first decoded, one lost), no underrun, the lost one concealed", s.Skipped, s.Underruns, s.Concealed)
	}
	if lv := l.levels(440); lv[0] < 4000 {
		t.Errorf("440 Hz at %.0f after the silence, want about 6000", lv[0])
	}
}

// TestSilentNotMixedIn: a participant sending silence is not mixed in
// even when the loudest four leave it room: it hears the full mix and
// takes no encoder of its own.
func TestSilentNotMixedIn(t *testing.T) {
	r := newRoom(t, "opus")
	r.m.SetSelection(Selection{Loudest: 4})
	in, err := r.m.Input("d", "opus")
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := audio.NewEncoder("opus")
	defer enc.Close()
	silent := &talker{in: in, enc: enc, freq: 440}
	d := r.listen("d", "opus")
	r.listen("a", "opus")
	r.listen("", "opus")
	for i := 0; i < 20; i++ {
		silent.send(t)
		r.run(1)
	}
	if n := r.m.Encoders(); n != 2 {
		t.Errorf("%d encoders, want 2 (a's N−1 mix and the full mix, which the silent d hears)", n)
	}
	hears(t, "d", d, true, true, true)
}
