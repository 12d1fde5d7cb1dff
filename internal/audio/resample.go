package audio

import "math"

// The mixer runs at 48 kHz; G.711 runs at 8 kHz and G.722 at 16 kHz, an
// integer ratio (6 and 3). Both directions use a windowed-sinc low-pass
// FIR (Blackman window, 16 taps per phase, cut-off at 0.45 of the low
// rate), polyphase so that no zero or dropped sample is computed.

const tapsPerPhase = 16

// lowpass returns the filter for ratio r, r*tapsPerPhase taps with unit
// gain at DC.
func lowpass(r int) []float32 {
	n := r * tapsPerPhase
	fc := 0.45 / float64(r) // cut-off in cycles per high-rate sample
	h := make([]float64, n)
	var sum float64
	for i := range h {
		x := float64(i) - float64(n-1)/2
		s := 2 * fc
		if x != 0 {
			s = math.Sin(2*math.Pi*fc*x) / (math.Pi * x)
		}
		w := 0.42 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n-1)) + 0.08*math.Cos(4*math.Pi*float64(i)/float64(n-1))
		h[i] = s * w
		sum += h[i]
	}
	out := make([]float32, n)
	for i := range h {
		out[i] = float32(h[i] / sum)
	}
	return out
}

// upsampler raises the rate r times.
type upsampler struct {
	r     int
	phase [][]float32 // phase[p][j] = r*h[p+j*r]
	hist  []float32   // the last tapsPerPhase input samples, newest last
}

func newUpsampler(r int) *upsampler {
	h := lowpass(r)
	u := &upsampler{r: r, phase: make([][]float32, r), hist: make([]float32, tapsPerPhase)}
	for p := range u.phase {
		u.phase[p] = make([]float32, tapsPerPhase)
		for j := range u.phase[p] {
			u.phase[p][j] = float32(r) * h[p+j*r]
		}
	}
	return u
}

// process appends r output samples per input sample to dst. Silence in
// after silence is silence out, not computed (most of a room is silent).
func (u *upsampler) process(dst []int16, in []int16) []int16 {
	if allZero(in) && allZero32(u.hist) {
		return appendZeros(dst, len(in)*u.r)
	}
	n := tapsPerPhase
	for _, s := range in {
		copy(u.hist, u.hist[1:])
		u.hist[n-1] = float32(s)
		for p := 0; p < u.r; p++ {
			var acc float32
			for j, c := range u.phase[p] {
				acc += c * u.hist[n-1-j]
			}
			dst = append(dst, clip(acc))
		}
	}
	return dst
}

// downsampler lowers the rate r times.
type downsampler struct {
	r    int
	h    []float32
	hist []float32 // the last len(h) input samples, newest last
	pos  int       // input samples since the last output
}

func newDownsampler(r int) *downsampler {
	h := lowpass(r)
	return &downsampler{r: r, h: h, hist: make([]float32, len(h))}
}

// process appends one output sample per r input samples to dst; silence
// after silence is not computed.
func (d *downsampler) process(dst []int16, in []int16) []int16 {
	if allZero(in) && allZero32(d.hist) {
		out := (d.pos + len(in)) / d.r
		d.pos = (d.pos + len(in)) % d.r
		return appendZeros(dst, out)
	}
	n := len(d.h)
	for _, s := range in {
		copy(d.hist, d.hist[1:])
		d.hist[n-1] = float32(s)
		if d.pos++; d.pos < d.r {
			continue
		}
		d.pos = 0
		var acc float32
		for k, c := range d.h {
			acc += c * d.hist[n-1-k]
		}
		dst = append(dst, clip(acc))
	}
	return dst
}

func clip(v float32) int16 {
	switch {
	case v > 32767:
		return 32767
	case v < -32768:
		return -32768
	}
	return int16(math.Round(float64(v)))
}

func allZero(s []int16) bool {
	for _, v := range s {
		if v != 0 {
			return false
		}
	}
	return true
}

func allZero32(s []float32) bool {
	for _, v := range s {
		if v != 0 {
			return false
		}
	}
	return true
}
