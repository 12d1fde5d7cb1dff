package compose

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
)

// OutputSpec is one distinct output of a composition: its codec, size and
// bitrate. Receivers that want the same spec share one encoder.
type OutputSpec struct {
	MimeType      string // video/H264 or video/VP8
	Width, Height int    // even
	Bitrate       int    // bits per second
	PayloadType   uint8
}

// Sink receives an output's RTP packets (the SFU's composed track).
type Sink interface {
	WriteVideo(p *rtp.Packet)
}

// mtu is the largest RTP payload an output sends.
const mtu = 1200

// Output encodes the composed pictures of one spec in an ffmpeg process
// and packetizes them for its sink: one SSRC, sequence numbers and 90 kHz
// timestamps continuous for the output's life. KeyFrame starts a second
// encoder whose first frame is a key frame and switches to it once it
// delivers, so a key frame comes without a gap in the stream.
type Output struct {
	spec   OutputSpec
	ffmpeg string
	fps    int
	sink   Sink

	mu       sync.Mutex
	cur      *encoder
	next     *encoder // started by KeyFrame, takes over at its first frame
	lastKey  time.Time
	keyGap   time.Duration // KeyFrame restarts at most once a keyGap
	switches atomic.Uint64 // encoders replaced by KeyFrame
	closed   bool
	payload  rtp.Payloader
	ssrc     uint32
	seq      uint16
	t0       time.Time
	sent     atomic.Uint64 // frames sent
	keys     atomic.Uint64 // key frames sent
	dropped  atomic.Uint64 // composed pictures the encoder could not take
	pushed   atomic.Uint64
	lastSent atomic.Int64 // unix ns of the last frame sent
}

func newOutput(ffmpeg string, fps int, spec OutputSpec, sink Sink) (*Output, error) {
	spec.MimeType = strings.ToLower(spec.MimeType)
	if spec.MimeType != "video/h264" && spec.MimeType != "video/vp8" {
		return nil, fmt.Errorf("compose: no encoder for %s", spec.MimeType)
	}
	if spec.Width <= 0 || spec.Height <= 0 || spec.Width%2 != 0 || spec.Height%2 != 0 {
		return nil, fmt.Errorf("compose: output size %dx%d", spec.Width, spec.Height)
	}
	if spec.Bitrate <= 0 {
		spec.Bitrate = 1_500_000
	}
	o := &Output{spec: spec, ffmpeg: ffmpeg, fps: fps, sink: sink, t0: time.Now(), keyGap: time.Second}
	var b [6]byte
	_, _ = rand.Read(b[:])
	o.ssrc, o.seq = binary.BigEndian.Uint32(b[:4]), binary.BigEndian.Uint16(b[4:])
	if spec.MimeType == "video/h264" {
		o.payload = &codecs.H264Payloader{}
	} else {
		o.payload = &codecs.VP8Payloader{EnablePictureID: true}
	}
	e, err := o.startEncoder()
	if err != nil {
		return nil, err
	}
	o.cur, o.lastKey = e, time.Now()
	return o, nil
}

// Spec is the output's spec.
func (o *Output) Spec() OutputSpec { return o.spec }

// Stats are an output's counters: frames sent, key frames among them,
// composed pictures dropped because the encoder was behind.
func (o *Output) Stats() (sent, keys, dropped uint64) {
	return o.sent.Load(), o.keys.Load(), o.dropped.Load()
}

// KeyFrame makes the output send a key frame soon (a receiver's PLI), at
// most one a second.
func (o *Output) KeyFrame() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.next != nil || time.Since(o.lastKey) < o.keyGap {
		return
	}
	e, err := o.startEncoder()
	if err != nil {
		return
	}
	o.next, o.lastKey = e, time.Now()
}

// ready tells whether an encoder (the current one, or the one started by
// KeyFrame) can take a picture now.
func (o *Output) ready() bool {
	o.mu.Lock()
	cur, next := o.cur, o.next
	o.mu.Unlock()
	return cur != nil && cur.ready() || next != nil && next.ready()
}

// push gives the encoders a copy of one composed picture.
func (o *Output) push(f *Frame) { o.give(&f, false) }

