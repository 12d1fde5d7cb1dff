package sfu

import (
	"sync"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// Call quality (issue 41: per-participant packet loss and jitter, from
// the SFU's own statistics). What a participant sends is measured where
// its packets arrive (rxStats, RFC 3550 appendix A.1 and A.8); what it
// receives is what its own receiver reports say (RFC 3550 section 6.4.2:
// fraction lost and interarrival jitter of the stream this node sends
// it). Both are reported with the channel (channels.go).

// qualityEvery is the interval over which a sent stream's loss is
// measured.
const qualityEvery = time.Second

// rxStats measures one arriving RTP stream (a layer of a receiver): the
// interval's loss and the running interarrival jitter. Each stream has
// one writer (its read loop or a SIP leg's), the lock only orders it
// with the readers.
type rxStats struct {
	mu        sync.Mutex
	started   bool
	cycles    uint32 // sequence number wrap-arounds, << 16
	maxSeq    uint16
	baseSeq   uint16 // the first packet's
	received  uint64
	transit   float64 // the previous packet's relative transit, in RTP units
	jitter    float64 // RFC 3550 A.8, in RTP units
	lastAt    time.Time
	base      time.Time // arrival times count from the first packet
	prevExp   uint64    // expected and received at the interval's start
	prevRecv  uint64
	intervalT time.Time
	lossPct   float64 // the last complete interval's loss, percent
}

// observe counts a packet of sequence number seq and RTP timestamp ts
// that arrived at now, the stream's clock running at rate Hz.
func (s *rxStats) observe(seq uint16, ts uint32, now time.Time, rate uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		s.started, s.maxSeq, s.baseSeq, s.intervalT, s.base = true, seq, seq, now, now
	}
	if d := seq - s.maxSeq; d < 0x8000 { // in order (or the first)
		if seq < s.maxSeq {
			s.cycles += 1 << 16
		}
		s.maxSeq = seq
	}
	s.received++
	if rate > 0 {
		arrival := now.Sub(s.base).Seconds() * float64(rate)
		transit := arrival - float64(ts)
		if !s.lastAt.IsZero() {
			d := transit - s.transit
			if d < 0 {
				d = -d
			}
			s.jitter += (d - s.jitter) / 16
		}
		s.transit, s.lastAt = transit, now
	}
	if now.Sub(s.intervalT) >= qualityEvery {
		exp := uint64(s.cycles) + uint64(s.maxSeq) - uint64(s.baseSeq) + 1
		expI, recvI := exp-s.prevExp, s.received-s.prevRecv
		s.lossPct = 0
		if expI > 0 && expI > recvI {
			s.lossPct = float64(expI-recvI) * 100 / float64(expI)
		}
		s.prevExp, s.prevRecv = exp, s.received
		s.intervalT = now
	}
}

// quality is the stream's loss (percent) and jitter (milliseconds).
func (s *rxStats) quality(rate uint32) (lossPct, jitterMs float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rate > 0 {
		jitterMs = s.jitter * 1000 / float64(rate)
	}
	return s.lossPct, jitterMs
}

// arriving tells whether a packet of the stream arrived.
func (s *rxStats) arriving() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// rrStats is what a subscriber's receiver reports say of a stream this
// node sends it.
type rrStats struct {
	mu       sync.Mutex
	lossPct  float64
	jitterMs float64
	at       time.Time
}

// note reads a receiver report block of the stream (clock rate Hz).
func (s *rrStats) note(r rtcp.ReceptionReport, rate uint32, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lossPct = float64(r.FractionLost) * 100 / 256
	if rate > 0 {
		s.jitterMs = float64(r.Jitter) * 1000 / float64(rate)
	}
	s.at = now
}

// quality is the last report's loss and jitter; ok is false before the
// first report.
func (s *rrStats) quality() (lossPct, jitterMs float64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lossPct, s.jitterMs, !s.at.IsZero()
}

// arrived counts a packet of a local endpoint's stream (a SIP call's) as
// it arrives; r may be nil (a stream the endpoint does not send).
func (r *receiver) arrived(p *rtp.Packet) {
	if r != nil {
		r.rx[layerLow].observe(p.SequenceNumber, p.Timestamp, time.Now(), r.clockRate)
	}
}

// noteReports keeps the report block of the stream d sends, from a
// subscriber's RTCP.
func (d *downTrack) noteReports(reports []rtcp.ReceptionReport) {
	d.mu.Lock()
	ssrc, src := d.ssrc, d.src
	d.mu.Unlock()
	rate := uint32(90000)
	if d.kind == webrtc.RTPCodecTypeAudio {
		rate = 48000
	}
	if src != nil && src.clockRate > 0 {
		rate = src.clockRate
	}
	for _, r := range reports {
		if r.SSRC == ssrc {
			d.rr.note(r, rate, time.Now())
		}
	}
}
