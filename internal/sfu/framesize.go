package sfu

import (
	"strings"

	"github.com/pion/webrtc/v4"
)

// The picture size of a video track, read from its key frames without
// decoding: the VP8 key frame header (RFC 6386 section 9.1) and the H.264
// sequence parameter set (ITU-T H.264 section 7.3.2.1.1). A terminal's
// channels report it (channels.go).

// frameSize returns the picture size a video RTP payload announces: a VP8
// key frame's first packet, or an H.264 SPS (alone or in a STAP-A).
func frameSize(lmime string, p []byte) (width, height int, ok bool) {
	switch lmime {
	case strings.ToLower(webrtc.MimeTypeVP8):
		return vp8Size(p)
	case strings.ToLower(webrtc.MimeTypeH264):
		return h264Size(p)
	}
	return 0, 0, false
}

// vp8Size reads the size of a VP8 key frame's first packet: after the
// payload descriptor (RFC 7741 section 4.2), the 3-byte frame tag, the
// start code 9d 01 2a and two 14-bit little-endian dimensions.
func vp8Size(p []byte) (int, int, bool) {
	if !vp8KeyFrame(p) {
		return 0, 0, false
	}
	i := 1
	if p[0]&0x80 != 0 { // X
		ext := p[1]
		i = 2
		if ext&0x80 != 0 { // I
			if p[i]&0x80 != 0 {
				i += 2
			} else {
				i++
			}
		}
		if ext&0x40 != 0 { // L
			i++
		}
		if ext&0x30 != 0 { // T or K
			i++
		}
	}
	f := p[i:]
	if len(f) < 10 || f[3] != 0x9d || f[4] != 0x01 || f[5] != 0x2a {
		return 0, 0, false
	}
	w := int(f[6]) | int(f[7]&0x3f)<<8
	h := int(f[8]) | int(f[9]&0x3f)<<8
	return w, h, w > 0 && h > 0
}

// h264Size finds an SPS in a single NAL unit or a STAP-A (RFC 6184
// section 5) and reads its picture size.
func h264Size(p []byte) (int, int, bool) {
	if len(p) < 1 {
		return 0, 0, false
	}
	switch p[0] & 0x1f {
	case 7:
		return spsSize(p)
	case 24: // STAP-A
		for i := 1; i+2 < len(p); {
			size := int(p[i])<<8 | int(p[i+1])
			if i+2+size > len(p) {
				break
			}
			if p[i+2]&0x1f == 7 {
				return spsSize(p[i+2 : i+2+size])
			}
			i += 2 + size
		}
	}
	return 0, 0, false
}

// bitReader reads an RBSP (emulation prevention bytes removed) bit by bit.
type bitReader struct {
	b   []byte
	pos int // in bits
	bad bool
}

func (r *bitReader) bit() int {
	if r.pos >= 8*len(r.b) {
		r.bad = true
		return 0
	}
	v := int(r.b[r.pos/8]>>(7-r.pos%8)) & 1
	r.pos++
	return v
}

func (r *bitReader) bits(n int) int {
	v := 0
	for range n {
		v = v<<1 | r.bit()
	}
	return v
}

// ue reads an unsigned Exp-Golomb code (H.264 section 9.1).
func (r *bitReader) ue() int {
	zeros := 0
	for r.bit() == 0 {
		if zeros++; zeros > 31 || r.bad {
			r.bad = true
			return 0
		}
	}
	return 1<<zeros - 1 + r.bits(zeros)
}

// se reads a signed Exp-Golomb code.
func (r *bitReader) se() int {
	k := r.ue()
	if k%2 == 1 {
		return (k + 1) / 2
	}
	return -k / 2
}

// rbsp removes the emulation prevention bytes (00 00 03) of a NAL unit.
func rbsp(nal []byte) []byte {
	out := make([]byte, 0, len(nal))
	zeros := 0
	for _, b := range nal {
		if zeros >= 2 && b == 3 {
			zeros = 0
			continue
		}
		if b == 0 {
			zeros++
		} else {
			zeros = 0
		}
		out = append(out, b)
	}
	return out
}

// spsSize reads the cropped picture size of an SPS NAL unit.
func spsSize(nal []byte) (int, int, bool) {
	if len(nal) < 4 {
		return 0, 0, false
	}
	r := &bitReader{b: rbsp(nal[1:])}
	profile := r.bits(8)
	r.bits(16) // constraint flags, level_idc
	r.ue()     // seq_parameter_set_id
	chroma := 1
	switch profile {
	case 100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135:
		if chroma = r.ue(); chroma == 3 {
			r.bit() // separate_colour_plane_flag
		}
		r.ue()            // bit_depth_luma_minus8
		r.ue()            // bit_depth_chroma_minus8
		r.bit()           // qpprime_y_zero_transform_bypass_flag
		if r.bit() == 1 { // seq_scaling_matrix_present_flag
			lists := 8
			if chroma == 3 {
				lists = 12
			}
			for i := range lists {
				if r.bit() == 0 {
					continue
				}
				size := 16
				if i >= 6 {
					size = 64
				}
				last, next := 8, 8
				for range size {
					if next != 0 {
						next = (last + r.se() + 256) % 256
					}
					if next != 0 {
						last = next
					}
				}
			}
		}
	}
	r.ue()          // log2_max_frame_num_minus4
	switch r.ue() { // pic_order_cnt_type
	case 0:
		r.ue() // log2_max_pic_order_cnt_lsb_minus4
	case 1:
		r.bit() // delta_pic_order_always_zero_flag
		r.se()  // offset_for_non_ref_pic
		r.se()  // offset_for_top_to_bottom_field
		n := r.ue()
		for i := 0; i < n && !r.bad; i++ {
			r.se()
		}
	}
	r.ue()  // max_num_ref_frames
	r.bit() // gaps_in_frame_num_value_allowed_flag
	wMbs, hMaps := r.ue()+1, r.ue()+1
	frameMbsOnly := r.bit()
	if frameMbsOnly == 0 {
		r.bit() // mb_adaptive_frame_field_flag
	}
	r.bit() // direct_8x8_inference_flag
	w, h := wMbs*16, (2-frameMbsOnly)*hMaps*16
	if r.bit() == 1 { // frame_cropping_flag
		cx, cy := 1, 2-frameMbsOnly // monochrome or 4:4:4
		switch chroma {
		case 1: // 4:2:0
			cx, cy = 2, 2*(2-frameMbsOnly)
		case 2: // 4:2:2
			cx = 2
		}
		left, right, top, bottom := r.ue(), r.ue(), r.ue(), r.ue()
		w -= (left + right) * cx
		h -= (top + bottom) * cy
	}
	if r.bad || w <= 0 || h <= 0 {
		return 0, 0, false
	}
	return w, h, true
}
