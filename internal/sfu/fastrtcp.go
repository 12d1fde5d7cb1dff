package sfu

import (
	"encoding/binary"
	"net/netip"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/srtp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// Fast RTCP (docs/sfu-internals.md "Fast RTCP", issue 43): a connected
// session's SRTCP (a subscriber's receiver reports, TWCC feedback, NACKs,
// PLIs and FIRs; a publisher's sender reports) is decrypted and handled on
// the UDP port's own reader. pion's path for each datagram was its UDP
// mux's goroutine, the candidate's read loop, the ICE connection, the
// DTLS/SRTP demultiplexer's goroutine, the SRTCP session's, one read
// stream per destination SSRC and the RTPSender's reader (readRTCP): at
// 500 subscribers sending reports every second and feedback for every
// video frame, the most of what remained of the ICE share after fast
// checks, and a goroutine hand-off at every step.
//
// The session's own SRTCP context decrypts it, made from the remote
// keys of the DTLS connection as pion makes its own (direct.go's
// srtpKeys), with the same replay window (RFC 3711 section 3.3.2). What
// it decrypts is then what pion would have done with it:
//   - a compound of receiver reports, SDES and BYE only, whose reports
//     are on audio streams (most of the inbound packets: a subscriber's
//     report every second) goes straight to the down tracks' reports
//     (noteReports), without allocation (pion's NACK responder reads a
//     video stream's reports for its round-trip time: those take the
//     next path);
//   - anything else goes through the connection's own interceptors (the
//     NACK responder resends, GCC reads TWCC feedback, the receiver
//     report interceptor reads sender reports), bound once more for this
//     reader with pion's BindRTCPReader, and then to the down tracks whose
//     SSRC it is addressed to (handleRTCP: PLI and FIR ask the publisher
//     for a key frame), as pion's SRTCP session dispatches it.
//
// Only a datagram from the session's selected pair's remote address on the
// socket of its local end is taken (the pair as the fast checks track it,
// checks.go's checkPair); pion keeps everything else: DTLS, STUN, SRTP
// (the publishers' media: its receivers unwrap RTX, probe simulcast RIDs
// and feed the NACK generator, receiver reports and TWCC on every
// packet), an unknown or new address (an ICE restart's, until the new
// pair is selected and tracked), an ICE-TCP or relayed pair, and a
// session whose keys or interceptors cannot be read (a pion of another
// layout). A datagram that fails authentication or replay is dropped,
// as pion drops it: it is not handed to pion, whose replay window has
// not seen what was taken here.

// rtcpReader holds the sessions whose SRTCP is read here.
type rtcpReader struct {
	mu       sync.RWMutex
	byRemote map[rtcpKey]*rtcpSession
	bySess   map[*session]*rtcpSession
	taken    atomic.Uint64 // datagrams taken
}

type rtcpKey struct {
	conn   *udpbatch.Conn
	remote netip.AddrPort
}

// rtcpSession is one session's fast RTCP: its context, its interceptors'
// reader, and its counts by packet type (rtcpCounts).
type rtcpSession struct {
	sess   *session
	key    rtcpKey
	mu     sync.Mutex // one datagram at a time (several sockets' readers)
	ctx    *srtp.Context
	chain  interceptor.RTCPReader
	cur    []byte // the decrypted datagram, while chain reads it
	plain  []byte
	buf    []byte // chain's read buffer
	attrs  interceptor.Attributes
	hdr    rtcp.Header
	blocks []rtcp.ReceptionReport // reports' buffer
	counts
}

// counts are a session's fast RTCP datagrams and packets by type.
type counts struct {
	datagrams, dropped                        atomic.Uint64
	rr, sr, nack, twcc, pli, fir, remb, other atomic.Uint64
}

// rtcpCounts is a copy of counts.
type rtcpCounts struct {
	Datagrams, Dropped                        uint64
	RR, SR, NACK, TWCC, PLI, FIR, REMB, Other uint64
}

func newRTCPReader() *rtcpReader {
	return &rtcpReader{byRemote: map[rtcpKey]*rtcpSession{}, bySess: map[*session]*rtcpSession{}}
}

// intercept is conn c's udpbatch.Intercept: the fast checks' (checks.go),
// then fast RTCP's, each when on.
func (n *batchNet) intercept(c *udpbatch.Conn) udpbatch.Intercept {
	var check udpbatch.Intercept
	if n.checks != nil {
		check = n.checks.intercept(c)
	}
	r := n.rtcp
	switch {
	case check == nil && r == nil:
		return nil
	case r == nil:
		return check
	}
	return func(b []byte, from netip.AddrPort) bool {
		if len(b) == 0 {
			return false
		}
		if b[0] < 4 { // STUN (RFC 7983)
			return check != nil && check(b, from)
		}
		return r.take(c, b, from)
	}
}

// take handles b if it is SRTCP of a session tracked here.
func (r *rtcpReader) take(c *udpbatch.Conn, b []byte, from netip.AddrPort) bool {
	// RTP and RTCP (RFC 7983: 128 to 191), RTCP's packet types 192 to
	// 223 (RFC 5761 section 4).
	if len(b) < 8 || b[0]&0xc0 != 0x80 || b[1] < 192 || b[1] > 223 {
		return false
	}
	r.mu.RLock()
	s := r.byRemote[rtcpKey{c, netip.AddrPortFrom(from.Addr().Unmap(), from.Port())}]
	r.mu.RUnlock()
	if s == nil {
		return false
	}
	s.handle(b)
	r.taken.Add(1)
	return true
}

// handle decrypts and handles one SRTCP datagram of the session.
func (s *rtcpSession) handle(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.datagrams.Add(1)
	out, err := s.ctx.DecryptRTCP(s.plain[:0], b, &s.hdr)
	if err != nil {
		s.dropped.Add(1)
		return
	}
	if cap(out) > cap(s.plain) {
		s.plain = out[:0]
	}
	simple := true
	for p := out; len(p) > 0; {
		if len(p) < 4 {
			s.dropped.Add(1)
			return // malformed: pion's session drops it too
		}
		l := (int(binary.BigEndian.Uint16(p[2:])) + 1) * 4
		if l > len(p) {
			s.dropped.Add(1)
			return
		}
		if !s.count(p[:l]) {
			simple = false
		}
		p = p[l:]
	}
	if simple && s.reports(out) {
		return
	}
	s.cur = out
	clear(s.attrs)
	n, _, err := s.chain.Read(s.buf, s.attrs)
	s.cur = nil
	if err != nil {
		return
	}
	pkts, err := s.attrs.GetRTCPPackets(s.buf[:n])
	if err != nil {
		return
	}
	for _, p := range pkts {
		dst := p.DestinationSSRC()
		for _, d := range s.sess.downs {
			d.mu.Lock()
			ssrc := d.ssrc
			d.mu.Unlock()
			for _, x := range dst {
				if x == ssrc {
					d.handleRTCP(p)
					break
				}
			}
		}
	}
}

// count counts one RTCP packet p and says whether it is of the kinds the
// reports path handles alone (receiver reports, SDES, BYE).
func (s *rtcpSession) count(p []byte) bool {
	format := p[0] & 0x1f
	switch p[1] {
	case uint8(rtcp.TypeReceiverReport):
		s.rr.Add(1)
		return true
	case uint8(rtcp.TypeSourceDescription), uint8(rtcp.TypeGoodbye):
		return true
	case uint8(rtcp.TypeSenderReport):
		s.sr.Add(1)
	case uint8(rtcp.TypeTransportSpecificFeedback):
		switch format {
		case rtcp.FormatTLN:
			s.nack.Add(1)
		case rtcp.FormatTCC:
			s.twcc.Add(1)
		default:
			s.other.Add(1)
		}
	case uint8(rtcp.TypePayloadSpecificFeedback):
		switch format {
		case rtcp.FormatPLI:
			s.pli.Add(1)
		case rtcp.FormatFIR:
			s.fir.Add(1)
		case rtcp.FormatREMB:
			s.remb.Add(1)
		default:
			s.other.Add(1)
		}
	default:
		s.other.Add(1)
	}
	return false
}

// reports hands the report blocks of the receiver reports of compound
// out to the down tracks (RFC 3550 section 6.4.2), without allocation,
// and says whether it did: a block on a video stream goes through the
// interceptors instead (pion's NACK responder takes the round-trip time
// of its streams from them).
func (s *rtcpSession) reports(out []byte) bool {
	s.blocks = s.blocks[:0]
	for p := out; len(p) >= 4; {
		l := (int(binary.BigEndian.Uint16(p[2:])) + 1) * 4
		if p[1] == uint8(rtcp.TypeReceiverReport) && l >= 8 {
			blocks := p[8:l]
			for k := 0; k < int(p[0]&0x1f) && len(blocks) >= 24; k++ {
				b := blocks[:24]
				s.blocks = append(s.blocks, rtcp.ReceptionReport{
					SSRC:               binary.BigEndian.Uint32(b),
					FractionLost:       b[4],
					TotalLost:          uint32(b[5])<<16 | uint32(b[6])<<8 | uint32(b[7]),
					LastSequenceNumber: binary.BigEndian.Uint32(b[8:]),
					Jitter:             binary.BigEndian.Uint32(b[12:]),
					LastSenderReport:   binary.BigEndian.Uint32(b[16:]),
					Delay:              binary.BigEndian.Uint32(b[20:]),
				})
				blocks = blocks[24:]
			}
		}
		p = p[l:]
	}
	for _, d := range s.sess.downs {
		if d.kind != webrtc.RTPCodecTypeVideo {
			continue
		}
		d.mu.Lock()
		ssrc := d.ssrc
		d.mu.Unlock()
		for _, b := range s.blocks {
			if b.SSRC == ssrc {
				return false
			}
		}
	}
	if len(s.blocks) > 0 {
		for _, d := range s.sess.downs {
			d.noteReports(s.blocks)
		}
	}
	return true
}

// track (re)registers sess at its selected pair's remote address, or
// removes it when there is none to read for here (as checkResponder.track).
func (r *rtcpReader) track(sess *session, socks []*udpbatch.Conn, publicIPs []string) {
	p := sess.checkPair(socks, publicIPs)
	r.mu.RLock()
	s := r.bySess[sess]
	r.mu.RUnlock()
	if s == nil && p != nil {
		s = sess.newRTCPSession()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.bySess[sess]; old != nil {
		delete(r.byRemote, old.key)
		s = old
	}
	delete(r.bySess, sess)
	select {
	case <-sess.done:
		return // ended meanwhile: untrack ran
	default:
	}
	if p == nil || s == nil {
		return
	}
	s.key = rtcpKey{p.conn, p.remote}
	r.byRemote[s.key] = s
	r.bySess[sess] = s
}

// untrack removes sess (its end).
func (r *rtcpReader) untrack(sess *session) {
	r.mu.Lock()
	if s := r.bySess[sess]; s != nil {
		delete(r.byRemote, s.key)
		delete(r.bySess, sess)
	}
	r.mu.Unlock()
}

// countsFor are sess's fast RTCP counts, and whether it is tracked
// (zero and false on a nil reader: fast RTCP off).
func (r *rtcpReader) countsFor(sess *session) (rtcpCounts, bool) {
	if r == nil {
		return rtcpCounts{}, false
	}
	r.mu.RLock()
	s := r.bySess[sess]
	r.mu.RUnlock()
	if s == nil {
		return rtcpCounts{}, false
	}
	return rtcpCounts{Datagrams: s.datagrams.Load(), Dropped: s.dropped.Load(),
		RR: s.rr.Load(), SR: s.sr.Load(), NACK: s.nack.Load(), TWCC: s.twcc.Load(),
		PLI: s.pli.Load(), FIR: s.fir.Load(), REMB: s.remb.Load(), Other: s.other.Load()}, true
}

// newRTCPSession makes sess's context and interceptors' reader, or nil.
func (sess *session) newRTCPSession() *rtcpSession {
	if sess.pc == nil || sess.pc.SCTP() == nil {
		return nil
	}
	cfg, profile, _, err := sess.srtpKeys(sess.pc.SCTP().Transport())
	if err != nil {
		return nil
	}
	// pion's own remote context's replay window (webrtc's SettingEngine
	// default, srtp's 64).
	ctx, err := srtp.CreateContext(cfg.Keys.RemoteMasterKey, cfg.Keys.RemoteMasterSalt, profile,
		srtp.SRTCPReplayProtection(64))
	if err != nil {
		return nil
	}
	ic := interceptorOf(sess.pc)
	if ic == nil {
		return nil
	}
	s := &rtcpSession{sess: sess, ctx: ctx, plain: make([]byte, 0, udpbatch.MaxDatagram),
		buf: make([]byte, udpbatch.MaxDatagram), attrs: interceptor.Attributes{}}
	s.chain = ic.BindRTCPReader(interceptor.RTCPReaderFunc(
		func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
			return copy(b, s.cur), a, nil
		}))
	return s
}

// interceptorOf is the interceptor chain of pc (its API's, one per
// PeerConnection here: newAPI), read by field name as dtlsConn reads the
// DTLS connection, or nil (a pion of another layout: its RTCP stays on
// pion's path; TestFastRTCP fails on such a pion).
func interceptorOf(pc *webrtc.PeerConnection) interceptor.Interceptor {
	af := reflect.ValueOf(pc).Elem().FieldByName("api")
	if !af.IsValid() || af.Type() != reflect.TypeFor[*webrtc.API]() {
		return nil
	}
	api := *(**webrtc.API)(unsafe.Pointer(af.UnsafeAddr()))
	if api == nil {
		return nil
	}
	f := reflect.ValueOf(api).Elem().FieldByName("interceptor")
	if !f.IsValid() || f.Type() != reflect.TypeFor[interceptor.Interceptor]() {
		return nil
	}
	return *(*interceptor.Interceptor)(unsafe.Pointer(f.UnsafeAddr()))
}
