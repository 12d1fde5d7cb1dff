package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
)

// RTMP push of a live broadcast (docs/live.md "RTMP push", a Confer
// extension: the platform has no field for it): a tap inside the SFU
// receives the conference's picture — the composed picture while a
// composition runs, else the speaker — in H.264 (the compositor
// transcodes a VP8 speaker) and its sound in Opus, and writes the RTP to
// two loopback UDP ports that ffmpeg reads through an SDP file; ffmpeg
// copies the video, encodes the sound to AAC and pushes FLV to the URL
// (rtmp:// or rtmps://). A push whose ffmpeg ends (the server went away)
// starts again every RetryEvery until it is stopped.

// ErrNoRTMP is returned when ffmpeg is not installed.
var ErrNoRTMP = errors.New("live: no RTMP push on this node (ffmpeg is not installed)")

// RTMPConfig configures the pushes.
type RTMPConfig struct {
	FFmpeg     string        // "" ffmpeg on the PATH
	Dir        string        // where SDP files go; "" the system's temporary folder
	RetryEvery time.Duration // 5 s
	Log        *slog.Logger
}

// RTMP runs the node's pushes.
type RTMP struct {
	cfg RTMPConfig
	tap Tap

	mu     sync.Mutex
	pushes map[string]*push // by conf_id/rec_id
	closed bool
}

// NewRTMP returns the node's pusher, nil when ffmpeg is not installed.
func NewRTMP(cfg RTMPConfig, tap Tap) *RTMP {
	if cfg.FFmpeg == "" {
		p, err := exec.LookPath("ffmpeg")
		if err != nil {
			return nil
		}
		cfg.FFmpeg = p
	}
	if cfg.RetryEvery <= 0 {
		cfg.RetryEvery = 5 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &RTMP{cfg: cfg, tap: tap, pushes: map[string]*push{}}
}

// push is one broadcast pushed to one URL.
type push struct {
	confID, url string
	stop        chan struct{}
	done        chan struct{}
}

// Start pushes the conference's broadcast recID to url until Stop; a
// push of recID running already is kept.
func (r *RTMP) Start(confID, recID, url string) error {
	if err := media.CheckRTMPURL(url); err != nil {
		return err
	}
	key := confID + "/" + recID
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrNoRTMP
	}
	if r.pushes[key] != nil {
		return nil
	}
	p := &push{confID: confID, url: url, stop: make(chan struct{}), done: make(chan struct{})}
	r.pushes[key] = p
	go r.run(p)
	return nil
}

// Stop ends a broadcast's push.
func (r *RTMP) Stop(confID, recID string) {
	r.mu.Lock()
	p := r.pushes[confID+"/"+recID]
	delete(r.pushes, confID+"/"+recID)
	r.mu.Unlock()
	if p != nil {
		close(p.stop)
		<-p.done
	}
}

// Running is the number of pushes.
func (r *RTMP) Running() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.pushes)
}

// Close stops every push.
func (r *RTMP) Close() {
	r.mu.Lock()
	r.closed = true
	all := r.pushes
	r.pushes = map[string]*push{}
	r.mu.Unlock()
	for _, p := range all {
		close(p.stop)
		<-p.done
	}
}

// run runs ffmpeg for p again and again until it is stopped.
func (r *RTMP) run(p *push) {
	defer close(p.done)
	for {
		err := r.once(p)
		select {
		case <-p.stop:
			return
		default:
		}
		r.cfg.Log.Warn("RTMP push ended; starting again", "conf_id", p.confID, "err", err)
		select {
		case <-p.stop:
			return
		case <-time.After(r.cfg.RetryEvery):
		}
	}
}

const ptH264 = 102

