package sfu

import (
	"time"

	"github.com/pion/rtcp"
)

// reportInterval is how often each subscriber connection gets the sender
// reports of its down tracks (pion's report interceptor's default).
const reportInterval = time.Second

// reportLoop sends the sender reports (RFC 3550 section 6.4.1) of every
// subscriber connection's down tracks, once a reportInterval, from one
// goroutine for the whole node (docs/sfu-internals.md "Sender reports").
// pion's report interceptor did this per connection: a ticker goroutine
// each, and a lock and a clock read on every packet written, which the
// down track already takes and keeps (issue 43).
func (s *SFU) reportLoop() {
	t := time.NewTicker(reportInterval)
	defer t.Stop()
	for {
		select {
		case <-s.quit:
			return
		case now := <-t.C:
			s.sendReports(now)
		}
	}
}

// sendReports writes one compound RTCP packet of sender reports to each
// connection that has sent media.
func (s *SFU) sendReports(now time.Time) {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions))
	for _, x := range s.sessions {
		if x.pc != nil && len(x.downs) > 0 {
			all = append(all, x)
		}
	}
	s.mu.Unlock()
	var pkts []rtcp.Packet
	for _, x := range all {
		pkts = pkts[:0]
		for _, d := range x.downs {
			if sr := d.senderReport(now); sr != nil {
				pkts = append(pkts, sr)
			}
		}
		if len(pkts) > 0 {
			_ = x.pc.WriteRTCP(pkts)
		}
	}
}

// senderReport is the track's sender report at now; nil until it has sent
// a packet (RFC 3550 section 6.4: a source that has sent nothing sends no
// SR). The RTP time is the last packet's, advanced by the wall time since
// it was written, as pion's report interceptor computes it.
func (d *downTrack) senderReport(now time.Time) *rtcp.SenderReport {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.bound || !d.started || d.clockRate == 0 {
		return nil
	}
	return &rtcp.SenderReport{
		SSRC:        d.ssrc,
		NTPTime:     ntpTime(now),
		RTPTime:     d.lastTS + uint32(now.Sub(d.lastWrite).Seconds()*float64(d.clockRate)),
		PacketCount: uint32(d.packets.Load()),
		OctetCount:  uint32(d.octets.Load()),
	}
}

// ntpTime is t in NTP's 64-bit fixed point format (RFC 5905 section 6):
// seconds since 1900 in the upper half, the fraction in the lower.
func ntpTime(t time.Time) uint64 {
	const unixToNTP = 2208988800 // seconds from 1900 to 1970
	ns := uint64(t.UnixNano())
	sec := ns/1e9 + unixToNTP
	frac := (ns % 1e9) << 32 / 1e9
	return sec<<32 | frac
}
