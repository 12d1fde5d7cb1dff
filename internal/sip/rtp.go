package sip

import (
	"errors"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// maxRTP bounds one received datagram.
const maxRTP = 1500

// stream is one m-line's plain RTP/RTCP socket pair (RTCP on the next
// port, RFC 3550 section 11). The peer's address is what its SDP says
// until its first packet arrives, then where its packets come from
// (symmetric RTP, RFC 4961: terminals behind NAT).
type stream struct {
	rtp, rtcp  *net.UDPConn
	remote     atomic.Pointer[net.UDPAddr]
	remoteRTCP atomic.Pointer[net.UDPAddr]
	signalled  atomic.Pointer[net.UDPAddr] // the address of the peer's last SDP
	latched    atomic.Bool
	pt         atomic.Uint32 // the payload type sent to the peer
	ssrc       uint32
	received   atomic.Uint64
	sent       *atomic.Uint64              // the user agent's packets sent
	hold       atomic.Bool                 // the peer takes nothing on this m-line now (content: its direction)
	key        []byte                      // Confer's SRTP master key and salt of this m-line (srtp.go)
	sec        atomic.Pointer[srtpSession] // nil: plain RTP
}

// openStream opens an even RTP port and the RTCP port after it within
// [min, max].
func openStream(ip net.IP, min, max int) (*stream, error) {
	span := (max - min + 1) / 2 // the top pair included (issue 38)
	for range 64 {
		p := min + 2*rand.IntN(span)
		if p%2 == 1 {
			p++
		}
		if p+1 > max {
			continue
		}
		a, err := net.ListenUDP("udp", &net.UDPAddr{IP: ip, Port: p})
		if err != nil {
			continue
		}
		b, err := net.ListenUDP("udp", &net.UDPAddr{IP: ip, Port: p + 1})
		if err != nil {
			a.Close()
			continue
		}
		return &stream{rtp: a, rtcp: b, ssrc: rand.Uint32(), key: newKey()}, nil
	}
	return nil, errors.New("sip: no free RTP port pair")
}

// A nil stream is an m-line the call has no socket pair for (newLeg):
// its port is 0 (refused), and it sends and reads nothing.

func (s *stream) port() int {
	if s == nil {
		return 0
	}
	return s.rtp.LocalAddr().(*net.UDPAddr).Port
}

// setHold stops (or resumes) sending to the peer: it takes nothing on the
// m-line now (its direction, RFC 3264 section 8.4).
func (s *stream) setHold(on bool) {
	if s != nil {
		s.hold.Store(on)
	}
}

func (s *stream) held() bool { return s == nil || s.hold.Load() }

// setPeer sets the peer's address from its SDP (until it sends).
func (s *stream) setPeer(ip net.IP, port int, pt uint8) {
	if s == nil {
		return
	}
	s.pt.Store(uint32(pt))
	if port == 0 || ip == nil || ip.IsUnspecified() { // RFC 3264 section 8.4: c=0.0.0.0 holds, the address stays
		return
	}
	a := &net.UDPAddr{IP: ip, Port: port}
	if prev := s.signalled.Swap(a); prev != nil && addrEqual(prev, a) && s.latched.Load() {
		return // unchanged: the source its packets come from stays
	}
	// A new address (a re-INVITE that moves the media, RFC 3264 section
	// 8.3.1): sent there until packets come from elsewhere again.
	s.latched.Store(false)
	s.remote.Store(a)
	s.remoteRTCP.Store(&net.UDPAddr{IP: ip, Port: port + 1})
}

func (s *stream) close() {
	if s == nil {
		return
	}
	s.rtp.Close()
	s.rtcp.Close()
}

// WriteRTP sends a packet to the peer with the negotiated payload type
// (sfu.RTPWriter).
func (s *stream) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	if s == nil {
		return 0, nil
	}
	to := s.remote.Load()
	if to == nil || s.hold.Load() {
		return 0, nil
	}
	hh := *h
	hh.PayloadType = uint8(s.pt.Load())
	hh.Extension, hh.Extensions = false, nil // the peer negotiated no header extensions
	p := rtp.Packet{Header: hh, Payload: payload}
	buf, err := p.Marshal()
	if err != nil {
		return 0, err
	}
	if sec := s.sec.Load(); sec != nil {
		if buf, err = sec.encryptRTP(buf); err != nil {
			return 0, err
		}
	}
	if s.sent != nil {
		s.sent.Add(1)
	}
	return s.rtp.WriteToUDP(buf, to)
}

