package sfu

import (
	"strings"

	"github.com/pion/webrtc/v4"
)

// isKeyFrame reports whether an RTP payload starts a key frame, the only
// point where a subscriber can switch source or simulcast layer.
func isKeyFrame(mime string, payload []byte) bool {
	switch strings.ToLower(mime) {
	case strings.ToLower(webrtc.MimeTypeVP8):
		return vp8KeyFrame(payload)
	case strings.ToLower(webrtc.MimeTypeH264):
		return h264KeyFrame(payload)
	}
	return false
}

// vp8KeyFrame parses the VP8 payload descriptor (RFC 7741 section 4.2) and
// the first byte of the frame header (RFC 6386 section 9.1: P bit 0 = key
// frame) of the first partition's first packet.
func vp8KeyFrame(p []byte) bool {
	if len(p) < 1 {
		return false
	}
	x, s, pid := p[0]&0x80 != 0, p[0]&0x10 != 0, p[0]&0x07
	if !s || pid != 0 {
		return false
	}
	i := 1
	if x {
		if len(p) < 2 {
			return false
		}
		ext := p[1]
		i = 2
		if ext&0x80 != 0 { // I: PictureID
			if len(p) <= i {
				return false
			}
			if p[i]&0x80 != 0 {
				i += 2
			} else {
				i++
			}
		}
		if ext&0x40 != 0 { // L: TL0PICIDX
			i++
		}
		if ext&0x30 != 0 { // T or K: TID/KEYIDX byte
			i++
		}
	}
	return len(p) > i && p[i]&0x01 == 0
}

// h264KeyFrame looks for an IDR slice or SPS in a single NAL unit, a STAP-A
// aggregate or the start of an FU-A (RFC 6184 section 5).
func h264KeyFrame(p []byte) bool {
	if len(p) < 1 {
		return false
	}
	switch t := p[0] & 0x1f; t {
	case 5, 7:
		return true
	case 24: // STAP-A
		for i := 1; i+2 < len(p); {
			size := int(p[i])<<8 | int(p[i+1])
			if i+2 >= len(p) {
				break
			}
			if nt := p[i+2] & 0x1f; nt == 5 || nt == 7 {
				return true
			}
			i += 2 + size
		}
	case 28: // FU-A
		return len(p) > 1 && p[1]&0x80 != 0 && (p[1]&0x1f == 5 || p[1]&0x1f == 7)
	}
	return false
}

// Simulcast layers, lowest first. Browsers and OBS name their encodings
// freely; these names cover the common ones (LiveKit q/h/f, low/mid/high,
// 0/1/2). An unknown name counts as the full layer.
const (
	layerLow  = 0
	layerMid  = 1
	layerHigh = 2
	numLayers = 3
)

func layerOfRID(rid string) int {
	switch strings.ToLower(rid) {
	case "", "q", "l", "low", "0":
		return layerLow
	case "h", "m", "mid", "1":
		return layerMid
	default: // "f", "hi", "high", "2"
		return layerHigh
	}
}

// layerForSize picks the layer for a rendered size: a quarter-resolution
// layer for thumbnails, half for medium panes, full otherwise (the default
// ratios of browser simulcast: scaleResolutionDownBy 4, 2, 1).
func layerForSize(width, height int) int {
	m := max(width, height)
	switch {
	case m <= 0:
		return layerHigh
	case m <= 320:
		return layerLow
	case m <= 640:
		return layerMid
	}
	return layerHigh
}
