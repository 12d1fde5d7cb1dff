package sfu

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// sink is a local endpoint's writer: it counts packets by publisher id
// (the payload marks of client.run) and checks the rewritten stream.
type sink struct {
	mu      sync.Mutex
	recv    map[string]int
	ssrcs   map[uint32]bool
	pts     map[uint8]bool
	lastSeq uint16
	gaps    int
	n       int
}

func newSink() *sink {
	return &sink{recv: map[string]int{}, ssrcs: map[uint32]bool{}, pts: map[uint8]bool{}}
}

func (s *sink) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := "?"
	if len(payload) >= 7 && payload[2] == 0x9d {
		key = fmt.Sprintf("video/%d", payload[5])
	} else if len(payload) > 0 {
		key = fmt.Sprintf("audio/%d", payload[0])
	}
	s.recv[key]++
	s.ssrcs[h.SSRC] = true
	s.pts[h.PayloadType] = true
	if s.n > 0 && h.SequenceNumber != s.lastSeq+1 {
		s.gaps++
	}
	s.lastSeq = h.SequenceNumber
	s.n++
	return len(payload), nil
}

func (s *sink) count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recv[key]
}

func (s *sink) grows(t *testing.T, key string, n int) {
	t.Helper()
	start := s.count(key)
	waitFor(t, fmt.Sprintf("%d more packets of %s at the local endpoint", n, key), func() bool { return s.count(key) >= start+n })
}

var (
	opusLocal = LocalCodec{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, PayloadType: 111}
	vp8Local  = LocalCodec{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: 96}
)

// A tap (a recorder) receives a WHIP publisher's stream rewritten onto one
// SSRC with its own payload types; mute acts on it; it is no participant.
func TestLocalTapReceivesTerminal(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	a.run(idA, &sendOpts{level: 30})
	audio, video := newSink(), newSink()
	tap, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Receive: SourceTerminal, Terminal: a.mtID,
		AudioOut: audio, VideoOut: video, AudioCodecs: []LocalCodec{{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, PayloadType: 100}},
		VideoCodecs: []LocalCodec{{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: 101}}})
	if err != nil {
		t.Fatal(err)
	}
	audio.grows(t, "audio/65", 50)
	video.grows(t, "video/65", 50)
	if tap.MtID() != "" || len(rg.sfu.Participants("c1")) != 1 {
		t.Fatalf("a tap is no participant: mt %q, participants %v", tap.MtID(), rg.sfu.Participants("c1"))
	}
	audio.mu.Lock()
	if len(audio.ssrcs) != 1 || !audio.pts[100] || len(audio.pts) != 1 || audio.gaps > 2 {
		t.Errorf("audio at the tap: ssrcs %v pts %v gaps %d, want one SSRC, pt 100, continuous", audio.ssrcs, audio.pts, audio.gaps)
	}
	audio.mu.Unlock()

	if err := rg.sfu.SetMute("c1", a.mtID, true); err != nil {
		t.Fatal(err)
	}
	video.grows(t, "video/65", 50)
	before := audio.count("audio/65")
	video.grows(t, "video/65", 100)
	if after := audio.count("audio/65"); after != before {
		t.Fatalf("muted audio still reaches the tap: %d -> %d", before, after)
	}
	tap.Close()
	select {
	case <-tap.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done not closed after Close")
	}
	if _, left, _ := rg.ev.snapshot(); len(left) != 0 {
		t.Fatalf("closing a tap reported Left: %v", left)
	}
}

