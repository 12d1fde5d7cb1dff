// Package g711 encodes and decodes ITU-T G.711 (A-law and µ-law): one
// byte per 16-bit sample at 8 kHz, RTP payload types 8 (PCMA) and 0
// (PCMU) of RFC 3551. Decoding follows the public-domain Sun reference
// implementation (g711.c); encoding picks the nearest code, as ffmpeg does.
package g711

// UlawToLinear decodes one µ-law byte.
func UlawToLinear(u byte) int16 {
	u = ^u
	t := (int(u&0x0f) << 3) + 0x84
	t <<= (u & 0x70) >> 4
	if u&0x80 != 0 {
		return int16(0x84 - t)
	}
	return int16(t - 0x84)
}

// LinearToUlaw encodes one sample in µ-law: the code whose value is
// nearest (as ffmpeg's pcm_mulaw encoder).
func LinearToUlaw(s int16) byte { return ulawTable[(int(s)+32768)>>2] }

// AlawToLinear decodes one A-law byte.
func AlawToLinear(a byte) int16 {
	a ^= 0x55
	t := int(a&0x0f) << 4
	seg := int(a&0x70) >> 4
	switch seg {
	case 0:
		t += 8
	case 1:
		t += 0x108
	default:
		t += 0x108
		t <<= seg - 1
	}
	if a&0x80 != 0 {
		return int16(t)
	}
	return int16(-t)
}

// LinearToAlaw encodes one sample in A-law: the code whose value is
// nearest (as ffmpeg's pcm_alaw encoder).
func LinearToAlaw(s int16) byte { return alawTable[(int(s)+32768)>>2] }

var ulawTable, alawTable = encodeTable(UlawToLinear, 0xff), encodeTable(AlawToLinear, 0xd5)

// encodeTable inverts a decoder over 14-bit magnitudes: each value gets
// the code of the nearest decoded value, the decision levels lying
// halfway between the codes' values (ffmpeg's build_xlaw_table).
func encodeTable(decode func(byte) int16, mask byte) *[16384]byte {
	var t [16384]byte
	j := 1
	t[8192] = mask
	for i := 0; i < 127; i++ {
		v1, v2 := int(decode(byte(i)^mask)), int(decode(byte(i+1)^mask))
		for v := (v1 + v2 + 4) >> 3; j < v; j++ {
			t[8192-j] = byte(i) ^ mask ^ 0x80
			t[8192+j] = byte(i) ^ mask
		}
	}
	for ; j < 8192; j++ {
		t[8192-j] = 127 ^ mask ^ 0x80
		t[8192+j] = 127 ^ mask
	}
	t[0] = t[1]
	return &t
}

// EncodeUlaw appends the µ-law bytes of pcm to dst.
func EncodeUlaw(dst []byte, pcm []int16) []byte {
	for _, s := range pcm {
		dst = append(dst, LinearToUlaw(s))
	}
	return dst
}

// EncodeAlaw appends the A-law bytes of pcm to dst.
func EncodeAlaw(dst []byte, pcm []int16) []byte {
	for _, s := range pcm {
		dst = append(dst, LinearToAlaw(s))
	}
	return dst
}

// DecodeUlaw appends the samples of µ-law bytes to dst.
func DecodeUlaw(dst []int16, b []byte) []int16 {
	for _, u := range b {
		dst = append(dst, UlawToLinear(u))
	}
	return dst
}

// DecodeAlaw appends the samples of A-law bytes to dst.
func DecodeAlaw(dst []int16, b []byte) []int16 {
	for _, a := range b {
		dst = append(dst, AlawToLinear(a))
	}
	return dst
}
