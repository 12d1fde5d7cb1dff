package sfu

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// formatSink is a FormatWriter: it records what it is told and whether a
// packet came before.
type formatSink struct {
	mu      sync.Mutex
	formats []string
	packets int
	early   bool // a packet before any format
}

func (s *formatSink) SourceFormat(mime, fmtp string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.formats = append(s.formats, mime+" "+fmtp)
}

func (s *formatSink) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.formats) == 0 {
		s.early = true
	}
	s.packets++
	return len(payload), nil
}

// A tap whose writer is a FormatWriter (the compositor's pane) is told
// the codec and fmtp of the source it receives, sprop-parameter-sets
// included, once, before the source's first packet: a decoder needs the
// parameter sets of an H.264 terminal that announces them only in its
// SDP.
func TestLocalTapToldTheSourceFormat(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	const fmtp = "profile-level-id=42e01f;packetization-mode=1;sprop-parameter-sets=Z0LAH9oFB+hAAAADAEAAAA8jxgyo,aM48gA=="
	h264 := LocalCodec{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 102, Fmtp: fmtp}
	phone, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, MtID: "77", Name: "room", Kind: KindSIP,
		PublishVideo: &h264})
	if err != nil {
		t.Fatal(err)
	}
	defer phone.Close()
	sink := &formatSink{}
	tap, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Receive: SourceTerminal, Terminal: "77",
		VideoOut: sink, VideoCodecs: []LocalCodec{{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			nal := byte(0x41) // a slice; every tenth an IDR
			if i%10 == 0 {
				nal = 0x65
			}
			phone.WriteVideo(&rtp.Packet{Header: rtp.Header{Version: 2, Marker: true, SequenceNumber: uint16(i), Timestamp: uint32(i) * 3000},
				Payload: []byte{nal, 0x88, 0x84, 0x21}})
		}
	}()
	waitFor(t, "20 packets at the tap", func() bool {
		sink.mu.Lock()
		defer sink.mu.Unlock()
		return sink.packets >= 20
	})
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if sink.early || len(sink.formats) != 1 || sink.formats[0] != webrtc.MimeTypeH264+" "+fmtp {
		t.Fatalf("told %q (a packet before: %v), want once %q before the first packet", sink.formats, sink.early, fmtp)
	}
}
