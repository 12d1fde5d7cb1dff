package audio

import (
	"testing"

	"github.com/confer-platform/confer/internal/audio/tone"
)

// TestOpusKeepsEveryTone: a mix of four talkers' tones (the mixer soak's
// 440, 660, 880 and 1,100 Hz at a peak of 5,000 each), encoded at the
// mixer's complexity and decoded, keeps every tone in every frame for a
// minute. Complexity 1 did not: from about frame 280 on it dropped a tone
// below the soak's threshold in 1 to 5 % of the frames (TestMixSoak,
// internal/sfu), which the spectral distance of TestOpusComplexityQuality
// does not show.
func TestOpusKeepsEveryTone(t *testing.T) {
	if err := Supported("opus"); err != nil {
		t.Skip(err)
	}
	for _, cx := range []int{OpusComplexity, 1} {
		lacking := tonesLacking(t, cx, 3000)
		t.Logf("complexity %d: %d of 3000 frames lack a tone", cx, lacking)
		if cx == OpusComplexity && lacking != 0 {
			t.Errorf("complexity %d (the mixer's): %d of 3000 frames lack one of the four tones, want none", cx, lacking)
		}
	}
}

// tonesLacking encodes frames of the four-tone mix at complexity cx and
// counts the decoded frames in which a tone measures below 1,500.
func tonesLacking(t *testing.T, cx, frames int) int {
	t.Helper()
	freqs := []float64{440, 660, 880, 1100}
	mix := make([]int16, Frame)
	lacking := 0
	roundTrip(t, cx, frames, func(f int) []int16 {
		clear(mix)
		for _, fr := range freqs {
			for i, v := range tone.Sine(fr, 5000, Rate, f*Frame, Frame) {
				mix[i] += v
			}
		}
		return mix
	}, func(f int, pcm []int16) {
		if f < 10 { // the encoder's start
			return
		}
		for _, fr := range freqs {
			if tone.Level(pcm, fr, Rate) < 1500 {
				lacking++
				return
			}
		}
	})
	return lacking
}
