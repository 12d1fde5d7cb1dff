package audio

import (
	"math"
	"math/cmplx"
	"testing"
)

// TestOpusComplexityQuality: the mixer's Opus encoder (OpusComplexity)
// keeps a voice-like signal (a gliding 140 Hz voice with 20 harmonics,
// its loudness rising and falling) as close to its spectrum as libopus's
// highest complexity, 10: the mean log-spectral distance between input and
// decoded output, over the bins within 30 dB of each window's peak up to
// 16 kHz, is at most 0.5 dB more. Measured 2026-12-06: about 2.2 to 2.3
// dB at every complexity from 0 to 10.
func TestOpusComplexityQuality(t *testing.T) {
	if err := Supported("opus"); err != nil {
		t.Skip(err)
	}
	const n = Frame * 150
	src := make([]int16, n)
	for i := range src {
		ti := float64(i) / Rate
		f0 := 140 + 30*math.Sin(2*math.Pi*0.7*ti)
		env := 0.5 + 0.5*math.Sin(2*math.Pi*3*ti)
		var v float64
		for h := 1; h <= 20; h++ {
			v += math.Sin(2*math.Pi*f0*float64(h)*ti+float64(h)) / float64(h)
		}
		src[i] = int16(4000 * env * v)
	}
	distance := func(cx int) float64 {
		out := roundTrip(t, cx, n/Frame, func(f int) []int16 { return src[f*Frame : (f+1)*Frame] }, nil)
		best := math.Inf(1)
		for lag := 296; lag <= 328; lag += 4 { // the encoder's delay, 6.5 ms (312 samples)
			best = math.Min(best, spectralDistance(src[Rate:n-2048], out[Rate+lag:]))
		}
		return best
	}
	ref, got := distance(10), distance(OpusComplexity)
	t.Logf("log-spectral distance: complexity 10 %.2f dB, complexity %d %.2f dB", ref, OpusComplexity, got)
	if got > ref+0.5 {
		t.Errorf("complexity %d: %.2f dB from the input's spectrum, complexity 10: %.2f dB; want at most 0.5 dB more", OpusComplexity, got, ref)
	}
}

// spectralDistance is the mean over 1024-sample Hann windows of the RMS
// difference in dB between a's and b's power spectra, over the bins up to
// 16 kHz within 30 dB of a's peak.
func spectralDistance(a, b []int16) float64 {
	const w = 1024
	var sum float64
	var windows int
	for i := 0; i+w <= len(a) && i+w <= len(b); i += w {
		pa, pb := power(a[i:i+w]), power(b[i:i+w])
		var peak float64
		for k := 2; k < w/3; k++ {
			peak = math.Max(peak, pa[k])
		}
		var d float64
		bins := 0
		for k := 2; k < w/3; k++ {
			if pa[k] < peak*1e-3 {
				continue
			}
			x := 10*math.Log10(pa[k]+1) - 10*math.Log10(pb[k]+1)
			d += x * x
			bins++
		}
		sum += math.Sqrt(d / float64(bins))
		windows++
	}
	return sum / float64(windows)
}

// power is the power spectrum of a Hann-windowed block (a radix-2 FFT;
// len(x) a power of two).
func power(x []int16) []float64 {
	n := len(x)
	c := make([]complex128, n)
	for i, v := range x {
		c[i] = complex(float64(v)*(0.5-0.5*math.Cos(2*math.Pi*float64(i)/float64(n))), 0)
	}
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			c[i], c[j] = c[j], c[i]
		}
	}
	for l := 2; l <= n; l <<= 1 {
		for k := 0; k < l/2; k++ {
			tw := cmplx.Exp(complex(0, -2*math.Pi*float64(k)/float64(l)))
			for i := k; i < n; i += l {
				u, v := c[i], c[i+l/2]*tw
				c[i], c[i+l/2] = u+v, u-v
			}
		}
	}
	out := make([]float64, n/2)
	for k := range out {
		out[k] = real(c[k])*real(c[k]) + imag(c[k])*imag(c[k])
	}
	return out
}

// roundTrip encodes frames frames of PCM, frame(f) each, at complexity cx
// and decodes them; each decoded frame is handed to check (when not nil)
// and all are returned end to end.
func roundTrip(t *testing.T, cx, frames int, frame func(f int) []int16, check func(f int, pcm []int16)) []int16 {
	t.Helper()
	e, err := newOpusEncoder(cx)
	if err != nil {
		t.Fatal(err)
	}
	enc := &opusEncoder{e: e, buf: make([]byte, 1500)}
	defer enc.Close()
	dec, err := NewDecoder("opus")
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var out []int16
	for f := range frames {
		p, err := enc.Encode(nil, frame(f))
		if err != nil {
			t.Fatal(err)
		}
		at := len(out)
		if out, err = dec.Decode(out, p); err != nil || len(out)-at < Frame {
			t.Fatalf("frame %d: %d samples, %v", f, len(out)-at, err)
		}
		if check != nil {
			check(f, out[at:at+Frame])
		}
	}
	return out
}
