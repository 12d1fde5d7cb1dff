package playout

import (
	"crypto/rand"
	"encoding/binary"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
)

// MTU is the largest RTP payload the packetizer makes, under the usual
// 1200-byte WebRTC budget once SRTP and the headers are added.
const MTU = 1100

// packetizer turns a track's frames into RTP packets: one SSRC, a random
// first sequence number and timestamp base, the timestamp following the
// frame's media time (so a seek moves it), the marker on a frame's last
// packet.
type packetizer struct {
	track  *Track
	pt     uint8
	ssrc   uint32
	seq    uint16
	base   uint32
	pay    rtp.Payloader
	sps    [][]byte // H.264 parameter sets from the avcC record
	nalLen int      // H.264 NAL length size of the file (avcC)
}

func random32() uint32 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return binary.BigEndian.Uint32(b[:])
}

func newPacketizer(t *Track, pt uint8) *packetizer {
	p := &packetizer{track: t, pt: pt, ssrc: random32(), seq: uint16(random32()), base: random32()}
	switch t.Mime {
	case MimeVP8:
		p.pay = &codecs.VP8Payloader{EnablePictureID: true}
	case MimeVP9:
		p.pay = &codecs.VP9Payloader{}
	case MimeH264:
		p.pay = &codecs.H264Payloader{}
		p.sps, p.nalLen = parseAVCC(t.CodecPrivate)
	default:
		p.pay = &codecs.OpusPayloader{}
	}
	return p
}

// timestamp is the RTP timestamp of a media time.
func (p *packetizer) timestamp(t time.Duration) uint32 {
	return p.base + uint32(uint64(t)*uint64(p.track.ClockRate)/uint64(time.Second))
}

// packets packetizes one frame.
func (p *packetizer) packets(f Frame) []*rtp.Packet {
	data := f.Data
	if p.track.Mime == MimeH264 {
		data = p.annexB(f)
	}
	payloads := p.pay.Payload(MTU, data)
	out := make([]*rtp.Packet, 0, len(payloads))
	ts := p.timestamp(f.Time)
	for i, pl := range payloads {
		out = append(out, &rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: p.pt, SequenceNumber: p.seq,
			Timestamp: ts, SSRC: p.ssrc, Marker: i == len(payloads)-1}, Payload: pl})
		p.seq++
	}
	return out
}

// annexB rewrites a Matroska H.264 frame (length-prefixed NAL units) as an
// Annex B stream, the parameter sets first on a key frame.
func (p *packetizer) annexB(f Frame) []byte {
	start := []byte{0, 0, 0, 1}
	var out []byte
	if f.Key {
		for _, ps := range p.sps {
			out = append(append(out, start...), ps...)
		}
	}
	if p.nalLen == 0 { // no avcC: the frame is Annex B already
		return append(out, f.Data...)
	}
	d := f.Data
	for len(d) >= p.nalLen {
		n := 0
		for _, b := range d[:p.nalLen] {
			n = n<<8 | int(b)
		}
		d = d[p.nalLen:]
		if n > len(d) {
			break
		}
		out = append(append(out, start...), d[:n]...)
		d = d[n:]
	}
	return out
}

// parseAVCC reads the parameter sets and NAL length size of an
// AVCDecoderConfigurationRecord (ISO/IEC 14496-15 section 5.2.4.1).
func parseAVCC(b []byte) (sets [][]byte, nalLen int) {
	if len(b) < 7 || b[0] != 1 {
		return nil, 0
	}
	nalLen = int(b[4]&0x03) + 1
	i := 5
	for _, count := range []func() int{
		func() int { c := int(b[i] & 0x1f); i++; return c }, // SPS
		func() int { c := int(b[i]); i++; return c },        // PPS
	} {
		if i >= len(b) {
			return sets, nalLen
		}
		for n := count(); n > 0; n-- {
			if i+2 > len(b) {
				return sets, nalLen
			}
			l := int(binary.BigEndian.Uint16(b[i:]))
			i += 2
			if i+l > len(b) {
				return sets, nalLen
			}
			sets = append(sets, b[i:i+l])
			i += l
		}
	}
	return sets, nalLen
}
