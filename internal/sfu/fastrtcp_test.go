package sfu

import (
	"testing"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/srtp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// rtcpRun is a publisher and a subscriber with pion's default
// interceptors (receiver reports every second, TWCC feedback on the
// video, a NACK generator), the subscriber's session and its tracks.
type rtcpRun struct {
	rg           *testRig
	pub, sub     *client
	sess         *session
	audio, video *downTrack
	videoSSRC    uint32
}

func newRTCPRun(t *testing.T, mutate func(*Config)) *rtcpRun {
	rg := newRig(t, mutate)
	x := &rtcpRun{rg: rg}
	x.pub = rg.publish("c1", idA, false, "")
	x.pub.run(idA, &sendOpts{level: 127})
	x.sub = rg.subscribe("c1", "?mt_id="+x.pub.mtID, "sub")
	x.sub.flowing(t, "video/65", 50)
	x.sess = rg.sessionOf(x.sub)
	for _, d := range x.sess.downs {
		if d.kind == webrtc.RTPCodecTypeVideo {
			x.video = d
		} else {
			x.audio = d
		}
	}
	for _, tr := range x.sub.pc.GetTransceivers() {
		if tr.Kind() == webrtc.RTPCodecTypeVideo && tr.Receiver().Track() != nil {
			x.videoSSRC = uint32(tr.Receiver().Track().SSRC())
		}
	}
	return x
}

// counts are the session's fast RTCP counts (zero when not tracked).
func (x *rtcpRun) counts() rtcpCounts {
	c, _ := x.rg.sfu.tr.batch.rtcpReader().countsFor(x.sess)
	return c
}

// fast says whether the fast path is on in this run.
func (x *rtcpRun) fast() bool { return x.rg.sfu.tr.batch.rtcpReader() != nil }

// check runs what the SFU does with a subscriber's RTCP and checks that it
// still happens: receiver reports reach the down tracks' quality, TWCC
// feedback the bandwidth estimator (the video's layer choice hears of its
// target), a NACK is answered by a retransmission, a PLI reaches the
// publisher as a key frame request. With the fast path on, each went
// through it.
func (x *rtcpRun) check(t *testing.T) {
	t.Helper()
	fast := x.fast()
	if fast {
		waitFor(t, "the session's RTCP read on the port's reader", func() bool {
			c := x.counts()
			return c.RR > 0 && c.TWCC > 0
		})
	}
	// Receiver reports: both tracks' quality comes from the subscriber's.
	before := x.counts()
	for _, d := range []*downTrack{x.audio, x.video} {
		d.rr.mu.Lock()
		d.rr.at = time.Time{}
		d.rr.mu.Unlock()
	}
	waitFor(t, "receiver reports on both tracks", func() bool {
		_, _, a := x.audio.rr.quality()
		_, _, v := x.video.rr.quality()
		return a && v
	})
	// TWCC feedback: the estimator's target reaches the video track.
	x.video.mu.Lock()
	x.video.bwAt = time.Time{}
	x.video.mu.Unlock()
	waitFor(t, "the estimator's target from TWCC feedback", func() bool {
		x.video.mu.Lock()
		defer x.video.mu.Unlock()
		return !x.video.bwAt.IsZero()
	})
	// NACK: the packet arrives again (RFC 4585 section 6.2.1).
	x.sub.mu.Lock()
	seqs := x.sub.seqs["video"]
	lost := seqs[len(seqs)-10]
	x.sub.mu.Unlock()
	seen := func() int {
		x.sub.mu.Lock()
		defer x.sub.mu.Unlock()
		n := 0
		for _, s := range x.sub.seqs["video"] {
			if s == lost {
				n++
			}
		}
		return n
	}
	if err := x.sub.pc.WriteRTCP([]rtcp.Packet{&rtcp.TransportLayerNack{
		MediaSSRC: x.videoSSRC, Nacks: rtcp.NackPairsFromSequenceNumbers([]uint16{lost}),
	}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the NACKed packet again", func() bool { return seen() >= 2 })
	// PLI: the publisher is asked for a key frame (at most one every
	// 300 ms: asked again until one arrives).
	select {
	case <-x.pub.keyNow:
	default:
	}
	waitFor(t, "a key frame request at the publisher", func() bool {
		_ = x.sub.pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: x.videoSSRC}})
		select {
		case <-x.pub.keyNow:
			return true
		case <-time.After(50 * time.Millisecond):
			return false
		}
	})
	after := x.counts()
	if !fast {
		if after != (rtcpCounts{}) {
			t.Fatalf("fast path off, yet it counted %+v", after)
		}
		return
	}
	if after.RR <= before.RR || after.TWCC <= before.TWCC || after.NACK <= before.NACK || after.PLI <= before.PLI {
		t.Fatalf("not through the fast path: before %+v, after %+v", before, after)
	}
	if after.Dropped != 0 {
		t.Fatalf("%d datagrams failed to decrypt: %+v", after.Dropped, after)
	}
}

