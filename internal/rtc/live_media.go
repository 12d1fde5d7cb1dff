package rtc

import (
	"context"
	"net"
	"sync"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/playout"
	"github.com/confer-platform/confer/internal/sfu"
)

// LiveMedia is the node's media runtime for conference control's live
// media (vc.Media, docs/live.md): a monitor's sender is an invisible tap
// of the SFU writing plain RTP to its destination, a playback is a
// participant inside the SFU publishing a program, and watching viewers
// are the SFU's tagged WHEP viewers. It runs the node's playbacks
// (playback.go) and keeps which monitor sender and which watched
// conference is whose (live_book.go).
type LiveMedia struct {
	*sfu.SFU
	*liveBook // monitors' senders, watched conferences, RTMP pushes (live_book.go)
	plays     *playbacks
}

// NewLiveMedia makes the live media runtime of the node's SFU; its
// background goroutines run in g (the server's group); push pushes
// broadcasts to RTMP (nil: the node cannot).
func NewLiveMedia(s *sfu.SFU, g *lifecycle.Group, push Pusher) *LiveMedia {
	l := &LiveMedia{SFU: s, plays: &playbacks{group: g, clock: playout.RealClock{}, runs: map[string]*playRun{}}}
	l.liveBook = newLiveBook(l, s, push)
	return l
}

// The codecs of a monitor's packets, with the payload types its reply
// shows (media.MonitorH264PT, ...).
var (
	monitorVideoCodecs = []sfu.LocalCodec{
		{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: media.MonitorH264PT},
		{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: media.MonitorVP8PT},
	}
	monitorAudioCodecs = []sfu.LocalCodec{
		{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, PayloadType: media.MonitorOpusPT},
		{MimeType: webrtc.MimeTypePCMU, ClockRate: 8000, PayloadType: 0},
		{MimeType: webrtc.MimeTypePCMA, ClockRate: 8000, PayloadType: 8},
	}
)

// OpenMonitor opens a monitor's sender: each packet of its source goes
// to one UDP socket connected to the destination, unencrypted.
func (l *LiveMedia) OpenMonitor(ctx context.Context, confID string, s media.MonitorSpec) (media.Tap, error) {
	raddr, err := net.ResolveUDPAddr("udp", s.Dst)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialUDP("udp", nil, raddr)
	if err != nil {
		return nil, err
	}
	out := &udpRTP{conn: conn}
	// A monitor of the composition (or the mixer) receives the broadcast:
	// the composed picture while a composition runs.
	o := sfu.LocalOptions{Kind: sfu.KindTap, Name: s.Name, Receive: sfu.SourceBroadcast, Composed: true}
	switch s.Source {
	case media.MonitorTerminal:
		o.Receive, o.Terminal = sfu.SourceTerminal, s.MtID
	case media.MonitorDual:
		o.Receive = sfu.SourceDual
	}
	if s.Audio {
		// The conference's sound is its mix (docs/mixing.md).
		o.AudioOut, o.AudioCodecs, o.MixedAudio = out, monitorAudioCodecs, o.Receive == sfu.SourceBroadcast
	} else {
		o.VideoOut, o.VideoCodecs = out, monitorVideoCodecs
	}
	loc, err := l.OpenLocal(ctx, confID, o)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return monitorTap{Local: loc, out: out}, nil
}

// monitorTap is a monitor's sender: the tap and its socket.
type monitorTap struct {
	*sfu.Local
	out *udpRTP
}

func (t monitorTap) Close() {
	t.Local.Close()
	t.out.conn.Close()
}

// udpRTP writes RTP packets to a connected UDP socket.
type udpRTP struct {
	conn *net.UDPConn
	mu   sync.Mutex
	buf  []byte
}

func (u *udpRTP) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := h.MarshalSize()
	if cap(u.buf) < n+len(payload) {
		u.buf = make([]byte, n+len(payload)+64)
	}
	b := u.buf[:n+len(payload)]
	if _, err := h.MarshalTo(b); err != nil {
		return 0, err
	}
	copy(b[n:], payload)
	// A destination that is not listening answers with ICMP: the next
	// write fails with "connection refused", which the sender ignores
	// (the monitoring client may start listening later).
	_, _ = u.conn.Write(b)
	return len(b), nil
}

// OpenPlayback makes a playback's participant (kind "playback").
func (l *LiveMedia) OpenPlayback(ctx context.Context, confID string, s media.PlaybackSpec) (media.Peer, error) {
	o := sfu.LocalOptions{Member: true, Name: s.Name, Kind: sfu.KindPlayback}
	if s.VideoMime != "" {
		o.PublishVideo = &sfu.LocalCodec{MimeType: s.VideoMime, ClockRate: 90000, PayloadType: s.VideoPT}
	}
	if s.AudioMime != "" {
		o.PublishAudio = &sfu.LocalCodec{MimeType: s.AudioMime, ClockRate: 48000, Channels: 2, PayloadType: s.AudioPT}
	}
	loc, err := l.OpenLocal(ctx, confID, o)
	if err != nil {
		return nil, err
	}
	return loc, nil
}
