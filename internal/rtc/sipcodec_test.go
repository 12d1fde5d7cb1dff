package rtc

import (
	"testing"

	"github.com/confer-platform/confer/internal/sip"
)

// A SIP terminal's H.264 sprop-parameter-sets go with the fmtp of what it
// publishes into the SFU, which tells the compositor's pane decoder.
func TestSIPCodecCarriesSprop(t *testing.T) {
	t.Parallel()
	c := localCodec("video", &sip.Codec{PT: 99, Name: "H264", ClockRate: 90000, Fmtp: "profile-level-id=42e01f;packetization-mode=1", Sprop: "Z0LAH9o=,aM48gA=="})
	if want := "profile-level-id=42e01f;packetization-mode=1;sprop-parameter-sets=Z0LAH9o=,aM48gA=="; c.Fmtp != want || c.MimeType != "video/H264" {
		t.Fatalf("local codec %+v, want fmtp %q", c, want)
	}
	if c := localCodec("audio", &sip.Codec{PT: 0, Name: "PCMU", ClockRate: 8000}); c.Fmtp != "" {
		t.Fatalf("PCMU fmtp %q", c.Fmtp)
	}
}
