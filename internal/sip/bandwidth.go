package sip

import (
	"encoding/binary"
	"strconv"
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

// tmmbrOffered reports a=rtcp-fb:PT ccm tmmbr (or *) on md.
func tmmbrOffered(md *sdp.MediaDescription, pt uint8) bool {
	for _, a := range md.Attributes {
		if a.Key != "rtcp-fb" {
			continue
		}
		f := strings.Fields(strings.ToLower(a.Value))
		if len(f) >= 3 && (f[0] == "*" || f[0] == strconv.Itoa(int(pt))) && f[1] == "ccm" && f[2] == "tmmbr" {
			return true
		}
	}
	return false
}

// liftBps is what a TMMBR asks once no receiver caps the terminal's
// video any more: TMMBR has no way to withdraw a request (RFC 5104
// section 4.2.1), and the terminal's own limits stay the bound.
const liftBps = 100_000_000

// tmmbrOverhead is the per-packet overhead a request counts (RFC 5104
// section 4.2.1.2): IPv4, UDP and the RTP header.
const tmmbrOverhead = 20 + 8 + 12

// newTMMBR is a TMMBR (RFC 5104 section 4.2.1.1) from sender asking
// media for bps: a mantissa of 17 bits and its exponent.
func newTMMBR(sender, media uint32, bps int) rtcp.Packet {
	exp, mantissa := uint32(0), uint64(max(bps, 0))
	for mantissa >= 1<<17 {
		mantissa >>= 1
		exp++
	}
	p := make([]byte, 20)
	p[0], p[1] = 0x80|3, byte(rtcp.TypeTransportSpecificFeedback)
	binary.BigEndian.PutUint16(p[2:4], uint16(len(p)/4-1))
	binary.BigEndian.PutUint32(p[4:8], sender)
	// media source SSRC 0 (section 4.2.1.1)
	binary.BigEndian.PutUint32(p[12:16], media)
	binary.BigEndian.PutUint32(p[16:20], exp<<26|uint32(mantissa)<<9|tmmbrOverhead)
	raw := rtcp.RawPacket(p)
	return &raw
}

// requestBitrate asks the terminal's video for the least cap of its
// receivers in the conference (sfu.LocalOptions.OnBitrateRequest): a
// TMMBR when the terminal takes them (bps 0: the cap ended).
func (c *call) requestBitrate(bps int) {
	c.mu.Lock()
	ok := c.media.VideoTMMBR
	c.mu.Unlock()
	if ok && c.leg != nil && c.leg.video != nil {
		if bps <= 0 {
			bps = liftBps
		}
		c.leg.video.sendRTCP(newTMMBR(c.leg.video.ssrc, c.leg.videoSSRC.Load(), bps))
	}
}
