package sip

import (
	"github.com/pion/rtp"
)

// dtmfReader turns RFC 4733 telephone-event packets into digits: an event
// counts once, at its first end packet (the end packet is sent three
// times with the same timestamp, RFC 4733 section 2.5.1.4).
type dtmfReader struct {
	lastTS   uint32
	seenLast bool
}

const dtmfDigits = "0123456789*#ABCD"

// read returns the digit an end packet completes.
func (r *dtmfReader) read(p *rtp.Packet) (byte, bool) {
	if len(p.Payload) < 4 {
		return 0, false
	}
	ev, end := p.Payload[0], p.Payload[1]&0x80 != 0
	if !end || int(ev) >= len(dtmfDigits) {
		return 0, false
	}
	if r.seenLast && r.lastTS == p.Timestamp {
		return 0, false // a retransmitted end packet
	}
	r.lastTS, r.seenLast = p.Timestamp, true
	return dtmfDigits[ev], true
}
