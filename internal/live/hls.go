package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/sfu"
)

// HLS of a live broadcast (docs/live.md "HLS"): on a viewer's first
// request, a tap inside the SFU receives the broadcast (VP8 and Opus) and
// writes its RTP to two loopback UDP ports that the system ffmpeg reads
// through an SDP file; ffmpeg encodes H.264 and AAC and writes a sliding
// window of segments into a private folder, which conferd serves. A
// stream nobody requested for IdleTimeout stops and its folder is removed;
// at most MaxStreams run at once.

// Defaults of Config.
const (
	DefaultIdle       = 30 * time.Second
	DefaultMaxStreams = 4
	segmentSeconds    = 2
	windowSegments    = 5 // segments in the playlist; older ones are deleted
)

// Tap opens the SFU's invisible subscriber (*sfu.SFU).
type Tap interface {
	OpenLocal(ctx context.Context, confID string, o sfu.LocalOptions) (*sfu.Local, error)
}

// HLSConfig configures HLS.
type HLSConfig struct {
	FFmpeg     string        // ffmpeg's path; "" looks it up on PATH (absent: no HLS)
	Dir        string        // where stream folders go; "" the system's temporary folder
	Idle       time.Duration // DefaultIdle when 0
	MaxStreams int           // DefaultMaxStreams when 0
	Log        *slog.Logger
}

// HLS runs the broadcasts' HLS streams of a node.
type HLS struct {
	cfg HLSConfig
	tap Tap

	mu      sync.Mutex
	streams map[string]*stream // by conf_id/rec_id
	closed  bool
}

// ErrNoHLS is returned when ffmpeg is not installed or the node runs
// MaxStreams already.
var ErrNoHLS = errors.New("live: no HLS on this node")

// NewHLS returns the node's HLS, nil when ffmpeg is not installed.
func NewHLS(cfg HLSConfig, tap Tap) *HLS {
	if cfg.FFmpeg == "" {
		p, err := exec.LookPath("ffmpeg")
		if err != nil {
			return nil
		}
		cfg.FFmpeg = p
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &HLS{cfg: cfg, tap: tap, streams: map[string]*stream{}}
}

type stream struct {
	audio  *silenceFiller
	dir    string
	local  *sfu.Local
	cmd    *exec.Cmd
	conns  []*net.UDPConn
	last   time.Time
	exited chan struct{}
}

// Dir returns the folder of a broadcast's stream, starting it when it
// does not run; the playlist appears there once ffmpeg wrote its first
// segment.
func (h *HLS) Dir(ctx context.Context, confID, recID string) (string, error) {
	key := confID + "/" + recID
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return "", ErrNoHLS
	}
	if s := h.streams[key]; s != nil {
		select {
		case <-s.exited: // ffmpeg died: start again
			h.stopLocked(key, s)
		default:
			s.last = time.Now()
			return s.dir, nil
		}
	}
	if len(h.streams) >= h.cfg.MaxStreams {
		return "", fmt.Errorf("%w: %d streams run already", ErrNoHLS, h.cfg.MaxStreams)
	}
	s, err := h.start(ctx, confID)
	if err != nil {
		return "", err
	}
	h.streams[key] = s
	return s.dir, nil
}

// udpWriter sends forwarded packets to ffmpeg's port.
type udpWriter struct{ c *net.UDPConn }

func (u udpWriter) WriteRTP(hd *rtp.Header, payload []byte) (int, error) {
	b, err := (&rtp.Packet{Header: *hd, Payload: payload}).Marshal()
	if err != nil {
		return 0, err
	}
	return u.c.Write(b)
}

// freePort finds a free even loopback UDP port with its odd neighbour
// (RTP and RTCP) for ffmpeg to bind.
func freePort() (int, error) {
	for i := 0; i < 20; i++ {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return 0, err
		}
		p := c.LocalAddr().(*net.UDPAddr).Port &^ 1
		_ = c.Close()
		a, err1 := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p})
		b, err2 := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p + 1})
		if a != nil {
			_ = a.Close()
		}
		if b != nil {
			_ = b.Close()
		}
		if err1 == nil && err2 == nil {
			return p, nil
		}
	}
	return 0, errors.New("live: no free UDP port pair")
}

const (
	ptOpus = 111
	ptVP8  = 96
)