// give gives the encoders one composed picture; with own, the current
// encoder may take *f itself and leave one of its free buffers in its
// place (of the same size, its content stale: the compositor draws every
// picture whole), which saves copying the picture.
func (o *Output) give(f **Frame, own bool) {
	o.mu.Lock()
	cur, next := o.cur, o.next
	o.mu.Unlock()
	o.pushed.Add(1)
	if next != nil {
		next.offer(f, false)
	}
	if cur != nil && !cur.offer(f, own) {
		o.dropped.Add(1)
	}
}

// Close stops the encoders.
func (o *Output) Close() {
	o.mu.Lock()
	o.closed = true
	cur, next := o.cur, o.next
	o.cur, o.next = nil, nil
	o.mu.Unlock()
	for _, e := range []*encoder{cur, next} {
		if e != nil {
			e.stop()
		}
	}
}

// deliver is called with each encoded frame of e: frames of the current
// encoder are sent; the first of the next one makes it current.
func (o *Output) deliver(e *encoder, frame []byte, key bool) {
	o.mu.Lock()
	var old *encoder
	switch {
	case e == o.next && key:
		old, o.cur, o.next = o.cur, e, nil
		o.switches.Add(1)
	case e != o.cur:
		o.mu.Unlock()
		return
	}
	ts := uint32(time.Since(o.t0).Seconds() * 90000)
	var pkts []*rtp.Packet
	payloads := o.payload.Payload(mtu, frame)
	for i, pl := range payloads {
		pkts = append(pkts, &rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: o.spec.PayloadType, SSRC: o.ssrc,
			SequenceNumber: o.seq, Timestamp: ts, Marker: i == len(payloads)-1}, Payload: pl})
		o.seq++
	}
	o.mu.Unlock()
	if old != nil {
		go old.stop()
	}
	for _, p := range pkts {
		o.sink.WriteVideo(p)
	}
	o.sent.Add(1)
	if key {
		o.keys.Add(1)
	}
	o.lastSent.Store(time.Now().UnixNano())
}

// encoder is one ffmpeg process encoding an output. Its pictures go to
// ffmpeg by vmsplice where the pipe allows it (splice): the pipe then
// refers to the picture's memory instead of copying it, which halves the
// copying of raw pictures on the way to the encoder; a buffer given to the
// pipe is reused only once the next picture has been given too, when
// the pipe (never larger than a picture) no longer holds any of it.
type encoder struct {
	p      *process
	o      *Output
	splice bool
	size   int // bytes of a picture
	mu     sync.Mutex
	cond   *sync.Cond
	buf    *Frame   // the picture waiting to be written (while another may be), nil none
	spare  []*Frame // buffers to copy the next picture into
	held   *Frame   // the last picture spliced, maybe still in the pipe
	made   int      // buffers allocated
	done   bool
}

// encoderBuffers is how many picture buffers an encoder uses: one being
// written, one held by the pipe, one waiting to be written, one to give
// the compositor for the next picture in exchange for the one it gives.
const encoderBuffers = 4

// startEncoder runs ffmpeg reading raw I420 pictures and writing H.264
// (Annex-B, an access unit delimiter before each picture, constrained
// baseline as room systems take it) or VP8 (IVF), tuned for real time: no
// look-ahead, no B-frames, a key frame at least every two seconds.
func (o *Output) startEncoder() (*encoder, error) {
	s := o.spec
	size := strconv.Itoa(s.Width) + "x" + strconv.Itoa(s.Height)
	br := strconv.Itoa(s.Bitrate)
	gop := strconv.Itoa(2 * o.fps)
	args := []string{"-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", size, "-r", strconv.Itoa(o.fps), "-i", "pipe:0", "-an"}
	if s.MimeType == "video/h264" {
		// FLV frames each picture: the Annex-B stream has no end of an
		// access unit but the next one's start, a picture later.
		args = append(append(args, x264Args(s.Bitrate, 2*o.fps)...), "-f", "flv", "-flvflags", "no_duration_filesize")
	} else {
		args = append(args, "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-lag-in-frames", "0",
			"-error-resilient", "1", "-auto-alt-ref", "0", "-threads", "1", "-b:v", br, "-g", gop, "-f", "ivf")
	}
	args = append(args, "-fps_mode", "passthrough", "-flush_packets", "1", "pipe:1")
	frame := s.Width * s.Height * 3 / 2
	pipe := rawPipe
	for pipe > frame {
		pipe /= 2 // never larger than a picture, so that splicing is safe
	}
	p, err := start(o.ffmpeg, pipe, false, args...)
	if err != nil {
		return nil, err
	}
	e := &encoder{p: p, o: o, size: frame}
	if n := pipeSize(p.stdin); n > 0 && n <= frame {
		e.splice = true
	}
	e.cond = sync.NewCond(&e.mu)
	go e.writeLoop()
	if s.MimeType == "video/h264" {
		go e.readFLV()
	} else {
		go e.readIVF()
	}
	return e, nil
}

