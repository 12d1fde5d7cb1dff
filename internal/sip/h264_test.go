package sip_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
)

// h264Stream is a synthetic H.264 elementary stream (RFC 6184 NAL units,
// not decodable pictures): every keyEvery-th frame is SPS, PPS and an IDR
// slice, the others a P slice. No payload byte is 0, so no start code is
// emulated inside a NAL unit.
type h264Stream struct {
	sps, pps, idr []byte
	p             [][]byte
	keyEvery      int
}

func newH264Stream(keyEvery int) *h264Stream {
	r := rand.New(rand.NewPCG(26, 4796))
	fill := func(head byte, n int) []byte {
		b := make([]byte, n)
		b[0] = head
		for i := 1; i < n; i++ {
			b[i] = byte(1 + r.IntN(255))
		}
		return b
	}
	s := &h264Stream{sps: []byte{0x67, 0x42, 0xe0, 0x1f, 0x8d, 0x68, 0x14, 0x1f, 0x2d, 0x80},
		pps: []byte{0x68, 0xce, 0x3c, 0x80}, idr: fill(0x65, 3000), keyEvery: keyEvery}
	for range 8 {
		s.p = append(s.p, fill(0x41, 400+r.IntN(400)))
	}
	return s
}

// frame is frame i as an Annex B access unit.
func (s *h264Stream) frame(i int) []byte {
	sc := []byte{0, 0, 0, 1}
	if i%s.keyEvery == 0 {
		return bytes.Join([][]byte{nil, s.sps, s.pps, s.idr}, sc)
	}
	return append(append([]byte{}, sc...), s.p[i%len(s.p)]...)
}

// packetizer makes RTP packets of the stream's frames (FU-A above 1200
// bytes, SPS and PPS as STAP-A: pion's payloader, packetization mode 1).
func (s *h264Stream) packetizer(pt uint8, ssrc uint32) rtp.Packetizer {
	return rtp.NewPacketizer(1200, pt, ssrc, &codecs.H264Payloader{}, rtp.NewFixedSequencer(1), 90000)
}

// known tells whether a NAL unit is one of the stream's.
func (s *h264Stream) known(nal []byte) bool {
	for _, k := range append([][]byte{s.sps, s.pps, s.idr}, s.p...) {
		if bytes.Equal(nal, k) {
			return true
		}
	}
	return false
}

// writePcap writes frames of the stream as a libpcap file (Ethernet,
// IPv4, UDP, RTP; 30 frames a second) that SIPp's play_pcap_video plays.
func (s *h264Stream) writePcap(t *testing.T, path string, frames int, pt uint8) int {
	t.Helper()
	var b bytes.Buffer
	le := binary.LittleEndian
	hdr := make([]byte, 24) // the global header (pcap-savefile(5))
	le.PutUint32(hdr[0:], 0xa1b2c3d4)
	le.PutUint16(hdr[4:], 2)
	le.PutUint16(hdr[6:], 4)
	le.PutUint32(hdr[16:], 65535)
	le.PutUint32(hdr[20:], 1) // LINKTYPE_ETHERNET
	b.Write(hdr)
	pz := s.packetizer(pt, 0x5eed)
	n := 0
	start := time.Unix(1_700_000_000, 0)
	for i := range frames {
		for _, p := range pz.Packetize(s.frame(i), 3000) {
			raw, err := p.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			udp := make([]byte, 8, 8+len(raw))
			binary.BigEndian.PutUint16(udp[0:], 6000)
			binary.BigEndian.PutUint16(udp[2:], 6002)
			binary.BigEndian.PutUint16(udp[4:], uint16(8+len(raw)))
			udp = append(udp, raw...)
			ip := []byte{0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1}
			binary.BigEndian.PutUint16(ip[2:], uint16(20+len(udp)))
			binary.BigEndian.PutUint16(ip[10:], ipChecksum(ip))
			eth := []byte{0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0x08, 0x00}
			frame := bytes.Join([][]byte{eth, ip, udp}, nil)
			at := start.Add(time.Duration(i) * time.Second / 30).Add(time.Duration(n%8) * time.Microsecond)
			rec := make([]byte, 16)
			le.PutUint32(rec[0:], uint32(at.Unix()))
			le.PutUint32(rec[4:], uint32(at.Nanosecond()/1000))
			le.PutUint32(rec[8:], uint32(len(frame)))
			le.PutUint32(rec[12:], uint32(len(frame)))
			b.Write(rec)
			b.Write(frame)
			n++
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}

func ipChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i < len(h); i += 2 {
		sum += uint32(h[i])<<8 | uint32(h[i+1])
	}
	for sum > 0xffff {
		sum = sum>>16 + sum&0xffff
	}
	return ^uint16(sum)
}

// h264Check reassembles received H.264 RTP (RFC 6184: single NAL units,
// STAP-A, FU-A) and counts what arrived intact.
type h264Check struct {
	s       *h264Stream
	mu      sync.Mutex
	dep     codecs.H264Packet
	packets int
	pts     map[uint8]int
	nals    map[byte]int // intact NAL units by type (7 SPS, 8 PPS, 5 IDR, 1 P)
	broken  int          // NAL units that are none of the stream's
	lastSeq uint16
}

func newH264Check(s *h264Stream) *h264Check {
	return &h264Check{s: s, pts: map[uint8]int{}, nals: map[byte]int{}}
}

func (c *h264Check) add(p *rtp.Packet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.packets > 0 && p.SequenceNumber != c.lastSeq+1 {
		c.dep = codecs.H264Packet{} // a loss: a fragment in progress is dropped
	}
	c.lastSeq = p.SequenceNumber
	c.packets++
	c.pts[p.PayloadType]++
	out, err := c.dep.Unmarshal(p.Payload)
	if err != nil || len(out) == 0 {
		return
	}
	for _, nal := range bytes.Split(out, []byte{0, 0, 0, 1}) {
		if len(nal) == 0 {
			continue
		}
		if c.s.known(nal) {
			c.nals[nal[0]&0x1f]++
		} else {
			c.broken++
		}
	}
}

// intact returns the packet count, the intact IDR, SPS and PPS units and
// the broken ones.
func (c *h264Check) intact() (packets, idr, sps, pps, p, broken int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.packets, c.nals[5], c.nals[7], c.nals[8], c.nals[1], c.broken
}

// verify fails the test unless key frames and P slices arrived intact in
// payload type pt only.
func (c *h264Check) verify(t *testing.T, what string, pt uint8) {
	t.Helper()
	n, idr, sps, pps, p, broken := c.intact()
	c.mu.Lock()
	pts := len(c.pts)
	got := c.pts[pt]
	c.mu.Unlock()
	t.Logf("%s: %d packets, NAL units intact: %d IDR, %d SPS, %d PPS, %d P; %d broken", what, n, idr, sps, pps, p, broken)
	switch {
	case pts != 1 || got != n:
		t.Errorf("%s: payload types %v, want %d only", what, c.pts, pt)
	case idr < 2 || sps < 2 || pps < 2 || p < 20:
		t.Errorf("%s: too few intact NAL units", what)
	case broken*50 > idr+sps+pps+p: // at most 2 % (a loss on loopback)
		t.Errorf("%s: %d broken NAL units", what, broken)
	}
}