// sendRTCP sends RTCP packets (a PLI asking the terminal for a key frame).
func (s *stream) sendRTCP(pkts ...rtcp.Packet) {
	if s == nil {
		return
	}
	to := s.remoteRTCP.Load()
	if to == nil {
		return
	}
	buf, err := rtcp.Marshal(pkts)
	if err != nil {
		return
	}
	if sec := s.sec.Load(); sec != nil {
		if buf, err = sec.encryptRTCP(buf); err != nil {
			return
		}
	}
	_, _ = s.rtcp.WriteToUDP(buf, to)
}

// readRTP reads packets until the socket closes, latching onto their
// source, and hands each to f.
func (s *stream) readRTP(last *atomic.Int64, f func(*rtp.Packet)) {
	if s == nil {
		return
	}
	buf := make([]byte, maxRTP)
	for {
		n, from, err := s.rtp.ReadFromUDP(buf)
		if err != nil {
			return
		}
		b := buf[:n]
		if sec := s.sec.Load(); sec != nil {
			if b, err = sec.decryptRTP(b); err != nil {
				continue // not authenticated: dropped (RFC 3711 section 3.3)
			}
		}
		var p rtp.Packet
		if p.Unmarshal(b) != nil || p.Version != 2 {
			continue
		}
		if !s.latched.Load() || !addrEqual(s.remote.Load(), from) {
			s.remote.Store(from)
			if rc := s.remoteRTCP.Load(); rc == nil || !s.latched.Load() {
				s.remoteRTCP.Store(&net.UDPAddr{IP: from.IP, Port: from.Port + 1})
			}
			s.latched.Store(true)
		}
		s.received.Add(1)
		last.Store(time.Now().UnixNano())
		p.Payload = append([]byte(nil), p.Payload...)
		f(&p)
	}
}

// readRTCP reads RTCP until the socket closes; a PLI or FIR calls kf, a
// TMMBR tm (nil: not read).
func (s *stream) readRTCP(kf func(), tm func([]tmmbr)) {
	if s == nil {
		return
	}
	buf := make([]byte, maxRTP)
	for {
		n, from, err := s.rtcp.ReadFromUDP(buf)
		if err != nil {
			return
		}
		b := buf[:n]
		if sec := s.sec.Load(); sec != nil {
			if b, err = sec.decryptRTCP(b); err != nil {
				continue
			}
		}
		s.remoteRTCP.Store(from) // symmetric RTCP
		if tm != nil {
			if rs := tmmbrs(b); len(rs) > 0 {
				tm(rs)
			}
		}
		pkts, err := rtcp.Unmarshal(b)
		if err != nil {
			continue
		}
		for _, p := range pkts {
			switch p.(type) {
			case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
				if kf != nil {
					kf()
				}
			}
		}
	}
}

func addrEqual(a, b *net.UDPAddr) bool {
	return a != nil && b != nil && a.Port == b.Port && a.IP.Equal(b.IP)
}

// leg is a call's media: the audio stream and, when negotiated, video
// and content (content.go).
type leg struct {
	ip                    net.IP
	audio, video, content *stream
	sdpID                 uint64        // o= session id of Confer's SDP
	sdpVer                atomic.Uint64 // o= version: a changed answer to a re-INVITE counts up
	last                  atomic.Int64  // unix nanos of the last RTP packet received
	contentLast           atomic.Int64  // the same of the content m-line
	dtmf                  dtmfReader
	counter               *atomic.Uint64 // the user agent's packets received
	dtmfPT                atomic.Int32   // -1 none

	mu               sync.Mutex
	onAudio          func(*rtp.Packet)
	onVideo          func(*rtp.Packet)
	onContent        func(*rtp.Packet)
	onKeyFrameReq    func()
	onContentKFReq   func()
	closeOnce        sync.Once
	digits           chan byte
	audioPT, videoPT uint8
	// tmmbr is the terminal's last TMMBR on its video, bits a second (0:
	// none); onTMMBR applies it (bandwidth.go).
	tmmbr   atomic.Int64
	onTMMBR func()
	// videoSSRC is the SSRC of the terminal's video, from its packets
	// (a TMMBR names it; bandwidth.go).
	videoSSRC atomic.Uint32
}

func (l *leg) setTMMBR(f func()) {
	l.mu.Lock()
	l.onTMMBR = f
	l.mu.Unlock()
}

// gotTMMBR applies a terminal's TMMBR and answers it with TMMBN (RFC
// 5104 section 4.2.2).
func (l *leg) gotTMMBR(rs []tmmbr) {
	r := rs[len(rs)-1]
	l.video.sendRTCP(tmmbn(l.video.ssrc, r))
	l.tmmbr.Store(int64(r.bps))
	l.mu.Lock()
	f := l.onTMMBR
	l.mu.Unlock()
	if f != nil {
		f()
	}
}

// lines are the m-lines a call has socket pairs for.
type lines struct{ audio, video, content bool }

