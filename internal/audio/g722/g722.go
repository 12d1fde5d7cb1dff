// Package g722 encodes and decodes ITU-T G.722 at 64 kbit/s: 16 kHz
// samples split by a quadrature mirror filter into a lower band (6-bit
// ADPCM) and an upper band (2-bit ADPCM), one byte per two samples (RTP
// payload type 9, RFC 3551 section 4.5.2). It follows the blocks of the
// Recommendation's section 3 and 4 (SUBTRA, QUANTL, INVQAL, LOGSCL,
// SCALEL, the adaptive predictor of block 4) as the public-domain
// implementation of the CMU speech group and spandsp lays them out.
package g722

// Tables of G.722 (section 3 and 4).
var (
	qmf  = [12]int{3, -11, 12, 32, -210, 951, 3876, -805, 362, -156, 53, -11}
	q6   = [32]int{0, 35, 72, 110, 150, 190, 233, 276, 323, 370, 422, 473, 530, 587, 650, 714, 786, 858, 940, 1023, 1121, 1219, 1339, 1458, 1612, 1765, 1980, 2195, 2557, 2919, 0, 0}
	iln  = [32]int{0, 63, 62, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 0}
	ilp  = [32]int{0, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 0}
	wl   = [8]int{-60, -30, 58, 172, 334, 538, 1198, 3042}
	rl42 = [16]int{0, 7, 6, 5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2, 1, 0}
	ilb  = [32]int{2048, 2093, 2139, 2186, 2233, 2282, 2332, 2383, 2435, 2489, 2543, 2599, 2656, 2714, 2774, 2834,
		2896, 2960, 3025, 3091, 3158, 3228, 3298, 3371, 3444, 3520, 3597, 3676, 3756, 3838, 3922, 4008}
	qm4 = [16]int{0, -20456, -12896, -8968, -6288, -4240, -2584, -1200, 20456, 12896, 8968, 6288, 4240, 2584, 1200, 0}
	qm6 = [64]int{-136, -136, -136, -136, -24808, -21904, -19008, -16704, -14984, -13512, -12280, -11192, -10232, -9360, -8576, -7856,
		-7192, -6576, -6000, -5456, -4944, -4464, -4008, -3576, -3168, -2776, -2400, -2032, -1688, -1360, -1040, -728,
		24808, 21904, 19008, 16704, 14984, 13512, 12280, 11192, 10232, 9360, 8576, 7856, 7192, 6576, 6000, 5456,
		4944, 4464, 4008, 3576, 3168, 2776, 2400, 2032, 1688, 1360, 1040, 728, 432, 136, -432, -136}
	ihn = [3]int{0, 1, 0}
	ihp = [3]int{0, 3, 2}
	wh  = [3]int{0, -214, 798}
	rh2 = [4]int{2, 1, 2, 1}
	qm2 = [4]int{-7408, -1616, 7408, 1616}
)

// band is one sub-band's ADPCM state.
type band struct {
	s, sp, sz int
	r, a, ap  [3]int
	p         [3]int
	d, b, bp  [7]int
	sg        [7]int
	nb, det   int
}

// state is an encoder's or decoder's: the two bands and the QMF's delay
// line.
type state struct {
	band [2]band
	x    [24]int
}

func newState() state {
	var s state
	s.band[0].det, s.band[1].det = 32, 8
	return s
}

func sat(v int) int {
	switch {
	case v > 32767:
		return 32767
	case v < -32768:
		return -32768
	}
	return v
}

// adapt is block 4: reconstruction, the pole and zero predictor
// adaptation (UPPOL2, UPPOL1, UPZERO) and the new prediction.
func (b *band) adapt(d int) {
	b.d[0] = d
	b.r[0] = sat(b.s + d)
	b.p[0] = sat(b.sz + d)

	// UPPOL2
	for i := 0; i < 3; i++ {
		b.sg[i] = b.p[i] >> 15
	}
	wd1 := sat(b.a[1] << 2)
	wd2 := wd1
	if b.sg[0] == b.sg[1] {
		wd2 = -wd1
	}
	wd2 = min(wd2, 32767)
	wd3 := -128
	if b.sg[0] == b.sg[2] {
		wd3 = 128
	}
	wd3 += wd2 >> 7
	wd3 += (b.a[2] * 32512) >> 15
	b.ap[2] = max(-12288, min(12288, wd3))

	// UPPOL1
	b.sg[0], b.sg[1] = b.p[0]>>15, b.p[1]>>15
	wd1 = -192
	if b.sg[0] == b.sg[1] {
		wd1 = 192
	}
	wd2 = (b.a[1] * 32640) >> 15
	b.ap[1] = sat(wd1 + wd2)
	wd3 = sat(15360 - b.ap[2])
	b.ap[1] = max(-wd3, min(wd3, b.ap[1]))

	// UPZERO
	wd1 = 0
	if d != 0 {
		wd1 = 128
	}
	b.sg[0] = d >> 15
	for i := 1; i < 7; i++ {
		b.sg[i] = b.d[i] >> 15
		wd2 = -wd1
		if b.sg[i] == b.sg[0] {
			wd2 = wd1
		}
		b.bp[i] = sat(wd2 + (b.b[i]*32640)>>15)
	}

	// DELAYA
	for i := 6; i > 0; i-- {
		b.d[i], b.b[i] = b.d[i-1], b.bp[i]
	}
	for i := 2; i > 0; i-- {
		b.r[i], b.p[i], b.a[i] = b.r[i-1], b.p[i-1], b.ap[i]
	}

	// FILTEP, FILTEZ, PREDIC
	wd1 = (b.a[1] * sat(b.r[1]+b.r[1])) >> 15
	wd2 = (b.a[2] * sat(b.r[2]+b.r[2])) >> 15
	b.sp = sat(wd1 + wd2)
	b.sz = 0
	for i := 6; i > 0; i-- {
		b.sz += (b.b[i] * sat(b.d[i]+b.d[i])) >> 15
	}
	b.sz = sat(b.sz)
	b.s = sat(b.sp + b.sz)
}

