package rtc_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/testserver"
)

// flow is a publisher's media sent without a break, round after round,
// at speed times real time (the recording tests of issue 35: media keeps
// arriving while a recording pauses, resumes or loses a packet).
type flow struct {
	video atomic.Int64 // video packets sent
	drop  atomic.Bool  // leave out the next video packet that does not start a frame
	stop  chan struct{}
	done  chan struct{}
}

// stream sends p's media continuously until the test ends.
func (p *mediaPublisher) stream(t *testing.T) *flow {
	t.Helper()
	f := &flow{stop: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(func() { close(f.stop); <-f.done })
	go func() {
		defer close(f.done)
		for round := p.round; ; round++ {
			start := time.Now()
			for _, pk := range p.packets {
				if d := pk.At/speed - time.Since(start); d > 0 {
					select {
					case <-f.stop:
						return
					case <-time.After(d):
					}
				}
				tr, rate := p.audio, uint32(48000)
				if pk.Video {
					tr, rate = p.video, 90000
					// A packet in the middle of a frame: the frame cannot be
					// rebuilt, and the recorder waits for a key frame.
					if len(pk.Payload) > 0 && pk.Payload[0]&0x10 == 0 && f.drop.CompareAndSwap(true, false) {
						continue
					}
					f.video.Add(1)
				}
				pkt := *pk.Packet
				pkt.SequenceNumber += uint16(round * len(p.packets))
				pkt.Timestamp += uint32(round) * rate * 10
				if err := tr.WriteRTP(&pkt); err != nil {
					t.Errorf("publisher: %v", err)
					return
				}
			}
		}
	}()
	return f
}

// sent waits until n more video packets have been sent.
func (f *flow) sent(t *testing.T, n int64) {
	t.Helper()
	from := f.video.Load()
	waitFor(t, fmt.Sprintf("%d video packets sent", n), func() bool { return f.video.Load() >= from+n })
}

// written is the recording bytes the node wrote so far.
func written(t *testing.T, env *testserver.Env) int64 {
	t.Helper()
	n, _ := strconv.ParseInt(metric(t, env, "confer_recording_bytes_written_total"), 10, 64)
	return n
}

// growing waits until the recording has written more bytes than now.
func growing(t *testing.T, env *testserver.Env, what string) {
	t.Helper()
	from := written(t, env)
	waitFor(t, what, func() bool { return written(t, env) > from+10<<10 })
}

// TestRecordingResumeWhileMediaFlows reproduces item 1 of issue 35: a
// recording of a speaker whose VP8 never stops is paused and resumed
// three times. Before the lock discipline (docs/media.md) the resume
// asked the source for a key frame through the down track the SFU was
// writing through, and the conference's media froze: the file stopped
// growing and WHEP requests hung. Now the file grows after every resume,
// a WHEP viewer joins and receives, the stop returns, and ffprobe decodes
// the file.
func TestRecordingResumeWhileMediaFlows(t *testing.T) {
	t.Parallel()
	for _, n := range networks {
		t.Run(n.name, func(t *testing.T) { recordingResumeWhileMediaFlows(t, n) })
	}
}

func recordingResumeWhileMediaFlows(t *testing.T, n netPath) {
	recDir := t.TempDir()
	env, c, conf, pub := recordingConfVia(t, server.RecordingConfig{Dir: recDir}, n.relay(t))
	media := pub.stream(t)
	rec := startRecording(t, c, conf)
	growing(t, env, "the recording writing")
	state := func(v int) {
		testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/recorders/"+rec+"/state",
			testserver.Params(t, map[string]any{"value": v, "recorder_mode": 1})))
	}
	// Three resumes: each lands on a frame that is not a key frame unless
	// it meets one of the one-a-second key frames.
	for range 3 {
		state(1) // pause
		media.sent(t, 20)
		state(2) // resume, media flowing
		growing(t, env, "the recording writing after the resume")
	}
	tok := rtcToken(t, c, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	v, code := view(t, tok["whep_url"].(string), tok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the viewer's video", func() bool { return v.video.Load() > 10 })
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))
	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	if p := rectest.ProbeFile(t, files[0]); len(p.Video) == 0 {
		t.Errorf("no video in the file: %+v", p)
	}
}

// TestRecordingLostPacket reproduces the other path of item 1: one video
// packet the publisher never sends (a loss NACK cannot repair) made the
// recorder ask for a key frame from inside the SFU's write, through the
// lock that write held. The recording keeps growing, a viewer joins, the
// stop returns and the file decodes.
func TestRecordingLostPacket(t *testing.T) {
	t.Parallel()
	for _, n := range networks {
		t.Run(n.name, func(t *testing.T) { recordingLostPacket(t, n) })
	}
}

func recordingLostPacket(t *testing.T, n netPath) {
	recDir := t.TempDir()
	env, c, conf, pub := recordingConfVia(t, server.RecordingConfig{Dir: recDir}, n.relay(t))
	media := pub.stream(t)
	rec := startRecording(t, c, conf)
	growing(t, env, "the recording writing")
	media.drop.Store(true)
	waitFor(t, "the packet left out", func() bool { return !media.drop.Load() })
	// The recorder sees the loss once later packets push it out of its
	// reordering window (256 packets), then waits for a key frame.
	media.sent(t, 300)
	growing(t, env, "the recording writing after the loss")
	growing(t, env, "the recording writing after the loss")
	tok := rtcToken(t, c, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	v, code := view(t, tok["whep_url"].(string), tok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the viewer's video", func() bool { return v.video.Load() > 10 })
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))
	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	if p := rectest.ProbeFile(t, files[0]); len(p.Video) == 0 {
		t.Errorf("no video in the file: %+v", p)
	}
}
