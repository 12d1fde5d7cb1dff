// Package tone makes and measures test tones: a sine generator and the
// Goertzel algorithm, which measures the power of one frequency in a block
// of samples (a one-bin DFT). Tests of the audio codecs and the mixer use
// it to check which tones a mix holds.
package tone

import "math"

// Sine returns n samples of a sine of freq Hz at rate Hz with peak amp,
// starting at phase sample start (so consecutive calls join smoothly).
func Sine(freq float64, amp float64, rate, start, n int) []int16 {
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(amp * math.Sin(2*math.Pi*freq*float64(start+i)/float64(rate)))
	}
	return out
}

// Level returns the amplitude of the freq Hz component of pcm (rate Hz):
// a pure sine of peak A measures about A.
func Level(pcm []int16, freq float64, rate int) float64 {
	if len(pcm) == 0 {
		return 0
	}
	w := 2 * math.Pi * freq / float64(rate)
	c := 2 * math.Cos(w)
	var s1, s2 float64
	for _, x := range pcm {
		s := float64(x) + c*s1 - s2
		s2, s1 = s1, s
	}
	p := s1*s1 + s2*s2 - c*s1*s2
	return 2 * math.Sqrt(math.Max(p, 0)) / float64(len(pcm))
}

// Talkers are the tones of the four talkers of the mixer's tests and of
// its soak (TestMixSoak in internal/sfu), each sent at peak TalkerAmp.
// Each is a whole number of cycles in a 20 ms frame (a multiple of 50
// Hz), so that within one frame the Level of one is not disturbed by the
// others (a rectangular window leaks nothing between whole-cycle tones);
// they are 500 to 700 Hz apart, so that the coding noise Opus leaves
// around one tone does not measure as another; and no two are harmonics
// of one pitch that a voice codec would model as a voice (their common
// divisor, 50 Hz, is below the lowest pitch Opus's SILK tracks, 56 Hz).
// The tones used before, 440, 660, 880 and 1,100 Hz, were harmonics 2
// to 5 of 220 Hz: Opus coded them as one voiced sound, now and then
// lowering one harmonic to a third of its level in a frame and making
// up a fifth of one that nobody sent, while the Level of a frame leaked
// up to 900 between them, so that no threshold told a talker from none
// (docs/benchmarks/mixing.md "The soak's gaps at frame 29,397").
var Talkers = [4]float64{450, 950, 1450, 2150}

// TalkerAmp is the peak at which the talkers' tones are sent.
const TalkerAmp = 5000

// Heard is the Level, in a 20 ms frame at 48 kHz, from which one of
// Talkers sent at peak TalkerAmp is heard: a sixth of it (−15.6 dB),
// midway in decibels between the least a tone sent measured through the
// mixer and Opus at the mixer's complexity (2,157 in 32,000 frames) and
// the most a tone not sent did (318 in 6,000), about 8 dB from each
// (docs/benchmarks/mixing.md; TestMixKeepsEveryTalker in internal/mixer).
const Heard = TalkerAmp / 6

// Lacking returns the index of the first of freqs whose Level in pcm
// (rate Hz) is under Heard, or -1 when every one is heard.
func Lacking(pcm []int16, rate int, freqs ...float64) int {
	for i, f := range freqs {
		if Level(pcm, f, rate) < Heard {
			return i
		}
	}
	return -1
}
