package audio

import (
	"testing"

	"github.com/confer-platform/confer/internal/audio/tone"
)

// TestOpusKeepsEveryTone: a mix of four talkers' tones (tone.Talkers at
// their peak each), encoded at the mixer's complexity and decoded, keeps
// every tone in every frame for a minute (tone.Lacking, the mixer soak's
// detector). TestMixKeepsEveryTalker (internal/mixer) runs the soak's
// whole path: the talkers' own Opus packets decoded, mixed, encoded
// again.
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
// counts the decoded frames in which a tone is not heard.
func tonesLacking(t *testing.T, cx, frames int) int {
	t.Helper()
	mix := make([]int16, Frame)
	lacking := 0
	roundTrip(t, cx, frames, func(f int) []int16 {
		clear(mix)
		for _, fr := range tone.Talkers {
			for i, v := range tone.Sine(fr, tone.TalkerAmp, Rate, f*Frame, Frame) {
				mix[i] += v
			}
		}
		return mix
	}, func(f int, pcm []int16) {
		if f >= 10 && tone.Lacking(pcm, Rate, tone.Talkers[:]...) >= 0 { // after the encoder's start
			lacking++
		}
	})
	return lacking
}