// A local publisher (a playback) is a participant: Joined registers it, a
// WHEP subscriber receives it and asks it for key frames, the engine's
// hang-up ends it without Left.
func TestLocalPublisherReachesWHEP(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	keys := make(chan struct{}, 1)
	l, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, Name: "movie.webm", Kind: KindPlayback,
		PublishAudio: &opusLocal, PublishVideo: &vp8Local,
		OnKeyFrameRequest: func() {
			select {
			case keys <- struct{}{}:
			default:
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if l.MtID() != "1" {
		t.Fatalf("MtID() = %q, want 1 from Joined", l.MtID())
	}
	const id = 76
	go func() {
		var seq uint16
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-l.Done():
				return
			case <-tk.C:
			}
			seq++
			key := i%100 == 0
			select {
			case <-keys:
				key = true
			default:
			}
			l.WriteAudio(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(i) * 240}, Payload: []byte{id, 0xfc, 0xff}})
			l.WriteVideo(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(i) * 450, Marker: true}, Payload: vp8(id, 0, key)})
		}
	}()
	sub := rg.subscribe("c1", "?mt_id="+l.MtID(), "sub")
	sub.flowing(t, "audio/76", 50)
	sub.flowing(t, "video/76", 50)
	bc := rg.subscribe("c1", "", "sub") // the broadcast: the only publisher
	bc.flowing(t, "video/76", 50)
	st, _ := rg.sfu.room("c1", false).state()
	if len(st.Participants) != 3 || st.Participants[0].Kind != KindPlayback || !st.Participants[0].Video {
		t.Fatalf("participants %+v, want the playback first with video", st.Participants)
	}
	if err := rg.sfu.Hangup("c1", l.MtID()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-l.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done not closed after Hangup")
	}
	if _, left, _ := rg.ev.snapshot(); len(left) != 0 {
		t.Fatalf("the engine's hang-up reported Left: %v", left)
	}
}

// A member the engine placed (a SIP call) keeps its mt_id; it receives the
// broadcast without its own audio, silence stops it, and leaving on its own
// is reported.
func TestLocalMemberPlacedByEngine(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	a.run(idA, &sendOpts{level: 30})
	audio, video := newSink(), newSink()
	l, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, MtID: "77", Name: "phone", Kind: KindSIP,
		PublishAudio: &opusLocal, Receive: SourceBroadcast, AudioOut: audio, VideoOut: video,
		AudioCodecs: []LocalCodec{opusLocal}, VideoCodecs: []LocalCodec{vp8Local}})
	if err != nil {
		t.Fatal(err)
	}
	if joined, _, _ := rg.ev.snapshot(); joined != 1 || l.MtID() != "77" {
		t.Fatalf("joined %d (only the WHIP publisher), mt %q", joined, l.MtID())
	}
	audio.grows(t, "audio/65", 50)
	video.grows(t, "video/65", 50)
	// The phone speaks: the WHIP publisher's broadcast subscriber hears it
	// once the engine makes it the speaker.
	go func() {
		for i := 0; ; i++ {
			select {
			case <-l.Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
			l.WriteAudio(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(i), Timestamp: uint32(i) * 240}, Payload: []byte{77, 0xfc}})
			l.SetAudioLevel(20)
		}
	}()
	_ = rg.sfu.SetBroadcast("c1", Broadcast{Speaker: "77"})
	bc := rg.subscribe("c1", "", "sub")
	bc.flowing(t, "audio/77", 50)
	waitFor(t, "the phone's audio level reported", func() bool { _, _, lv := rg.ev.snapshot(); return lv["77"] == 20 })
	_ = rg.sfu.SetBroadcast("c1", Broadcast{Speaker: a.mtID})

	_ = rg.sfu.SetSilence("c1", "77", true)
	a2 := rg.subscribe("c1", "?mt_id="+a.mtID, "sub")
	a2.flowing(t, "audio/65", 50)
	before := audio.count("audio/65")
	a2.flowing(t, "audio/65", 100)
	if after := audio.count("audio/65"); after != before {
		t.Fatalf("a silenced member still hears: %d -> %d", before, after)
	}
	l.Leave(false)
	<-l.Done()
	if _, left, _ := rg.ev.snapshot(); len(left) != 1 || left[0] != (leftEvent{"77", false}) {
		t.Fatalf("Left events %v, want 77 not lost", left)
	}
	if n := len(rg.sfu.Participants("c1")); n != 3 {
		t.Fatalf("%d participants after the phone left, want the publisher and two subscribers", n)
	}
}