func (h *HLS) start(ctx context.Context, confID string) (_ *stream, err error) {
	dir, err := os.MkdirTemp(h.cfg.Dir, "confer-hls-")
	if err != nil {
		return nil, err
	}
	s := &stream{dir: dir, last: time.Now(), exited: make(chan struct{})}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	pa, err := freePort()
	if err != nil {
		return nil, err
	}
	pv, err := freePort()
	if err != nil || pv == pa {
		return nil, errors.Join(err, errors.New("live: no free UDP port pair"))
	}
	sdp := fmt.Sprintf("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=confer\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"+
		"m=audio %d RTP/AVP %d\r\na=rtpmap:%d opus/48000/2\r\n"+
		"m=video %d RTP/AVP %d\r\na=rtpmap:%d VP8/90000\r\n", pa, ptOpus, ptOpus, pv, ptVP8, ptVP8)
	sdpPath := filepath.Join(dir, "in.sdp")
	if err := os.WriteFile(sdpPath, []byte(sdp), 0o600); err != nil {
		return nil, err
	}
	s.cmd = exec.Command(h.cfg.FFmpeg, "-hide_banner", "-loglevel", "error", "-nostdin",
		"-protocol_whitelist", "file,udp,rtp", "-fflags", "+genpts", "-analyzeduration", "15000000", "-i", sdpPath,
		"-map", "0:v?", "-map", "0:a?", "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency",
		"-pix_fmt", "yuv420p", "-r", "30", "-g", "30", "-sc_threshold", "0", "-c:a", "aac", "-b:a", "64k",
		"-f", "hls", "-hls_time", fmt.Sprint(segmentSeconds), "-hls_list_size", fmt.Sprint(windowSegments),
		"-hls_flags", "delete_segments+omit_endlist+independent_segments",
		"-hls_segment_filename", filepath.Join(dir, "seg%06d.ts"), filepath.Join(dir, "index.m3u8"))
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	time.Sleep(300 * time.Millisecond) // ffmpeg binds its ports
	for _, p := range []int{pa, pv} {
		c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p})
		if err != nil {
			return nil, err
		}
		s.conns = append(s.conns, c)
	}
	// Silence fills the sound's gaps: ffmpeg writes no segment before
	// every stream brought a frame (rtmp.go).
	s.audio = newSilenceFiller(s.conns[0])
	s.local, err = h.tap.OpenLocal(ctx, confID, sfu.LocalOptions{Receive: sfu.SourceBroadcast, MixedAudio: true, Composed: true,
		AudioOut: s.audio, VideoOut: s.audio.video(udpWriter{s.conns[1]}),
		AudioCodecs: []sfu.LocalCodec{{MimeType: "audio/opus", ClockRate: 48000, Channels: 2, PayloadType: ptOpus}},
		VideoCodecs: []sfu.LocalCodec{{MimeType: "video/VP8", ClockRate: 90000, PayloadType: ptVP8}}})
	if err != nil {
		return nil, err
	}
	go func() { // key frames until ffmpeg has written its first playlist, however long it takes to start
		playlist := filepath.Join(s.dir, "index.m3u8")
		for {
			select {
			case <-s.exited:
				return
			case <-time.After(500 * time.Millisecond):
			}
			if _, err := os.Stat(playlist); err == nil {
				return
			}
			s.local.RequestKeyFrame()
		}
	}()
	return s, nil
}

func (s *stream) close() {
	if s.local != nil {
		s.local.Close()
	}
	if s.audio != nil {
		s.audio.stop()
	}
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	for _, c := range s.conns {
		_ = c.Close()
	}
	_ = os.RemoveAll(s.dir)
}

func (h *HLS) stopLocked(key string, s *stream) {
	delete(h.streams, key)
	go s.close()
}

// Stop ends a broadcast's stream (the broadcast ended).
func (h *HLS) Stop(confID, recID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.streams[confID+"/"+recID]; s != nil {
		h.stopLocked(confID+"/"+recID, s)
	}
}

// Run stops the streams nobody requested for Idle until ctx ends (the
// server runs it in its goroutine group, docs/architecture.md "One
// lifecycle").
func (h *HLS) Run(ctx context.Context) {
	t := time.NewTicker(h.cfg.Idle / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return
		}
		for k, s := range h.streams {
			if time.Since(s.last) > h.cfg.Idle {
				h.stopLocked(k, s)
			}
		}
		h.mu.Unlock()
	}
}

// Close stops every stream.
func (h *HLS) Close() {
	h.mu.Lock()
	h.closed = true
	all := h.streams
	h.streams = map[string]*stream{}
	h.mu.Unlock()
	for _, s := range all {
		s.close()
	}
}
