package mixer

import (
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
)

// TestMixKeepsEveryTalker is a room of the mixer soak (TestMixSoak in
// internal/sfu) in simulated time: four talkers send tone.Talkers as the
// soak does (a second of Opus packets encoded once and sent in a loop,
// with their RFC 6464 level), the mixer mixes them tick by tick and
// encodes the full mix in Opus, and a tap decodes it and checks each
// 20 ms frame with the soak's detector (tone.Lacking). Every frame holds
// every talker; each talker muted in turn is found lacking in every
// frame while the others are heard. It runs 3,000 frames (a minute);
// CONFER_MIX_TONE_FRAMES=30000 runs the soak's ten minutes (docs/benchmarks/mixing.md
// "The soak's gaps at frame 29,397": the tones used before were lost in
// frames 12,748 to 31,398 of this loop, the soak's gaps).
func TestMixKeepsEveryTalker(t *testing.T) {
	if err := audio.Supported("opus"); err != nil {
		t.Skip(err)
	}
	frames := 3000
	if v := os.Getenv("CONFER_MIX_TONE_FRAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 100 {
			t.Fatalf("CONFER_MIX_TONE_FRAMES %q: want a number of frames, at least 100", v)
		}
		frames = n
	}
	const loop = 50 // the soak's loop: a second of packets
	var packets [len(tone.Talkers)][][]byte
	for k, f := range tone.Talkers {
		enc, err := audio.NewEncoder("opus")
		if err != nil {
			t.Fatal(err)
		}
		for i := range loop {
			p, err := enc.Encode(nil, tone.Sine(f, tone.TalkerAmp, audio.Rate, i*audio.Frame, audio.Frame))
			if err != nil {
				t.Fatal(err)
			}
			packets[k] = append(packets[k], p)
		}
		enc.Close()
	}
	m := New(Config{})
	t.Cleanup(m.Close)
	m.SetSelection(Selection{Loudest: len(tone.Talkers)})
	var ins [len(tone.Talkers)]*Input
	for k := range ins {
		in, err := m.Input(strconv.Itoa(k), "opus")
		if err != nil {
			t.Fatal(err)
		}
		ins[k] = in
	}
	dec, err := audio.NewDecoder("opus")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dec.Close)
	tap := &toneTap{dec: dec}
	if _, err := m.Output("", Codec{MimeType: "opus", PayloadType: 111}, tap); err != nil {
		t.Fatal(err)
	}
	seq := 0
	tick := func() []int16 {
		for k, in := range ins {
			in.PushLevel(uint16(seq), packets[k][seq%loop], 30)
		}
		seq++
		m.Tick()
		if len(tap.pcm) < audio.Frame {
			t.Fatalf("frame %d: the tap decoded %d samples (%v)", seq, len(tap.pcm), tap.err)
		}
		return tap.pcm[:audio.Frame]
	}

	lacking, first := 0, -1
	least := float64(tone.TalkerAmp)
	for f := range frames {
		pcm := tick()
		if f < 2 { // the codecs' start
			continue
		}
		least = min(least, slices.Min(levels(pcm)))
		if k := tone.Lacking(pcm, audio.Rate, tone.Talkers[:]...); k >= 0 {
			if lacking++; first < 0 {
				first = f
			}
			t.Logf("frame %d lacks %.0f Hz: levels %.0f", f, tone.Talkers[k], levels(pcm))
		}
	}
	t.Logf("%d frames: the least a talker measured in a frame %.0f (heard from %d)", frames, least, tone.Heard)
	if lacking > 0 {
		t.Errorf("%d of %d frames lack a talker, the first frame %d; want none", lacking, frames, first)
	}

	// Each talker muted in turn: from the frame after the codecs' delay
	// on, every frame lacks it and holds the three others.
	most := 0.0
	for muted, f := range tone.Talkers {
		m.SetMuted(strconv.Itoa(muted), true)
		for n := range 100 {
			pcm := tick()
			if n < 2 {
				continue
			}
			l := tone.Level(pcm, f, audio.Rate)
			most = max(most, l)
			if l >= tone.Heard {
				t.Errorf("%.0f Hz muted, frame %d: it measures %.0f, want under %d: levels %.0f", f, n, l, tone.Heard, levels(pcm))
			}
			others := slices.Delete(slices.Clone(tone.Talkers[:]), muted, muted+1)
			if tone.Lacking(pcm, audio.Rate, others...) >= 0 {
				t.Errorf("%.0f Hz muted, frame %d: a talker not muted lacks: levels %.0f", f, n, levels(pcm))
			}
		}
		m.SetMuted(strconv.Itoa(muted), false)
		for range 10 {
			tick()
		}
	}
	t.Logf("muted: the most a muted talker's tone measured in a frame %.0f", most)
}

// toneTap decodes each packet of an output into pcm.
type toneTap struct {
	dec audio.Decoder
	pcm []int16
	err error
}

func (g *toneTap) WriteRTP(_ *rtp.Header, payload []byte) (int, error) {
	g.pcm, g.err = g.dec.Decode(g.pcm[:0], payload)
	return len(payload), nil
}

func levels(pcm []int16) []float64 {
	var ls []float64
	for _, f := range tone.Talkers {
		ls = append(ls, tone.Level(pcm, f, audio.Rate))
	}
	return ls
}