// A subscriber's receiver reports, TWCC feedback, NACKs and PLIs do on
// the port's reader what they did through pion (fastrtcp.go).
func TestFastRTCP(t *testing.T) {
	t.Parallel()
	x := newRTCPRun(t, nil)
	if !x.fast() {
		t.Skip("no batched UDP I/O on this system: every datagram goes to pion")
	}
	x.check(t)
}

// With Config.NoFastRTCP nothing is read on the port's reader, and the
// same still works through pion.
func TestFastRTCPOff(t *testing.T) {
	t.Parallel()
	x := newRTCPRun(t, func(c *Config) { c.NoFastRTCP = true })
	if x.fast() {
		t.Fatal("NoFastRTCP, yet a reader")
	}
	x.check(t)
}

// A subscriber that restarts ICE (new candidates, a new pair) is read on
// the port's reader at its new address, and everything still works.
func TestFastRTCPAfterICERestart(t *testing.T) {
	t.Parallel()
	x := newRTCPRun(t, nil)
	if !x.fast() {
		t.Skip("no batched UDP I/O on this system: every datagram goes to pion")
	}
	waitFor(t, "the session tracked", func() bool { return x.counts().RR > 0 })
	r := x.rg.sfu.tr.batch.rtcpReader()
	keyOf := func() rtcpKey {
		r.mu.RLock()
		defer r.mu.RUnlock()
		if s := r.bySess[x.sess]; s != nil {
			return s.key
		}
		return rtcpKey{}
	}
	old := keyOf()
	x.rg.restartClientICE(x.sub)
	x.sub.flowing(t, "video/65", 50)
	waitFor(t, "the new pair tracked", func() bool {
		k := keyOf()
		return k.remote.IsValid() && k != old
	})
	x.check(t)
}

// A subscriber's receiver report on its audio costs the port's reader no
// allocation: decryption into the session's buffer, the report blocks
// parsed into its own (the steady state's inbound packet at 500 audio
// subscribers, issue 43's budget).
func TestFastRTCPReportsAllocateNothing(t *testing.T) {
	key, salt := make([]byte, 16), make([]byte, 12)
	for i := range key {
		key[i] = byte(i)
	}
	enc, err := srtp.CreateContext(key, salt, srtp.ProtectionProfileAeadAes128Gcm)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := srtp.CreateContext(key, salt, srtp.ProtectionProfileAeadAes128Gcm) // no replay window: the same datagram again
	if err != nil {
		t.Fatal(err)
	}
	audio := &downTrack{kind: webrtc.RTPCodecTypeAudio, ssrc: 1111}
	video := &downTrack{kind: webrtc.RTPCodecTypeVideo, ssrc: 2222}
	s := &rtcpSession{sess: &session{downs: []*downTrack{audio, video}}, ctx: dec,
		plain: make([]byte, 0, udpbatch.MaxDatagram)}
	raw, err := (&rtcp.ReceiverReport{SSRC: 9, Reports: []rtcp.ReceptionReport{{SSRC: 1111, FractionLost: 64, Jitter: 480}}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	b, err := enc.EncryptRTCP(nil, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.handle(b)
	if loss, _, ok := audio.rr.quality(); !ok || loss != 25 {
		t.Fatalf("audio's report: loss %v, ok %v", loss, ok)
	}
	if _, _, ok := video.rr.quality(); ok {
		t.Fatal("the video took the audio's report")
	}
	if n := testing.AllocsPerRun(1000, func() { s.handle(b) }); n != 0 {
		t.Errorf("%v allocations a report", n)
	}
	if c := s.rr.Load(); c != 1002 { // AllocsPerRun's warm-up run besides
		t.Errorf("%d reports counted, want 1002", c)
	}
}
