package sfu

import (
	"strings"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// recWriter records what a down track writes (pion's TrackLocalWriter);
// discard only counts.
type recWriter struct {
	hdrs    []rtp.Header
	discard bool
	n       int
}

func (w *recWriter) WriteRTP(h *rtp.Header, p []byte) (int, error) {
	w.n++
	if !w.discard {
		w.hdrs = append(w.hdrs, h.Clone())
	}
	return len(p), nil
}
func (w *recWriter) Write(b []byte) (int, error) { return len(b), nil }

func boundTrack(kind webrtc.RTPCodecType, mime string) (*downTrack, *recWriter) {
	w := &recWriter{}
	d := &downTrack{kind: kind, mime: mime, maxLayer: layerHigh, bwLayer: layerHigh, needSync: true,
		bound: true, ssrc: 1234, pt: 100, levelID: 7, ws: w, pts: map[string]uint8{strings.ToLower(mime): 100}}
	return d, w
}

func testReceiver(kind webrtc.RTPCodecType, mime string, levelID uint8) *receiver {
	r := &receiver{kind: kind, mime: mime, lmime: strings.ToLower(mime), clockRate: 48000, levelID: levelID}
	r.has[0] = true
	r.seen[0].Store(time.Now().UnixNano())
	r.downs.Store(&[]*downTrack{})
	return r
}

func pkt(seq uint16, ts uint32, payload ...byte) *rtp.Packet {
	return &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: ts, SSRC: 99, PayloadType: 111}, Payload: payload}
}

// Two sources switched onto one track give one continuous numbering with
// the subscriber's SSRC, payload type and extension id.
func TestDownTrackRewritesAcrossSources(t *testing.T) {
	t.Parallel()
	d, w := boundTrack(webrtc.RTPCodecTypeAudio, webrtc.MimeTypeOpus)
	a := testReceiver(webrtc.RTPCodecTypeAudio, webrtc.MimeTypeOpus, 3)
	b := testReceiver(webrtc.RTPCodecTypeAudio, webrtc.MimeTypeOpus, 5)
	d.src = a
	for i := range uint16(5) {
		p := pkt(1000+i, 5000+uint32(i)*960, 1)
		_ = p.SetExtension(3, []byte{0x1e})
		d.writeRTP(p, 0, a, time.Now())
	}
	d.writeRTP(pkt(60000, 9, 2), 0, b, time.Now()) // not the source: dropped
	d.src, d.needSync = b, true
	d.writeRTP(pkt(1003, 1, 1), 0, a, time.Now()) // old source after the switch: dropped
	for i := range uint16(5) {
		p := pkt(60000+i, 777+uint32(i)*960, 2)
		_ = p.SetExtension(5, []byte{0x40})
		d.writeRTP(p, 0, b, time.Now())
	}
	d.writeRTP(pkt(59999, 1, 2), 0, b, time.Now()) // older than the switch point: dropped
	if len(w.hdrs) != 10 {
		t.Fatalf("wrote %d packets, want 10", len(w.hdrs))
	}
	for i, h := range w.hdrs {
		if h.SSRC != 1234 || h.PayloadType != 100 {
			t.Errorf("packet %d: SSRC %d PT %d, want 1234 100", i, h.SSRC, h.PayloadType)
		}
		if i > 0 && h.SequenceNumber != w.hdrs[i-1].SequenceNumber+1 {
			t.Errorf("packet %d: sequence %d after %d", i, h.SequenceNumber, w.hdrs[i-1].SequenceNumber)
		}
		if i > 0 && int32(h.Timestamp-w.hdrs[i-1].Timestamp) <= 0 {
			t.Errorf("packet %d: timestamp %d not after %d", i, h.Timestamp, w.hdrs[i-1].Timestamp)
		}
		if ext := h.GetExtension(7); len(ext) != 1 {
			t.Errorf("packet %d: audio level not under the subscriber's id 7", i)
		}
		if h.GetExtension(3) != nil || h.GetExtension(5) != nil {
			t.Errorf("packet %d: publisher's extension ids leaked", i)
		}
	}
}

