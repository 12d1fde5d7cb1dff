package sip

import (
	"strings"
	"testing"
)

// An H.264 terminal's sprop-parameter-sets are not answered but kept with
// the codec it sends (Codec.Sprop): the compositor decodes a terminal
// that sends its SPS and PPS only there.
func TestH264SpropKeptApart(t *testing.T) {
	t.Parallel()
	const sets = "Z0LAH9oFB+hAAAADAEAAAA8jxgyo,aM48gA=="
	c := pickH264([]Codec{{PT: 99, Name: "H264", ClockRate: 90000,
		Fmtp: "profile-level-id=42e01f; packetization-mode=1;sprop-parameter-sets=" + sets + ";max-mbps=40500"}})
	if c == nil {
		t.Fatal("no H.264 picked")
	}
	if c.Sprop != sets || strings.Contains(c.Fmtp, "sprop") || c.Fmtp != "profile-level-id=42e01f;packetization-mode=1" {
		t.Fatalf("picked fmtp %q, sprop %q", c.Fmtp, c.Sprop)
	}
}
