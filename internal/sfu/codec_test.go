package sfu

import (
	"testing"

	"github.com/pion/webrtc/v4"
)

func TestIsKeyFrame(t *testing.T) {
	t.Parallel()
	testCases := []struct {
		name    string
		mime    string
		payload []byte
		want    bool
	}{
		{"vp8 key", webrtc.MimeTypeVP8, []byte{0x10, 0x00, 0x9d}, true},
		{"vp8 delta", webrtc.MimeTypeVP8, []byte{0x10, 0x01, 0x9d}, false},
		{"vp8 continuation", webrtc.MimeTypeVP8, []byte{0x00, 0x00}, false},
		{"vp8 key, 15-bit picture id", webrtc.MimeTypeVP8, []byte{0x90, 0x80, 0x81, 0x23, 0x00}, true},
		{"vp8 key, 7-bit picture id, tl0 and tid", webrtc.MimeTypeVP8, []byte{0x90, 0xe0, 0x12, 0x01, 0x40, 0x00}, true},
		{"vp8 delta, picture id", webrtc.MimeTypeVP8, []byte{0x90, 0x80, 0x12, 0x01}, false},
		{"vp8 truncated", webrtc.MimeTypeVP8, []byte{0x90}, false},
		{"vp8 empty", webrtc.MimeTypeVP8, nil, false},
		{"h264 idr", webrtc.MimeTypeH264, []byte{0x65, 0x88}, true},
		{"h264 sps", webrtc.MimeTypeH264, []byte{0x67, 0x42}, true},
		{"h264 non-idr", webrtc.MimeTypeH264, []byte{0x41, 0x9a}, false},
		{"h264 stap-a with sps", webrtc.MimeTypeH264, []byte{0x78, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xce}, true},
		{"h264 stap-a without", webrtc.MimeTypeH264, []byte{0x78, 0x00, 0x02, 0x41, 0x9a}, false},
		{"h264 fu-a idr start", webrtc.MimeTypeH264, []byte{0x7c, 0x85, 0x88}, true},
		{"h264 fu-a idr middle", webrtc.MimeTypeH264, []byte{0x7c, 0x05, 0x88}, false},
		{"opus", webrtc.MimeTypeOpus, []byte{0x00}, false},
	}
	for _, tc := range testCases {
		if got := isKeyFrame(tc.mime, tc.payload); got != tc.want {
			t.Errorf("%s: isKeyFrame(%q, % x) = %v, want %v", tc.name, tc.mime, tc.payload, got, tc.want)
		}
	}
}

func TestLayers(t *testing.T) {
	t.Parallel()
	for rid, want := range map[string]int{"": 0, "q": 0, "l": 0, "h": 1, "m": 1, "mid": 1, "f": 2, "high": 2} {
		if got := layerOfRID(rid); got != want {
			t.Errorf("layerOfRID(%q) = %d, want %d", rid, got, want)
		}
	}
	for _, tc := range []struct{ w, h, want int }{{0, 0, 2}, {160, 90, 0}, {320, 180, 0}, {640, 360, 1}, {641, 360, 2}, {1280, 720, 2}} {
		if got := layerForSize(tc.w, tc.h); got != tc.want {
			t.Errorf("layerForSize(%d, %d) = %d, want %d", tc.w, tc.h, got, tc.want)
		}
	}
}
