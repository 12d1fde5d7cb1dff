package sip

import (
	"encoding/binary"
	"strings"

	"github.com/pion/rtcp"
	"github.com/pion/sdp/v3"
)

// Bandwidth a terminal takes on its main video (docs/sip-media.md "Bandwidth"):
// b=TIAS (RFC 3890, bits a second) or b=AS (RFC 4566, kilobits a second)
// of the m-line, else of the session, and TMMBR (RFC 5104 section
// 4.2.1) while the call runs. The least of them caps what Confer sends:
// the SFU forwards the simulcast layer that fits (sfu.Local.CapVideo);
// a source of one layer is forwarded as it is (no transcoding).

// videoCapper is an endpoint whose received video can be capped
// (sfu.Local.CapVideo).
type videoCapper interface{ CapVideo(bps int) }

// bandwidthOf is an m-line's limit in bits a second, 0 for none: its
// TIAS, else its AS, else the session's.
func bandwidthOf(sd *sdp.SessionDescription, md *sdp.MediaDescription) int {
	if bps := bandwidthIn(md.Bandwidth); bps > 0 {
		return bps
	}
	return bandwidthIn(sd.Bandwidth)
}

func bandwidthIn(bs []sdp.Bandwidth) int {
	var tias, as int
	for _, b := range bs {
		switch strings.ToUpper(b.Type) {
		case "TIAS":
			tias = int(min(b.Bandwidth, 1<<40))
		case "AS":
			as = int(min(b.Bandwidth, 1<<30)) * 1000
		}
	}
	if tias > 0 {
		return tias
	}
	return as
}

// tmmbr is one request of a TMMBR (or an entry of a TMMBN).
type tmmbr struct {
	ssrc     uint32 // the request's sender
	bps      int
	overhead uint16
	raw      uint32 // exponent, mantissa and overhead as sent
}

// tmmbrs reads the TMMBR requests of a compound RTCP packet (transport
// layer feedback, PT 205, FMT 3); rtcp.Unmarshal does not know them.
func tmmbrs(b []byte) []tmmbr {
	var out []tmmbr
	for len(b) >= 4 {
		n := (int(binary.BigEndian.Uint16(b[2:4])) + 1) * 4
		if n > len(b) {
			break
		}
		p := b[:n]
		b = b[n:]
		if p[1] != byte(rtcp.TypeTransportSpecificFeedback) || p[0]&0x1f != 3 || len(p) < 12 {
			continue
		}
		sender := binary.BigEndian.Uint32(p[4:8])
		for fci := p[12:]; len(fci) >= 8; fci = fci[8:] {
			v := binary.BigEndian.Uint32(fci[4:8])
			exp, mantissa := v>>26, (v>>9)&0x1ffff
			bps := uint64(mantissa) << exp
			out = append(out, tmmbr{ssrc: sender, bps: int(min(bps, 1<<40)), overhead: uint16(v & 0x1ff), raw: v})
		}
	}
	return out
}

// tmmbn is the notification that answers a request (RFC 5104 section
// 4.2.2): the bounding set, here the one request Confer applies.
func tmmbn(sender uint32, r tmmbr) rtcp.Packet {
	p := make([]byte, 20)
	p[0], p[1] = 0x80|4, byte(rtcp.TypeTransportSpecificFeedback)
	binary.BigEndian.PutUint16(p[2:4], uint16(len(p)/4-1))
	binary.BigEndian.PutUint32(p[4:8], sender)
	// media source SSRC 0 (section 4.2.2.1)
	binary.BigEndian.PutUint32(p[12:16], r.ssrc)
	binary.BigEndian.PutUint32(p[16:20], r.raw)
	raw := rtcp.RawPacket(p)
	return &raw
}

// capVideo applies the least of the SDP's and the last TMMBR's limits
// to the call's endpoint.
func (c *call) capVideo() {
	c.mu.Lock()
	ep, sdpCap := c.ep, c.media.VideoBitrate
	c.mu.Unlock()
	vc, ok := ep.(videoCapper)
	if !ok || c.leg == nil {
		return
	}
	bps := sdpCap
	if t := int(c.leg.tmmbr.Load()); t > 0 && (bps == 0 || t < bps) {
		bps = t
	}
	vc.CapVideo(bps)
}
