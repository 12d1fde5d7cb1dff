package sfu

import (
	"encoding/hex"
	"testing"
	"time"
)

// vp8KeyPacket is the first packet of a VP8 key frame of w×h: a payload
// descriptor (X with a 15-bit PictureID when ext), the frame tag, the
// start code and the dimensions (RFC 6386 section 9.1).
func vp8KeyPacket(w, h int, ext bool) []byte {
	p := []byte{0x10}
	if ext {
		p = []byte{0x90, 0x80, 0x81, 0x23}
	}
	return append(p, 0x50, 0x2a, 0x00, 0x9d, 0x01, 0x2a, byte(w), byte(w>>8), byte(h), byte(h>>8), 0, 0)
}

// SPS NAL units that ffmpeg's libx264 wrote for a test picture of each size
// and profile (1080 lines are coded as 1088 and cropped).
var spsSamples = []struct {
	name string
	hex  string
	w, h int
}{
	{"baseline 1280x720", "6742c01fd9005005bb011000000300100000030320f1832480", 1280, 720},
	{"high 1920x1080", "67640028acd940780227e5c044000003000400000300c83c60c658", 1920, 1080},
	{"main 640x360", "674d401eeca05017fcb808800000030080000019078b16cb", 640, 360},
}

func TestFrameSize(t *testing.T) {
	t.Parallel()
	for _, ext := range []bool{false, true} {
		if w, h, ok := frameSize("video/vp8", vp8KeyPacket(640, 480, ext)); !ok || w != 640 || h != 480 {
			t.Errorf("VP8 key frame (extended %v): %d×%d %v, want 640×480", ext, w, h, ok)
		}
	}
	inter := vp8KeyPacket(640, 480, false)
	inter[1] |= 0x01 // P bit: an inter frame
	if _, _, ok := frameSize("video/vp8", inter); ok {
		t.Error("a VP8 inter frame gave a size")
	}
	for _, s := range spsSamples {
		nal, err := hex.DecodeString(s.hex)
		if err != nil {
			t.Fatal(err)
		}
		if w, h, ok := frameSize("video/h264", nal); !ok || w != s.w || h != s.h {
			t.Errorf("SPS %s: %d×%d %v", s.name, w, h, ok)
		}
		// The same SPS inside a STAP-A with a PPS after it.
		stap := append([]byte{0x78, byte(len(nal) >> 8), byte(len(nal))}, nal...)
		stap = append(stap, 0x00, 0x04, 0x68, 0xce, 0x3c, 0x80)
		if w, h, ok := frameSize("video/h264", stap); !ok || w != s.w || h != s.h {
			t.Errorf("SPS %s in a STAP-A: %d×%d %v", s.name, w, h, ok)
		}
		// Cut short: no size, no panic.
		for n := 1; n < len(nal); n++ {
			frameSize("video/h264", nal[:n])
		}
	}
	if _, _, ok := frameSize("video/h264", []byte{0x65, 0x88}); ok {
		t.Error("an IDR slice without SPS gave a size")
	}
	if _, _, ok := frameSize("audio/opus", []byte{0xfc}); ok {
		t.Error("audio gave a size")
	}
}

// The rate of a byte counter: the average since the track opened, then
// since the previous measurement at least a second before.
func TestRateMeter(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1000, 0)
	m := rateMeter{at: t0}
	if got := m.kbps(t0.Add(2*time.Second), 250_000); got != 1000 { // 2 Mbit in 2 s
		t.Errorf("first measurement %d kbit/s, want 1000", got)
	}
	if got := m.kbps(t0.Add(2500*time.Millisecond), 999_999); got != 1000 {
		t.Errorf("half a second later %d kbit/s, want the previous 1000", got)
	}
	if got := m.kbps(t0.Add(4*time.Second), 500_000); got != 1000 {
		t.Errorf("two seconds later %d kbit/s, want 1000", got)
	}
	if got := m.kbps(t0.Add(5*time.Second), 500_000); got != 0 {
		t.Errorf("nothing for a second: %d kbit/s, want 0", got)
	}
}