// allLines: Confer's own offer (calling out, a delayed offer).
var allLines = lines{true, true, true}

// linesOf are the m-lines of a peer's offer that Confer bridges: an
// audio-only call takes one socket pair, not three (issue 39).
func linesOf(peer Media) lines {
	return lines{audio: peer.Audio != nil, video: peer.Video != nil, content: peer.Content != nil && peer.ContentPort != 0}
}

// newLeg opens the sockets of a call's m-lines (audio, video, content)
// on bind (nil: every interface); the others are nil streams. Its SDP
// advertises ip.
func newLeg(ip, bind net.IP, cfg *Config, want lines, counter, sent *atomic.Uint64) (*leg, error) {
	var ss [3]*stream
	for i, on := range []bool{want.audio, want.video, want.content} {
		if !on {
			continue
		}
		s, err := openStream(bind, cfg.RTPPortMin, cfg.RTPPortMax)
		if err != nil {
			for _, o := range ss[:i] {
				o.close()
			}
			return nil, err
		}
		s.sent, ss[i] = sent, s
	}
	v := sessionVersion.Add(1)
	l := &leg{ip: ip, audio: ss[0], video: ss[1], content: ss[2], sdpID: v, digits: make(chan byte, 32), counter: counter}
	l.sdpVer.Store(v)
	l.dtmfPT.Store(-1)
	l.last.Store(time.Now().UnixNano())
	return l, nil
}

// start applies the negotiated media and starts reading.
func (l *leg) start(peer Media) {
	if peer.Audio != nil {
		l.audio.setPeer(peer.IP, peer.AudioPort, peer.Audio.PT)
	}
	if peer.DTMF != nil {
		l.dtmfPT.Store(int32(peer.DTMF.PT))
	}
	if peer.Video != nil {
		l.video.setPeer(peer.IP, peer.VideoPort, peer.Video.PT)
	}
	l.setDirections(peer)
	l.setCrypto(peer) // SRTP keys (srtp.go)
	l.setContentPeer(peer)
	go l.audio.readRTP(&l.last, l.gotAudio)
	go l.video.readRTP(&l.last, l.gotVideo)
	go l.content.readRTP(&l.contentLast, l.gotContent)
	go l.audio.readRTCP(nil, nil)
	go l.video.readRTCP(l.keyFrameRequested, l.gotTMMBR)
	go l.content.readRTCP(l.contentKeyFrameRequested, nil)
}

func (l *leg) gotAudio(p *rtp.Packet) {
	if l.counter != nil {
		l.counter.Add(1)
	}
	if int32(p.PayloadType) == l.dtmfPT.Load() {
		if d, ok := l.dtmf.read(p); ok {
			select {
			case l.digits <- d:
			default: // nobody collects digits: dropped
			}
		}
		return
	}
	l.mu.Lock()
	f := l.onAudio
	l.mu.Unlock()
	if f != nil {
		f(p)
	}
}

func (l *leg) gotVideo(p *rtp.Packet) {
	if l.counter != nil {
		l.counter.Add(1)
	}
	if l.videoSSRC.Load() != p.SSRC {
		l.videoSSRC.Store(p.SSRC)
	}
	l.mu.Lock()
	f := l.onVideo
	l.mu.Unlock()
	if f != nil {
		f(p)
	}
}

func (l *leg) keyFrameRequested() {
	l.mu.Lock()
	f := l.onKeyFrameReq
	l.mu.Unlock()
	if f != nil {
		f()
	}
}

// requestKeyFrame sends a PLI to the terminal's video.
func (l *leg) requestKeyFrame(mediaSSRC uint32) {
	l.video.sendRTCP(&rtcp.PictureLossIndication{SenderSSRC: l.video.ssrc, MediaSSRC: mediaSSRC})
}

// setDirections stops sending audio or video to a peer that takes none
// (its direction sendonly or inactive, c=0.0.0.0: on hold, RFC 3264
// section 8.4) and resumes once it takes them again.
func (l *leg) setDirections(peer Media) {
	l.audio.setHold(peer.Audio == nil || !receives(peer.AudioDir))
	l.video.setHold(peer.Video == nil || !receives(peer.VideoDir))
}

// sinks sets where the terminal's packets go.
func (l *leg) sinks(audio, video func(*rtp.Packet), kf func()) {
	l.mu.Lock()
	l.onAudio, l.onVideo, l.onKeyFrameReq = audio, video, kf
	l.mu.Unlock()
}

func (l *leg) close() {
	l.closeOnce.Do(func() {
		l.audio.close()
		l.video.close()
		l.content.close()
	})
}

// silentFor tells how long no RTP came from the terminal.
func (l *leg) silentFor(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, l.last.Load()))
}
