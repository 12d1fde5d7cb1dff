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
