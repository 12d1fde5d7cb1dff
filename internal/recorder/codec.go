package recorder

import (
	"encoding/binary"
	"strings"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
)

// The codecs a recording stores (docs/recording.md "Formats"): frames are
// copied as they arrive, never decoded. This file knows, per codec, how to
// take frames out of RTP, which frames are key frames, the picture size a
// key frame declares and the Matroska codec id.

// codec is what the muxer needs of one RTP codec.
type codec struct {
	id           string // Matroska CodecID
	video        bool
	depacketizer func() rtp.Depacketizer
	keyFrame     func(frame []byte) bool
	size         func(frame []byte) (w, h int, ok bool) // nil: the size is not read from frames
}

// codecOf returns the codec of a MIME type (video/VP8, audio/opus, ...).
func codecOf(mime string) (codec, bool) {
	switch strings.ToLower(mime) {
	case "video/vp8":
		return codec{id: "V_VP8", video: true, depacketizer: func() rtp.Depacketizer { return &codecs.VP8Packet{} },
			keyFrame: vp8Key, size: vp8Size}, true
	case "video/vp9":
		return codec{id: "V_VP9", video: true, depacketizer: func() rtp.Depacketizer { return &codecs.VP9Packet{} },
			keyFrame: vp9Key, size: vp9Size}, true
	case "video/h264":
		return codec{id: "V_MPEG4/ISO/AVC", video: true, depacketizer: func() rtp.Depacketizer { return &codecs.H264Packet{} },
			keyFrame: h264Key, size: h264Size}, true
	case "audio/opus":
		return codec{id: "A_OPUS", depacketizer: func() rtp.Depacketizer { return &codecs.OpusPacket{} },
			keyFrame: func([]byte) bool { return true }}, true
	}
	return codec{}, false
}

// vp8Key: bit 0 of the frame tag is 0 on a key frame (RFC 6386 9.1).
func vp8Key(f []byte) bool { return len(f) > 0 && f[0]&1 == 0 }

// vp8Size reads the 14-bit width and height after a key frame's start
// code 9d 01 2a (RFC 6386 9.1).
func vp8Size(f []byte) (int, int, bool) {
	if len(f) < 10 || !vp8Key(f) || f[3] != 0x9d || f[4] != 0x01 || f[5] != 0x2a {
		return 0, 0, false
	}
	return int(binary.LittleEndian.Uint16(f[6:]) & 0x3fff), int(binary.LittleEndian.Uint16(f[8:]) & 0x3fff), true
}

// bits reads a VP9 or H.264 header most significant bit first.
type bits struct {
	b   []byte
	pos int
}

func (r *bits) bit() int {
	if r.pos >= len(r.b)*8 {
		r.pos++
		return 0
	}
	v := int(r.b[r.pos/8]>>(7-r.pos%8)) & 1
	r.pos++
	return v
}

func (r *bits) n(k int) int {
	v := 0
	for range k {
		v = v<<1 | r.bit()
	}
	return v
}

func (r *bits) over() bool { return r.pos > len(r.b)*8 }

// ue reads an exp-Golomb number (H.264 7.2).
func (r *bits) ue() int {
	zeros := 0
	for r.bit() == 0 && zeros < 32 {
		zeros++
	}
	return (1<<zeros - 1) + r.n(zeros)
}

func (r *bits) se() int {
	v := r.ue()
	if v%2 == 1 {
		return (v + 1) / 2
	}
	return -v / 2
}

// vp9Header reads a VP9 uncompressed header up to the frame size (VP9
// bitstream specification 6.2): key tells a key frame.
func vp9Header(f []byte) (key bool, w, h int, ok bool) {
	r := &bits{b: f}
	if r.n(2) != 2 { // frame_marker
		return false, 0, 0, false
	}
	profile := r.bit() | r.bit()<<1
	if profile == 3 {
		r.bit()
	}
	if r.bit() == 1 { // show_existing_frame
		return false, 0, 0, false
	}
	if r.bit() != 0 { // frame_type 1: not a key frame
		return false, 0, 0, true
	}
	r.n(2) // show_frame, error_resilient_mode
	if r.n(24) != 0x498342 {
		return true, 0, 0, false
	}
	if profile >= 2 {
		r.bit() // ten_or_twelve_bit
	}
	if r.n(3) != 7 { // color_space not sRGB
		r.bit() // color_range
		if profile == 1 || profile == 3 {
			r.n(3)
		}
	} else if profile == 1 || profile == 3 {
		r.bit()
	}
	w, h = r.n(16)+1, r.n(16)+1
	return true, w, h, !r.over()
}

func vp9Key(f []byte) bool { k, _, _, _ := vp9Header(f); return k }

func vp9Size(f []byte) (int, int, bool) {
	k, w, h, ok := vp9Header(f)
	return w, h, k && ok && w > 0
}

