package audio

import (
	"testing"

	"github.com/confer-platform/confer/internal/audio/tone"
)

// TestRoundTrips: a 440 Hz tone comes back from each codec at its level;
// an 11 kHz tone, above the band of G.711 and G.722, is filtered out
// rather than aliased (to 3 kHz at 8 kHz, to 5 kHz at 16 kHz).
func TestRoundTrips(t *testing.T) {
	for _, mime := range []string{"opus", "PCMU", "audio/PCMA", "G722"} {
		enc, err := NewEncoder(mime)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := NewDecoder(mime)
		if err != nil {
			t.Fatal(err)
		}
		var out []int16
		for i := 0; i < 25; i++ {
			pcm := tone.Sine(440, 6000, Rate, i*Frame, Frame)
			for j, s := range tone.Sine(11000, 6000, Rate, i*Frame, Frame) {
				pcm[j] += s
			}
			p, err := enc.Encode(nil, pcm)
			if err != nil {
				t.Fatal(err)
			}
			if out, err = dec.Decode(out, p); err != nil {
				t.Fatal(err)
			}
		}
		tail := out[len(out)/2:]
		if l := tone.Level(tail, 440, Rate); l < 5000 || l > 7000 {
			t.Errorf("%s: 440 Hz at %.0f, want about 6000", mime, l)
		}
		if alias := map[string]float64{"PCMU": 3000, "audio/PCMA": 3000, "G722": 5000}[mime]; alias != 0 {
			if l := tone.Level(tail, 11000, Rate); l > 300 {
				t.Errorf("%s: 11 kHz at %.0f, want it filtered out", mime, l)
			}
			if l := tone.Level(tail, alias, Rate); l > 300 {
				t.Errorf("%s: %.0f Hz alias at %.0f", mime, alias, l)
			}
		}
		enc.Close()
		dec.Close()
	}
	if err := Supported("H264"); err == nil {
		t.Error("H264 is supported")
	}
}

// TestOpusSamples reads Opus packets' durations from their TOC byte.
func TestOpusSamples(t *testing.T) {
	for _, c := range []struct {
		p    []byte
		want int
	}{
		{[]byte{1 << 3}, 960},        // SILK NB 20 ms
		{[]byte{3 << 3}, 2880},       // SILK 60 ms
		{[]byte{13 << 3}, 960},       // hybrid 20 ms
		{[]byte{16 << 3}, 120},       // CELT 2.5 ms
		{[]byte{31<<3 | 1}, 1920},    // CELT 2 × 20 ms
		{[]byte{19<<3 | 3, 3}, 2880}, // CELT 3 × 20 ms
		{[]byte{19<<3 | 3}, 0},       // code 3 without its count
		{nil, 0},
	} {
		if got := opusSamples(c.p); got != c.want {
			t.Errorf("opusSamples(%x) = %d, want %d", c.p, got, c.want)
		}
	}
	enc, err := NewEncoder("opus")
	if err != nil {
		t.Skip(err)
	}
	defer enc.Close()
	p, _ := enc.Encode(nil, make([]int16, Frame))
	if got := opusSamples(p); got != Frame {
		t.Errorf("the encoder's packet: %d samples, want %d", got, Frame)
	}
}