// once runs one ffmpeg push until it ends or p is stopped.
func (r *RTMP) once(p *push) error {
	dir, err := os.MkdirTemp(r.cfg.Dir, "confer-rtmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	pa, err := freePort()
	if err != nil {
		return err
	}
	pv, err := freePort()
	if err != nil || pv == pa {
		return errors.Join(err, errors.New("live: no free UDP port pair"))
	}
	sdp := fmt.Sprintf("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=confer\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"+
		"m=audio %d RTP/AVP %d\r\na=rtpmap:%d opus/48000/2\r\n"+
		"m=video %d RTP/AVP %d\r\na=rtpmap:%d H264/90000\r\na=fmtp:%d packetization-mode=1\r\n",
		pa, ptOpus, ptOpus, pv, ptH264, ptH264, ptH264)
	sdpPath := filepath.Join(dir, "in.sdp")
	if err := os.WriteFile(sdpPath, []byte(sdp), 0o600); err != nil {
		return err
	}
	cmd := exec.Command(r.cfg.FFmpeg, "-hide_banner", "-loglevel", "error", "-nostdin",
		"-protocol_whitelist", "file,udp,rtp", "-fflags", "+genpts", "-analyzeduration", "3000000", "-i", sdpPath,
		"-map", "0:v?", "-map", "0:a?", "-c:v", "copy", "-c:a", "aac", "-b:a", "96k", "-ar", "48000",
		"-f", "flv", p.url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	time.Sleep(300 * time.Millisecond) // ffmpeg binds its ports
	var conns []*net.UDPConn
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	for _, port := range []int{pa, pv} {
		c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
		if err != nil {
			return err
		}
		conns = append(conns, c)
	}
	audio := newSilenceFiller(conns[0])
	defer audio.stop()
	local, err := r.tap.OpenLocal(context.Background(), p.confID, sfu.LocalOptions{Receive: sfu.SourceBroadcast, MixedAudio: true, Composed: true,
		AudioOut: audio, VideoOut: audio.video(udpWriter{conns[1]}),
		AudioCodecs: []sfu.LocalCodec{{MimeType: "audio/opus", ClockRate: 48000, Channels: 2, PayloadType: ptOpus}},
		VideoCodecs: []sfu.LocalCodec{{MimeType: "video/H264", ClockRate: 90000, PayloadType: ptH264}}})
	if err != nil {
		return err
	}
	defer local.Close()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-p.stop:
			return nil
		case <-local.Done():
			<-p.stop // the conference ended: the broadcast stops with it
			return nil
		case <-exited:
			return fmt.Errorf("ffmpeg: %s", strings.TrimSpace(stderr.String()))
		case <-tick.C:
			if i < 10 { // key frames until ffmpeg has found the stream
				local.RequestKeyFrame()
			}
		}
	}
}

// silenceFiller writes the forwarded sound to ffmpeg and fills the gaps
// with silent Opus frames: ffmpeg writes nothing until every stream it
// encodes has brought a frame, and a conference may be silent (nobody
// publishes sound, everyone muted). It numbers the packets itself: one
// SSRC, continuous sequence numbers and timestamps.
type silenceFiller struct {
	c    *net.UDPConn
	mu   sync.Mutex
	seq  uint16
	ts   uint32    // timestamp of the last packet written
	at   time.Time // when it was written
	off  uint32    // forwarded timestamp + off = written timestamp
	live bool      // forwarding (not filling)
	// begun is set by the first video packet, or after noPicture without
	// one (a conference without video): ffmpeg takes each stream's first
	// packet as its start (no RTCP), so sound sent before the picture
	// would run seconds ahead of it and hold the muxer back.
	begun   bool
	created time.Time
	done    chan struct{}
}

// noPicture is how long the sound waits for the picture's first packet.
const noPicture = 5 * time.Second

// opusSilence is a 20 ms Opus frame of silence (CELT, RFC 6716 3.1).
var opusSilence = []byte{0xf8, 0xff, 0xfe}

func newSilenceFiller(c *net.UDPConn) *silenceFiller {
	f := &silenceFiller{c: c, at: time.Now(), created: time.Now(), done: make(chan struct{})}
	go f.fill()
	return f
}

// WriteRTP forwards one packet of the sound (sfu.RTPWriter).
func (f *silenceFiller) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.begun {
		return len(payload), nil
	}
	if !f.live {
		f.off = f.ts + uint32(time.Since(f.at).Seconds()*48000) - h.Timestamp
		f.live = true
	}
	return f.write(h.Timestamp+f.off, payload)
}

// write sends a packet; caller holds f.mu.
func (f *silenceFiller) write(ts uint32, payload []byte) (int, error) {
	f.seq++
	f.ts, f.at = ts, time.Now()
	b, err := (&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: ptOpus, SequenceNumber: f.seq, Timestamp: ts,
		SSRC: 0x636f6e66}, Payload: payload}).Marshal()
	if err != nil {
		return 0, err
	}
	return f.c.Write(b)
}

// fill sends silence every 20 ms while nothing was forwarded for 100 ms.
func (f *silenceFiller) fill() {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-f.done:
			return
		case <-t.C:
		}
		f.mu.Lock()
		if !f.begun && time.Since(f.created) >= noPicture {
			f.begun, f.at = true, time.Now()
		}
		if f.begun && time.Since(f.at) >= 100*time.Millisecond {
			f.live = false
			_, _ = f.write(f.ts+960, opusSilence)
		}
		f.mu.Unlock()
	}
}

func (f *silenceFiller) stop() { close(f.done) }

// video is the picture's writer: its first packet starts the sound.
func (f *silenceFiller) video(w sfu.RTPWriter) sfu.RTPWriter {
	return videoWriter{w: w, f: f}
}

type videoWriter struct {
	w sfu.RTPWriter
	f *silenceFiller
}

func (v videoWriter) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	v.f.mu.Lock()
	if !v.f.begun {
		v.f.begun, v.f.at = true, time.Now()
	}
	v.f.mu.Unlock()
	return v.w.WriteRTP(h, payload)
}
