package sip

import (
	"github.com/pion/rtp"
)

// dtmfReader turns RFC 4733 telephone-event packets into digits: an event
// counts once, at its first end packet. The end packet is sent three
// times (RFC 4733 section 2.5.1.4); a new event is one after packets
// without the end bit, or one with another timestamp or event code.
type dtmfReader struct {
	armed  bool
	lastTS uint32
	lastEv byte
	seen   bool
}

const dtmfDigits = "0123456789*#ABCD"

// read returns the digit an end packet completes.
func (r *dtmfReader) read(p *rtp.Packet) (byte, bool) {
	if len(p.Payload) < 4 {
		return 0, false
	}
	ev, end := p.Payload[0], p.Payload[1]&0x80 != 0
	if int(ev) >= len(dtmfDigits) {
		return 0, false
	}
	if !end {
		r.armed = true
		return 0, false
	}
	if !r.armed && r.seen && r.lastTS == p.Timestamp && r.lastEv == ev {
		return 0, false // a retransmitted end packet
	}
	r.armed, r.seen, r.lastTS, r.lastEv = false, true, p.Timestamp, ev
	return dtmfDigits[ev], true
}