// scale is blocks 3L/3H (LOGSCL, SCALEL): the new scale factor from the
// log factor update step; shift is 8 for the lower band, 10 the upper.
func (b *band) scale(step, limit, shift int) {
	b.nb = max(0, min(limit, (b.nb*127)>>7+step))
	wd1 := (b.nb >> 6) & 31
	wd2 := shift - (b.nb >> 11)
	if wd2 < 0 {
		b.det = (ilb[wd1] << -wd2) << 2
	} else {
		b.det = (ilb[wd1] >> wd2) << 2
	}
}

// Encoder encodes 16 kHz samples.
type Encoder struct{ st state }

// NewEncoder returns an encoder in its initial state.
func NewEncoder() *Encoder { return &Encoder{st: newState()} }

// Encode appends the code bytes of pcm (an even number of 16 kHz
// samples) to dst.
func (e *Encoder) Encode(dst []byte, pcm []int16) []byte {
	s := &e.st
	for j := 0; j+1 < len(pcm); j += 2 {
		copy(s.x[:22], s.x[2:])
		s.x[22], s.x[23] = int(pcm[j]), int(pcm[j+1])
		var sumEven, sumOdd int
		for i := 0; i < 12; i++ {
			sumOdd += s.x[2*i] * qmf[i]
			sumEven += s.x[2*i+1] * qmf[11-i]
		}
		xlow, xhigh := (sumEven+sumOdd)>>14, (sumEven-sumOdd)>>14

		// Lower band: SUBTRA, QUANTL, INVQAL.
		lo := &s.band[0]
		el := sat(xlow - lo.s)
		wd := el
		if el < 0 {
			wd = -(el + 1)
		}
		i := 1
		for ; i < 30; i++ {
			if wd < (q6[i]*lo.det)>>12 {
				break
			}
		}
		ilow := ilp[i]
		if el < 0 {
			ilow = iln[i]
		}
		ril := ilow >> 2
		dlow := (lo.det * qm4[ril]) >> 15
		lo.scale(wl[rl42[ril]], 18432, 8)
		lo.adapt(dlow)

		// Upper band: SUBTRA, QUANTH, INVQAH.
		hi := &s.band[1]
		eh := sat(xhigh - hi.s)
		wd = eh
		if eh < 0 {
			wd = -(eh + 1)
		}
		mih := 1
		if wd >= (564*hi.det)>>12 {
			mih = 2
		}
		ihigh := ihp[mih]
		if eh < 0 {
			ihigh = ihn[mih]
		}
		dhigh := (hi.det * qm2[ihigh]) >> 15
		hi.scale(wh[rh2[ihigh]], 22528, 10)
		hi.adapt(dhigh)

		dst = append(dst, byte(ihigh<<6|ilow))
	}
	return dst
}

// Decoder decodes to 16 kHz samples.
type Decoder struct{ st state }

// NewDecoder returns a decoder in its initial state.
func NewDecoder() *Decoder { return &Decoder{st: newState()} }

// Decode appends the two 16 kHz samples of each code byte to dst.
func (d *Decoder) Decode(dst []int16, code []byte) []int16 {
	s := &d.st
	for _, c := range code {
		lo, hi := &s.band[0], &s.band[1]
		wd1 := int(c) & 0x3f
		ihigh := int(c>>6) & 3

		// Lower band: INVQBL, RECONS, LIMIT, INVQAL.
		rlow := max(-16384, min(16383, lo.s+(lo.det*qm6[wd1])>>15))
		ril := wd1 >> 2
		dlow := (lo.det * qm4[ril]) >> 15
		lo.scale(wl[rl42[ril]], 18432, 8)
		lo.adapt(dlow)

		// Upper band: INVQAH, RECONS, LIMIT.
		dhigh := (hi.det * qm2[ihigh]) >> 15
		rhigh := max(-16384, min(16383, dhigh+hi.s))
		hi.scale(wh[rh2[ihigh]], 22528, 10)
		hi.adapt(dhigh)

		// The receive QMF.
		copy(s.x[:22], s.x[2:])
		s.x[22], s.x[23] = rlow+rhigh, rlow-rhigh
		var xout1, xout2 int
		for i := 0; i < 12; i++ {
			xout2 += s.x[2*i] * qmf[i]
			xout1 += s.x[2*i+1] * qmf[11-i]
		}
		dst = append(dst, int16(sat(xout1>>11)), int16(sat(xout2>>11)))
	}
	return dst
}
