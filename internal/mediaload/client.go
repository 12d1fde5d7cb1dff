package mediaload

import (
	"context"
	"encoding/binary"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/transport/v5"
	"github.com/pion/transport/v5/stdnet"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media"
)

// newAPI is the pion API of the generator's peer connections: UDP over IPv4,
// no mDNS, loopback candidates only when loopback is set (hostToo adds this
// host's other addresses: Janus's libnice never gathers loopback ones, and
// traffic between two addresses of one host stays on it), and pion's default
// interceptors (NACK, RTCP reports, TWCC) only when asked, since a receive
// path without them lets one process stand for more subscribers.
//
// rcvbuf, when not 0, is the receive buffer of the generator's UDP sockets
// (SO_RCVBUF; Linux caps it at net.core.rmem_max): a subscriber socket of
// the one-room layout receives every publisher, and the default buffer
// (net.core.rmem_default) overflows when the generator is not scheduled
// for a few hundred milliseconds on a loaded machine.
func newAPI(loopback, hostToo, interceptors bool, rcvbuf int) (*webrtc.API, error) {
	var m webrtc.MediaEngine
	if err := m.RegisterDefaultCodecs(); err != nil {
		return nil, err
	}
	var s webrtc.SettingEngine
	s.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	s.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	// A first DTLS flight that reaches a server before its ICE agent has
	// selected the pair is dropped; pion retransmits after 1 s by default,
	// which would be most of the time to first packet.
	s.SetDTLSRetransmissionInterval(100 * time.Millisecond)
	if loopback {
		s.SetIncludeLoopbackCandidate(true)
		s.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() || hostToo })
	}
	if rcvbuf > 0 {
		n, err := stdnet.NewNet()
		if err != nil {
			return nil, err
		}
		s.SetNet(bufNet{n, rcvbuf})
	}
	opts := []func(*webrtc.API){webrtc.WithMediaEngine(&m), webrtc.WithSettingEngine(s)}
	if interceptors {
		var reg interceptor.Registry
		if err := webrtc.RegisterDefaultInterceptors(&m, &reg); err != nil {
			return nil, err
		}
		opts = append(opts, webrtc.WithInterceptorRegistry(&reg))
	}
	return webrtc.NewAPI(opts...), nil
}

// bufNet sets the receive buffer of the UDP sockets it opens.
type bufNet struct {
	transport.Net
	size int
}

func (n bufNet) ListenUDP(network string, addr *net.UDPAddr) (transport.UDPConn, error) {
	c, err := n.Net.ListenUDP(network, addr)
	if err == nil {
		c.SetReadBuffer(n.size)
	}
	return c, err
}

var (
	opusCap = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}
	vp8Cap  = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000}
)

// publisher sends its clips on sample tracks, paced by frame duration.
type publisher struct {
	pc     *webrtc.PeerConnection
	tracks []*webrtc.TrackLocalStaticSample
	clips  []Clip
	sent   atomic.Int64 // frames written
	feed   string       // the target's id of the publisher (Janus feed)
	closer func()
	ready  time.Duration // request to connected
}

func newPublisher(api *webrtc.API, name string, audio, video Clip) (*publisher, error) {
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, err
	}
	p := &publisher{pc: pc}
	add := func(c webrtc.RTPCodecCapability, kind string, clip Clip) error {
		t, err := webrtc.NewTrackLocalStaticSample(c, kind, name)
		if err != nil {
			return err
		}
		if _, err := pc.AddTransceiverFromTrack(t, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
			return err
		}
		p.tracks = append(p.tracks, t)
		p.clips = append(p.clips, clip)
		return nil
	}
	if err := add(opusCap, "audio", audio); err != nil {
		pc.Close()
		return nil, err
	}
	if len(video.Frames) > 0 {
		if err := add(vp8Cap, "video", video); err != nil {
			pc.Close()
			return nil, err
		}
	}
	return p, nil
}

// send loops over each clip until ctx ends. Frames are due at fixed times
// from the start: a late frame goes out at once, none is skipped.
func (p *publisher) send(ctx context.Context) {
	var wg sync.WaitGroup
	for i, t := range p.tracks {
		wg.Add(1)
		go func(t *webrtc.TrackLocalStaticSample, clip Clip) {
			defer wg.Done()
			due := time.Now()
			timer := time.NewTimer(0)
			defer timer.Stop()
			for k := 0; ; k = (k + 1) % len(clip.Frames) {
				select {
				case <-ctx.Done():
					return
				case <-timer.C:
				}
				f := clip.Frames[k]
				if err := t.WriteSample(media.Sample{Data: f.Data, Duration: f.Duration}); err != nil {
					return
				}
				p.sent.Add(1)
				due = due.Add(f.Duration)
				timer.Reset(time.Until(due))
			}
		}(t, p.clips[i])
	}
	wg.Wait()
}

// trackStats counts a received track's packets and the gaps in its
// sequence numbers (RFC 3550 §A.1: extended with a cycle count).
type trackStats struct {
	mu       sync.Mutex
	received int64
	first    int64 // extended sequence number of the first packet
	highest  int64
	started  bool
}

func (t *trackStats) add(seq uint16) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.received++
	if !t.started {
		t.started, t.first, t.highest = true, int64(seq), int64(seq)
		return
	}
	ext := t.highest&^0xFFFF | int64(seq)
	switch d := ext - t.highest; {
	case d < -0x8000:
		ext += 0x10000
	case d > 0x8000:
		ext -= 0x10000
	}
	if ext > t.highest {
		t.highest = ext
	}
}

// snapshot is the packets received and lost so far.
func (t *trackStats) snapshot() (received, lost int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		return 0, 0
	}
	return t.received, t.highest - t.first + 1 - t.received
}

// subscriber receives every track a target sends it.
type subscriber struct {
	pc     *webrtc.PeerConnection
	start  time.Time
	first  atomic.Int64  // nanoseconds from start to the first packet, 0 before
	answer time.Duration // start to the server's answer applied
	conn   atomic.Int64  // nanoseconds from start to connected (ICE and DTLS)
	mu     sync.Mutex
	tracks []*trackStats
	closer func()
}

func newSubscriber(api *webrtc.API) (*subscriber, error) {
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, err
	}
	s := &subscriber{pc: pc}
	pc.OnConnectionStateChange(func(st webrtc.PeerConnectionState) {
		if st == webrtc.PeerConnectionStateConnected {
			s.conn.CompareAndSwap(0, int64(time.Since(s.start)))
		}
	})
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		st := &trackStats{}
		s.mu.Lock()
		s.tracks = append(s.tracks, st)
		s.mu.Unlock()
		buf := make([]byte, 1500)
		for {
			n, _, err := tr.Read(buf)
			if err != nil {
				return
			}
			if n < 12 {
				continue
			}
			if s.first.Load() == 0 {
				s.first.CompareAndSwap(0, int64(time.Since(s.start)))
			}
			st.add(binary.BigEndian.Uint16(buf[2:4]))
		}
	})
	return s, nil
}

func (s *subscriber) snapshot() (received, lost int64, tracks int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tracks {
		r, l := t.snapshot()
		received += r
		lost += l
	}
	return received, lost, len(s.tracks)
}

// gather sets a local description and waits for every ICE candidate, so the
// SDP sent carries them (WHIP without trickle, RFC 9725 §4.1).
func gather(ctx context.Context, pc *webrtc.PeerConnection, d webrtc.SessionDescription) (string, error) {
	done := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(d); err != nil {
		return "", err
	}
	select {
	case <-done:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	return pc.LocalDescription().SDP, nil
}