// x264Args are the H.264 encoder's settings (BenchmarkFourPanes gives
// its ffmpeg reference the same): x264 veryfast, zerolatency, constrained
// baseline, the bitrate capped with a half-second buffer, a key frame
// every gop pictures, an access unit delimiter before each picture, one
// thread (a composition is one of many on a node: threads would add
// overhead, not capacity).
func x264Args(bitrate, gop int) []string {
	br := strconv.Itoa(bitrate)
	return []string{"-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-profile:v", "baseline",
		"-b:v", br, "-maxrate", br, "-bufsize", strconv.Itoa(bitrate / 2), "-g", strconv.Itoa(gop),
		"-x264-params", "aud=1:sliced-threads=0:threads=1"}
}

// offer copies *fp for the encoder, or with own takes it and leaves a
// free buffer in its place, unless a picture is already waiting to be
// written (false: dropped). One picture may wait while the last one is
// written: an encoder slowed for a moment (a busy machine) then catches
// up instead of losing the picture.
func (e *encoder) ready() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return !e.done && e.buf == nil && (len(e.spare) > 0 || e.made < encoderBuffers)
}

func (e *encoder) offer(fp **Frame, own bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	f := *fp
	if e.done || e.buf != nil || f.W != e.o.spec.Width || f.H != e.o.spec.Height {
		return false
	}
	var b *Frame
	if n := len(e.spare); n > 0 {
		b, e.spare = e.spare[n-1], e.spare[:n-1]
	} else if e.made < encoderBuffers {
		b = NewFrame(f.W, f.H)
		e.made++
	} else {
		return false
	}
	if own {
		e.buf, *fp = f, b
	} else {
		copy(b.Bytes(), f.Bytes())
		e.buf = b
	}
	e.cond.Signal()
	return true
}

