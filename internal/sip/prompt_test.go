package sip_test

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/audio/g711"
)

// A caller of a conference with a password hears the spoken prompt (an
// embedded µ-law recording) in its own codec, PCMA here, before it keys
// the password in (issue 39 item 8).
func TestPasswordPrompt(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, map[string]any{"password": "12"})
	p, media := newPeer(t, e.addr()), listenUDP(t)
	var packets, voiced atomic.Int64
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := media.Read(buf)
			if err != nil {
				return
			}
			var pkt rtp.Packet
			if pkt.Unmarshal(buf[:n]) != nil || pkt.PayloadType != 8 {
				continue
			}
			packets.Add(1)
			var sum float64
			pcm := g711.DecodeAlaw(nil, pkt.Payload)
			for _, s := range pcm {
				sum += float64(s) * float64(s)
			}
			if len(pcm) > 0 && math.Sqrt(sum/float64(len(pcm))) > 300 {
				voiced.Add(1)
			}
		}
	}()
	sdp := fmt.Sprintf("v=0\no=raw 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio %d RTP/AVP 8 101\na=rtpmap:8 PCMA/8000\na=rtpmap:101 telephone-event/8000\na=fmtp:101 0-15\n", port(media))
	if res := p.callWith(conf, sdp); res.code() != 200 {
		t.Fatalf("INVITE: %s", res.first)
	}
	waitFor(t, "a second of the spoken prompt in PCMA", func() bool { return packets.Load() >= 50 && voiced.Load() >= 20 })
	p.do("BYE", "", "")
}