// Padding-only packets are not forwarded and leave no gap; a video switch
// waits for a key frame.
func TestDownTrackPaddingAndKeyFrames(t *testing.T) {
	t.Parallel()
	d, w := boundTrack(webrtc.RTPCodecTypeVideo, webrtc.MimeTypeVP8)
	r := testReceiver(webrtc.RTPCodecTypeVideo, webrtc.MimeTypeVP8, 0)
	d.src = r
	d.writeRTP(pkt(10, 0, vp8(1, 0, false)...), 0, r, time.Now()) // delta before any key frame
	if len(w.hdrs) != 0 {
		t.Fatalf("forwarded a delta frame before a key frame")
	}
	d.writeRTP(pkt(11, 0, vp8(1, 0, true)...), 0, r, time.Now())
	d.writeRTP(pkt(12, 3000), 0, r, time.Now()) // padding only
	d.writeRTP(pkt(13, 3000, vp8(1, 0, false)...), 0, r, time.Now())
	if len(w.hdrs) != 2 || w.hdrs[1].SequenceNumber != w.hdrs[0].SequenceNumber+1 {
		t.Fatalf("after padding: %d packets, sequences %v", len(w.hdrs), w.hdrs)
	}
}

// BenchmarkDownTrackWrite is the per-subscriber cost of forwarding one
// packet, rewriting included (SRTP and the socket excluded).
func BenchmarkDownTrackWrite(b *testing.B) {
	d, w := boundTrack(webrtc.RTPCodecTypeAudio, webrtc.MimeTypeOpus)
	r := testReceiver(webrtc.RTPCodecTypeAudio, webrtc.MimeTypeOpus, 3)
	d.src = r
	w.discard = true
	p := pkt(0, 0, make([]byte, 80)...)
	_ = p.SetExtension(3, []byte{0x1e})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.SequenceNumber++
		p.Timestamp += 960
		d.writeRTP(p, 0, r, time.Now())
	}
	if w.n != b.N {
		b.Fatalf("wrote %d packets of %d", w.n, b.N)
	}
}

// A subscriber stepped down to the lowest layer gets a higher one tried
// again once its estimate stays above what it receives (GCC alone never
// estimates more than 1.5 times that); a trial the congestion rule ends
// doubles the wait before the next one (issue 35).
func TestBandwidthTrialOfAHigherLayer(t *testing.T) {
	t.Parallel()
	d, _ := boundTrack(webrtc.RTPCodecTypeVideo, webrtc.MimeTypeVP8)
	rate := func(bps int) { // what the track sent over the last second
		d.mu.Lock()
		d.bwAt, d.bwBytes = time.Now().Add(-time.Second), d.bytes.Load()
		d.mu.Unlock()
		d.bytes.Add(uint64(bps / 8))
	}
	state := func() (int, time.Duration) {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.bwLayer, d.bwBackoff
	}
	d.curLayer = layerHigh
	rate(1_500_000)
	d.setBandwidth(200_000) // congestion: one layer down
	if l, _ := state(); l != layerMid {
		t.Fatalf("layer %d after congestion, want %d", l, layerMid)
	}
	d.curLayer = layerMid
	rate(500_000)
	d.setBandwidth(200_000)
	d.curLayer = layerLow
	if l, _ := state(); l != layerLow {
		t.Fatalf("layer %d after more congestion, want %d", l, layerLow)
	}

	// The estimate recovers to 1.5 times the low layer: no trial before
	// bwTrialAfter, one after.
	rate(150_000)
	d.setBandwidth(225_000)
	if l, _ := state(); l != layerLow {
		t.Fatalf("layer %d right after the step down, want %d", l, layerLow)
	}
	d.mu.Lock()
	d.bwDownAt = time.Now().Add(-bwTrialAfter)
	d.mu.Unlock()
	rate(150_000)
	d.setBandwidth(225_000)
	if l, _ := state(); l != layerMid {
		t.Fatalf("layer %d once the estimate held, want a trial of %d", l, layerMid)
	}

	// Within the grace a low estimate does not end the trial; after it,
	// congestion does, and the next trial waits twice as long.
	d.curLayer = layerMid
	rate(500_000)
	d.setBandwidth(250_000)
	if l, _ := state(); l != layerMid {
		t.Fatalf("layer %d within the trial's grace, want %d", l, layerMid)
	}
	d.mu.Lock()
	d.bwTrialAt = time.Now().Add(-bwTrialGrace)
	d.mu.Unlock()
	rate(500_000)
	d.setBandwidth(250_000)
	if l, b := state(); l != layerLow || b != 2*bwTrialAfter {
		t.Fatalf("after a failed trial: layer %d, next trial in %s; want %d and %s", l, b, layerLow, 2*bwTrialAfter)
	}
}