func (e *encoder) writeLoop() {
	for {
		e.mu.Lock()
		for e.buf == nil && !e.done {
			e.cond.Wait()
		}
		if e.done {
			e.mu.Unlock()
			return
		}
		f := e.buf
		e.buf = nil // the next picture may wait while this one is written
		e.mu.Unlock()
		var err error
		if e.splice {
			err = vmsplice(e.p.stdin, f.Bytes())
		} else {
			_, err = e.p.stdin.Write(f.Bytes())
		}
		e.mu.Lock()
		if e.splice {
			// The pipe holds less than a picture: now that all of f
			// is in it, nothing of the one before is.
			if e.held != nil {
				e.spare = append(e.spare, e.held)
			}
			e.held = f
		} else {
			e.spare = append(e.spare, f)
		}
		e.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (e *encoder) stop() {
	e.mu.Lock()
	e.done = true
	e.cond.Broadcast()
	e.mu.Unlock()
	e.p.stop()
}

// readFLV reads the H.264 pictures of an FLV stream, each a video tag,
// and delivers each as an Annex-B access unit the moment its tag is
// complete; a key frame gets the stream's SPS and PPS (from the AVC
// sequence header) after its delimiter, as a receiver joining needs.
func (e *encoder) readFLV() {
	r := e.p.stdout
	hdr := make([]byte, 13) // the file header and the first previous tag size
	if _, err := io.ReadFull(r, hdr); err != nil || string(hdr[:3]) != "FLV" {
		return
	}
	if skip := int(binary.BigEndian.Uint32(hdr[5:9])) - 9; skip > 0 {
		if _, err := r.Discard(skip); err != nil {
			return
		}
	}
	var params []byte // SPS and PPS in Annex-B
	lenSize := 4
	th := make([]byte, 11)
	var data []byte
	for {
		if _, err := io.ReadFull(r, th); err != nil {
			return
		}
		n := int(th[1])<<16 | int(th[2])<<8 | int(th[3])
		if cap(data) < n+4 {
			data = make([]byte, n+4)
		}
		data = data[:n+4] // the tag's data and the next previous tag size
		if _, err := io.ReadFull(r, data); err != nil {
			return
		}
		d := data[:n]
		if th[0]&0x1f != 9 || len(d) < 5 || d[0]&0x0f != 7 {
			continue // not AVC video (the metadata)
		}
		key, body := d[0]>>4 == 1, d[5:]
		switch d[1] {
		case 0: // AVCDecoderConfigurationRecord
			params, lenSize = avcParams(body)
		case 1:
			au := annexB(body, lenSize, params, key)
			if au != nil {
				e.o.deliver(e, au, key || h264IDR(au))
			}
		}
	}
}

// avcParams returns the SPS and PPS of an AVCDecoderConfigurationRecord
// in Annex-B, and the size of its NAL unit lengths.
func avcParams(c []byte) ([]byte, int) {
	if len(c) < 6 {
		return nil, 4
	}
	lenSize := int(c[4]&3) + 1
	var out []byte
	i, sets := 5, int(c[5]&0x1f)
	i++
	for pass := 0; pass < 2; pass++ {
		for k := 0; k < sets; k++ {
			if i+2 > len(c) {
				return out, lenSize
			}
			l := int(binary.BigEndian.Uint16(c[i:]))
			if i+2+l > len(c) {
				return out, lenSize
			}
			out = append(append(out, 0, 0, 0, 1), c[i+2:i+2+l]...)
			i += 2 + l
		}
		if pass == 0 {
			if i >= len(c) {
				return out, lenSize
			}
			sets = int(c[i])
			i++
		}
	}
	return out, lenSize
}

// annexB converts length-prefixed NAL units to an Annex-B access unit,
// with params after its delimiter when key; nil when malformed.
func annexB(b []byte, lenSize int, params []byte, key bool) []byte {
	out := make([]byte, 0, len(b)+len(params)+16)
	first := true
	for len(b) > 0 {
		if len(b) < lenSize {
			return nil
		}
		l := 0
		for _, x := range b[:lenSize] {
			l = l<<8 | int(x)
		}
		b = b[lenSize:]
		if l > len(b) || l == 0 {
			return nil
		}
		nal := b[:l]
		b = b[l:]
		if key && first && nal[0]&0x1f != 9 {
			out = append(out, params...) // no delimiter: the parameters first
			key = false
		}
		out = append(append(out, 0, 0, 0, 1), nal...)
		if key && first {
			out = append(out, params...) // after the delimiter
			key = false
		}
		first = false
	}
	return out
}

// audAt is the offset of the first access unit delimiter (a 4-byte start
// code and NAL type 9) at or after from, -1 when none.
func audAt(b []byte, from int) int {
	if from > len(b) {
		return -1
	}
	i := bytes.Index(b[from:], []byte{0, 0, 0, 1, 9})
	if i < 0 {
		return -1
	}
	return from + i
}

// readIVF reads the VP8 frames of an IVF stream.
func (e *encoder) readIVF() {
	r := e.p.stdout
	if _, err := r.Discard(32); err != nil {
		return
	}
	hdr := make([]byte, 12)
	for {
		if _, err := io.ReadFull(r, hdr); err != nil {
			return
		}
		frame := make([]byte, binary.LittleEndian.Uint32(hdr))
		if _, err := io.ReadFull(r, frame); err != nil {
			return
		}
		e.o.deliver(e, frame, len(frame) > 0 && frame[0]&1 == 0)
	}
}