// nalus splits an Annex B stream (what pion's H264Packet returns).
func nalus(f []byte) [][]byte {
	var out [][]byte
	start := -1
	for i := 0; i+2 < len(f); i++ {
		if f[i] == 0 && f[i+1] == 0 && f[i+2] == 1 {
			if start >= 0 {
				end := i
				if end > start && f[end-1] == 0 {
					end--
				}
				out = append(out, f[start:end])
			}
			start = i + 3
			i += 2
		}
	}
	if start >= 0 && start < len(f) {
		out = append(out, f[start:])
	}
	return out
}

// h264Key: an IDR slice (NAL type 5) makes a key frame.
func h264Key(f []byte) bool {
	for _, n := range nalus(f) {
		if len(n) > 0 && n[0]&0x1f == 5 {
			return true
		}
	}
	return false
}

// h264Size reads the picture size of the frame's sequence parameter set
// (H.264 7.3.2.1.1).
func h264Size(f []byte) (int, int, bool) {
	for _, n := range nalus(f) {
		if len(n) > 4 && n[0]&0x1f == 7 {
			return spsSize(unescape(n[1:]))
		}
	}
	return 0, 0, false
}

// unescape drops the emulation prevention bytes (00 00 03).
func unescape(b []byte) []byte {
	out := make([]byte, 0, len(b))
	zeros := 0
	for _, c := range b {
		if zeros >= 2 && c == 3 {
			zeros = 0
			continue
		}
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
		out = append(out, c)
	}
	return out
}

func spsSize(b []byte) (int, int, bool) {
	r := &bits{b: b}
	profile := r.n(8)
	r.n(16) // constraint flags, level
	r.ue()  // seq_parameter_set_id
	chroma := 1
	switch profile {
	case 100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135:
		if chroma = r.ue(); chroma == 3 {
			r.bit()
		}
		r.ue()
		r.ue()
		r.bit()
		if r.bit() == 1 { // seq_scaling_matrix_present_flag
			lists := 8
			if chroma == 3 {
				lists = 12
			}
			for i := range lists {
				if r.bit() == 1 {
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
	}
	r.ue()          // log2_max_frame_num_minus4
	switch r.ue() { // pic_order_cnt_type
	case 0:
		r.ue()
	case 1:
		r.bit()
		r.se()
		r.se()
		for range r.ue() {
			r.se()
		}
	}
	r.ue()  // max_num_ref_frames
	r.bit() // gaps_in_frame_num_value_allowed_flag
	wMbs, hMapUnits := r.ue()+1, r.ue()+1
	frameMbsOnly := r.bit()
	if frameMbsOnly == 0 {
		r.bit()
	}
	r.bit() // direct_8x8_inference_flag
	w, h := wMbs*16, (2-frameMbsOnly)*hMapUnits*16
	if r.bit() == 1 { // frame_cropping_flag
		cl, cr, ct, cb := r.ue(), r.ue(), r.ue(), r.ue()
		cx, cy := 2, 2*(2-frameMbsOnly)
		if chroma == 0 {
			cx, cy = 1, 2-frameMbsOnly
		}
		w -= (cl + cr) * cx
		h -= (ct + cb) * cy
	}
	if r.over() || w <= 0 || h <= 0 {
		return 0, 0, false
	}
	return w, h, true
}

// avcConfig builds the AVCDecoderConfigurationRecord (ISO 14496-15 5.2.4)
// of a key frame's SPS and PPS: the CodecPrivate of an H.264 track.
func avcConfig(f []byte) []byte {
	var sps, pps []byte
	for _, n := range nalus(f) {
		switch {
		case len(n) > 3 && n[0]&0x1f == 7 && sps == nil:
			sps = n
		case len(n) > 0 && n[0]&0x1f == 8 && pps == nil:
			pps = n
		}
	}
	if sps == nil || pps == nil {
		return nil
	}
	out := []byte{1, sps[1], sps[2], sps[3], 0xff, 0xe1}
	out = binary.BigEndian.AppendUint16(out, uint16(len(sps)))
	out = append(out, sps...)
	out = append(out, 1)
	out = binary.BigEndian.AppendUint16(out, uint16(len(pps)))
	return append(out, pps...)
}

// lengthPrefixed turns an Annex B frame into the 4-byte length-prefixed
// NAL units that a Matroska AVC track holds.
func lengthPrefixed(f []byte) []byte {
	ns := nalus(f)
	out := make([]byte, 0, len(f)+4*len(ns))
	for _, n := range ns {
		out = binary.BigEndian.AppendUint32(out, uint32(len(n)))
		out = append(out, n...)
	}
	return out
}

// opusHead is the CodecPrivate of an Opus track (RFC 7845 5.1): version
// 1, the channel count, no pre-skip, 48 kHz, no gain, mapping family 0.
func opusHead(channels uint16) []byte {
	if channels == 0 {
		channels = 2
	}
	b := []byte("OpusHead")
	b = append(b, 1, byte(channels), 0, 0)
	b = binary.LittleEndian.AppendUint32(b, 48000)
	return append(b, 0, 0, 0)
}
