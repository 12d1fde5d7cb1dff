package audio

import (
	"testing"

	"github.com/confer-platform/confer/internal/audio/tone"
)

// TestRoundTrips: a 440 Hz tone comes back from each codec at its level;
// a 6 kHz tone, above G.711's band, is filtered out rather than aliased
// (to 2 kHz at 8 kHz sampling).
func TestRoundTrips(t *testing.T) {
	for _, mime := range []string{"opus", "PCMU", "audio/PCMA"} {
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
			for j, s := range tone.Sine(6000, 6000, Rate, i*Frame, Frame) {
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
		if mime != "opus" {
			if l := tone.Level(tail, 6000, Rate); l > 300 {
				t.Errorf("%s: 6 kHz at %.0f, want it filtered out", mime, l)
			}
			if l := tone.Level(tail, 2000, Rate); l > 300 {
				t.Errorf("%s: 2 kHz alias at %.0f", mime, l)
			}
		}
		enc.Close()
		dec.Close()
	}
	if err := Supported("H264"); err == nil {
		t.Error("H264 is supported")
	}
}
