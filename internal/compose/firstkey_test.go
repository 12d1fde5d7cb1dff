package compose

import (
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
)

// TestFirstKeyFrameIsDecoded: a decoder decodes from the key frame it
// starts at, not from the source's next one. A source that sends one key
// frame (a browser sends the next only when asked) and then inter frames
// shows its picture. Before, ffmpeg was run with -fflags nobuffer, which
// drops the packets read while it probes its input: the key frame that
// started a decoder, so that a pane (at its start, at each resize or
// change of its source's size) showed nothing until the source's next
// key frame, and decoded errors until then.
func TestFirstKeyFrameIsDecoded(t *testing.T) {
	needFFmpeg(t)
	ff, _ := FindFFmpeg("")
	for _, tc := range []struct {
		mime string
		pt   uint8
	}{{"video/VP8", 96}, {"video/H264", 106}} {
		t.Run(tc.mime, func(t *testing.T) {
			// The source: a few pictures from one encoder (a group of
			// pictures is 2 s: one key frame), its packets recorded.
			var mu sync.Mutex
			var pkts []*rtp.Packet
			frames := map[uint32]bool{}
			src, err := newOutput(ff, 30, OutputSpec{MimeType: tc.mime, Width: 320, Height: 180, Bitrate: 300_000, PayloadType: tc.pt},
				sinkFunc(func(p *rtp.Packet) {
					mu.Lock()
					defer mu.Unlock()
					pkts = append(pkts, p.Clone())
					frames[p.Timestamp] = true
				}))
			if err != nil {
				t.Fatal(err)
			}
			f := solid(320, 180, palette[4])
			// Until 12 pictures came out: far from the 61st picture
			// encoded, a loaded machine's slow start included.
			for n := 0; n < 12; {
				if pastPatience(t) {
					t.Fatalf("the source sent %d pictures until the test's deadline", n)
				}
				src.push(f)
				time.Sleep(33 * time.Millisecond)
				mu.Lock()
				n = len(frames)
				mu.Unlock()
			}
			src.Close()
			mu.Lock()
			recorded := pkts
			mu.Unlock()
			if _, keys, _ := src.Stats(); keys != 1 {
				t.Fatalf("the source sent %d key frames, want 1", keys)
			}

			// The receiver, fed a picture every 33 ms.
			rx := newReceiver(t, tc.mime, tc.pt)
			for i, p := range recorded {
				_, _ = rx.WriteRTP(&p.Header, p.Payload)
				if p.Marker && i+1 < len(recorded) {
					time.Sleep(33 * time.Millisecond)
				}
			}
			waitPicture(t, rx, func(f *Frame) error { return panesShow(1, palette[4:5])(f) })
		})
	}
}
