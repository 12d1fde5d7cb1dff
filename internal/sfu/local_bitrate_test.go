package sfu

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// layerSink counts the video packets a local endpoint receives by the
// simulcast layer the test publisher wrote into them.
type layerSink struct {
	mu sync.Mutex
	n  map[byte]int
}

func (s *layerSink) WriteRTP(_ *rtp.Header, payload []byte) (int, error) {
	if len(payload) >= 7 && payload[2] == 0x9d {
		s.mu.Lock()
		s.n[payload[6]]++
		s.mu.Unlock()
	}
	return len(payload), nil
}

func (s *layerSink) count(layer byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n[layer]
}

// flowing waits for n more packets of layer, then for n more in which no
// packet of another layer arrives.
func (s *layerSink) flowing(t *testing.T, layer byte, n int) {
	t.Helper()
	start := s.count(layer)
	waitFor(t, fmt.Sprintf("%d packets of layer %d", n, layer), func() bool { return s.count(layer) >= start+n })
	others := func() (k int) {
		for l := byte(0); l < numLayers; l++ {
			if l != layer {
				k += s.count(l)
			}
		}
		return k
	}
	before := others()
	mid := s.count(layer)
	waitFor(t, fmt.Sprintf("%d more packets of layer %d", n, layer), func() bool { return s.count(layer) >= mid+n })
	if k := others() - before; k != 0 {
		t.Fatalf("%d packets of other layers while layer %d flows", k, layer)
	}
}

// CapVideo (a SIP terminal's b=TIAS or TMMBR) chooses the simulcast layer
// a local endpoint receives: the highest whose bitrate fits, the lowest
// below them all, every layer again without a cap.
func TestLocalVideoCap(t *testing.T) {
	t.Parallel()
	rg := newRig(t, func(c *Config) { c.NoBandwidthLayers = true })
	p := rg.publish("c1", idA, true, "")
	p.run(idA, &sendOpts{level: 127})
	waitLayers(t, rg, "c1", p.mtID)
	video := &layerSink{n: map[byte]int{}}
	l, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Receive: SourceTerminal, Terminal: p.mtID,
		VideoOut: video, VideoCodecs: []LocalCodec{{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: 101}}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	video.flowing(t, layerHigh, 30)
	l.CapVideo(layerBitrate[layerMid] + 100_000)
	video.flowing(t, layerMid, 30)
	l.CapVideo(64_000)
	video.flowing(t, layerLow, 30)
	l.CapVideo(0)
	video.flowing(t, layerHigh, 30)
}
