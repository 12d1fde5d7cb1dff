package sfu

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pion/rtp"
)

// askingSink is a recorder's shape: from inside WriteRTP, under its own
// lock, it asks its endpoint for a key frame (a lost packet), and another
// goroutine asks it while holding that lock (a resume).
type askingSink struct {
	mu    sync.Mutex
	local atomic.Pointer[Local]
	n     atomic.Int64
}

func (s *askingSink) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n.Add(1)%5 == 0 {
		if l := s.local.Load(); l != nil {
			l.RequestKeyFrame()
		}
	}
	return len(payload), nil
}

// resume is the recorder's resume: the sink's lock, then a key frame.
func (s *askingSink) resume() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.local.Load(); l != nil {
		l.RequestKeyFrame()
	}
}

// TestLockDisciplineKeyFrameFromSink: issue 35's deadlock at the SFU's
// level. A tap's writer asks for key frames from inside its writes and
// while holding its own lock, and the local publisher it records answers
// a key frame request by writing a key frame at once. The media keeps
// flowing (before the lock discipline the first request inside a write
// locked the down track it was written through, and the watchdog of
// TestMain failed the run).
func TestLockDisciplineKeyFrameFromSink(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	var pub atomic.Pointer[Local]
	var seq atomic.Uint32
	writeKey := func() {
		if l := pub.Load(); l != nil {
			n := seq.Add(1)
			l.WriteVideo(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(n), Timestamp: n * 450, Marker: true},
				Payload: vp8(77, 0, true)})
		}
	}
	l, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, Name: "camera", Kind: KindPlayback,
		PublishVideo: &vp8Local, OnKeyFrameRequest: writeKey})
	if err != nil {
		t.Fatal(err)
	}
	pub.Store(l)
	s := &askingSink{}
	tap, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Receive: SourceTerminal, Terminal: l.MtID(),
		VideoOut: s, VideoCodecs: []LocalCodec{vp8Local}})
	if err != nil {
		t.Fatal(err)
	}
	s.local.Store(tap)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // the publisher's media, a key frame every 30 packets
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			n := seq.Add(1)
			l.WriteVideo(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(n), Timestamp: n * 450, Marker: true},
				Payload: vp8(77, 0, i%30 == 0)})
		}
	}()
	for range 200 {
		s.resume()
	}
	from := s.n.Load()
	waitFor(t, "more packets at the tap", func() bool { return s.n.Load() > from+500 })
	close(stop)
	<-done
	tap.Close()
	l.Close()
}