// A conference at its limit refuses a local participant and keeps nothing.
func TestLocalRefusedWhenFull(t *testing.T) {
	t.Parallel()
	rg := newRig(t, func(c *Config) {
		c.ConferenceLimit = func(conf string) int { return map[string]int{"small": 1}[conf] }
	})
	rg.publish("small", idA, false, "")
	sessions := rg.sfu.Sessions()
	_, err := rg.sfu.OpenLocal(context.Background(), "small", LocalOptions{Member: true, Name: "x", PublishAudio: &opusLocal})
	if code, _ := statusOf(err); code != 409 {
		t.Fatalf("OpenLocal in a full conference: %v (status %d), want 409", err, code)
	}
	if rg.sfu.Sessions() != sessions || rg.sfu.count.Load() != int64(sessions) {
		t.Fatalf("a refused local endpoint left a session behind: %d sessions, count %d", rg.sfu.Sessions(), rg.sfu.count.Load())
	}
}

// A conference that holds a SIP terminal accepting only PCMU and H.264
// answers a new publisher with PCMU and H.264 first (the offerer sends the
// first codec of the answer, RFC 3264 section 6.1), then Opus and VP8;
// without such a terminal, Opus and VP8 stay first.
func TestPublisherPrefersTheSIPTerminalsCodec(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	// firstPTs publishes audio and video and returns the answer's first
	// payload type of each.
	firstPTs := func() (audio, video string) {
		pc, err := clientAPI(t).NewPeerConnection(webrtc.Configuration{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = pc.Close() })
		for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
			if _, err := pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
				t.Fatal(err)
			}
		}
		offer, err := pc.CreateOffer(nil)
		if err != nil {
			t.Fatal(err)
		}
		gathered := webrtc.GatheringCompletePromise(pc)
		if err := pc.SetLocalDescription(offer); err != nil {
			t.Fatal(err)
		}
		<-gathered
		code, _, answer := rg.post("/rtc/whip/c1", "pub", pc.LocalDescription().SDP)
		if code != 201 {
			t.Fatalf("WHIP POST = %d %s", code, answer)
		}
		for _, l := range strings.Split(answer, "\n") {
			if f := strings.Fields(l); len(f) > 3 && f[0] == "m=audio" {
				audio = f[3]
			} else if len(f) > 3 && f[0] == "m=video" {
				video = f[3]
			}
		}
		if audio == "" || video == "" {
			t.Fatalf("no audio or video in the answer:\n%s", answer)
		}
		// The codec's name: the payload types are the offer's.
		for _, l := range strings.Split(answer, "\n") {
			if name, ok := strings.CutPrefix(strings.TrimSpace(l), "a=rtpmap:"+video+" "); ok {
				video = strings.Split(name, "/")[0]
			}
		}
		return audio, video
	}
	if a, v := firstPTs(); a != "111" || v != "VP8" {
		t.Fatalf("without SIP terminals the answer's first codecs are %s and %s, want Opus (111) and VP8", a, v)
	}
	pcmu := LocalCodec{MimeType: webrtc.MimeTypePCMU, ClockRate: 8000, Channels: 1, PayloadType: 0}
	h264 := LocalCodec{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 96}
	if _, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, MtID: "90", Name: "phone", Kind: KindSIP,
		PublishAudio: &pcmu, Receive: SourceBroadcast, AudioOut: newSink(), AudioCodecs: []LocalCodec{pcmu},
		VideoOut: newSink(), VideoCodecs: []LocalCodec{h264}}); err != nil {
		t.Fatal(err)
	}
	if a, v := firstPTs(); a != "0" || v != "H264" {
		t.Fatalf("with a PCMU and H.264 terminal the answer's first codecs are %s and %s, want PCMU (0) and H.264", a, v)
	}
}
