package compose

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
)

// Input is one pane source: the RTP video of one terminal (VP8 or H.264),
// reassembled into frames and decoded by an ffmpeg process into I420
// pictures, of which the compositor takes the latest. It implements the
// SFU's RTPWriter. A lost packet drops the frame and asks the source for a
// key frame (KeyFrame); nothing is decoded until one arrives, so a broken
// picture is never shown.
type Input struct {
	ffmpeg   string
	pts      map[uint8]string // payload type -> lower-case MIME type
	keyFrame func()

	mu       sync.Mutex  // reassembly, in the writer's goroutine
	target   image.Point // the largest pane the input fills (0: unknown): its decoder scales down to it
	decSize  image.Point // the target the running decoder scales to
	decForm  []byte      // the running decoder's stream format (keyForm)
	mime     string
	depack   rtp.Depacketizer // VP8
	h264     h264Depack
	dec      *decoder
	frame    []byte
	seq      uint16
	started  bool
	needKey  bool
	lastAsk  time.Time
	frameLen int
	// H.264: the latest sequence and picture parameter sets seen (NAL
	// units without start codes), whether inside an IDR's access unit
	// or apart from it: an IDR that comes without them (a terminal that
	// sends them as an access unit of their own, or once for its
	// stream) is compared and decoded with them.
	sps []byte
	pps [][]byte
	// H.264: the parameter sets the source's SDP announces
	// (sprop-parameter-sets, SourceFormat), used where none came in band:
	// a room system or SIP phone that sends them only there.
	spropSPS []byte
	spropPPS [][]byte

	pics   pictures
	comp   *Compositor   // the compositor whose input it is (nil: on its own)
	dir    directPane    // its pane in comp's canvas (direct.go), under comp.cmu
	frames atomic.Uint64 // pictures decoded
	closed atomic.Bool
}

// picture is a decoded frame, when it came, and who holds it: the input
// while it is the latest, and each composition drawing it. A decoded
// picture's buffer goes back to the input's free list when nobody holds
// it, so decoding allocates nothing once running (four 640×360 panes at
// 30 fps would otherwise allocate 40 MB/s for the garbage collector).
type picture struct {
	f      *Frame
	at     time.Time
	refs   int  // guarded by pictures.mu
	pooled bool // its buffer is the input's (a decoded picture)
}

// pictures are an input's latest picture and its free buffers.
type pictures struct {
	mu     sync.Mutex
	latest *picture
	free   []*Frame
}

// maxFree is how many spare picture buffers an input keeps.
const maxFree = 4

// buffer returns a w×h frame to decode into: a free one, else a new one.
func (ps *pictures) buffer(w, h int) *Frame {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for len(ps.free) > 0 {
		f := ps.free[len(ps.free)-1]
		ps.free = ps.free[:len(ps.free)-1]
		if f.W == w && f.H == h {
			return f
		}
	}
	buf := make([]byte, w*h*3/2)
	return &Frame{W: w, H: h, Y: buf[:w*h], U: buf[w*h : w*h*5/4], V: buf[w*h*5/4:]}
}

// set makes p the latest picture.
func (ps *pictures) set(p *picture) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p.refs = 1
	old := ps.latest
	ps.latest = p
	if old != nil {
		ps.unref(old)
	}
}

// acquire returns the latest picture, held until release; nil none.
func (ps *pictures) acquire() *picture {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p := ps.latest
	if p != nil {
		p.refs++
	}
	return p
}

func (ps *pictures) release(p *picture) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.unref(p)
}

// unref drops one hold of p; caller holds ps.mu.
func (ps *pictures) unref(p *picture) {
	p.refs--
	if p.refs == 0 && p.pooled && len(ps.free) < maxFree {
		ps.free = append(ps.free, p.f)
	}
}

// NewInput returns an input for payload types pts (MIME types such as
// video/VP8, video/H264) decoded by ffmpeg (FindFFmpeg's path); keyFrame
// asks the source for a key frame. A compositor makes its own (Input);
// on its own it decodes a composed picture as a receiver would.
func NewInput(ffmpeg string, pts map[uint8]string, keyFrame func()) *Input {
	in := &Input{ffmpeg: ffmpeg, pts: map[uint8]string{}, keyFrame: keyFrame, needKey: true}
	for pt, m := range pts {
		in.pts[pt] = strings.ToLower(m)
	}
	return in
}

// Latest is a copy of the newest decoded picture and when it was
// decoded, nil before the first.
func (in *Input) Latest() (*Frame, time.Time) {
	if c := in.comp; c != nil {
		c.cmu.Lock()
		d := in.dir
		var src *Frame
		switch {
		case !d.on || d.scaled:
		case d.fresh:
			src = c.next
		case d.inPrev:
			src = c.prev
		}
		if src != nil {
			defer c.cmu.Unlock()
			return region(src, d.rect), d.at
		}
		c.cmu.Unlock()
	}
	p := in.pics.acquire()
	if p == nil {
		return nil, time.Time{}
	}
	defer in.pics.release(p)
	f := NewFrame(p.f.W, p.f.H)
	copy(f.Bytes(), p.f.Bytes())
	return f, p.at
}

// Frames is the number of pictures decoded so far.
func (in *Input) Frames() uint64 { return in.frames.Load() }

// SetFrame shows f as the input's picture (a source that is already raw).
func (in *Input) SetFrame(f *Frame) {
	in.frames.Add(1)
	if in.comp != nil && in.comp.directPicture(in, f, false) {
		return
	}
	in.pics.set(&picture{f: f, at: time.Now()})
}

// decoded takes a picture its decoder read into one of its buffers.
func (in *Input) decoded(f *Frame) {
	in.frames.Add(1)
	if in.comp != nil && in.comp.directPicture(in, f, true) {
		return
	}
	in.pics.set(&picture{f: f, at: time.Now(), pooled: true})
}

// SourceFormat tells the input the codec and SDP fmtp parameters of the
// source whose packets come next (sfu.FormatWriter: the SFU calls it
// before the first packet of each source it forwards). For H.264 the
// parameter sets of sprop-parameter-sets (RFC 6184 section 8.1) are used
// where the stream has not carried its own: a terminal that announces
// its SPS and PPS only in its SDP is decoded from its first IDR. Sets
// that differ from the last told are another stream's: the parameter
// sets seen in band before are forgotten.
func (in *Input) SourceFormat(mime, fmtp string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	var sps []byte
	var pps [][]byte
	if strings.EqualFold(mime, "video/h264") {
		sps, pps = spropParameterSets(fmtp)
	}
	if bytes.Equal(sps, in.spropSPS) && slices.EqualFunc(pps, in.spropPPS, bytes.Equal) {
		return
	}
	in.spropSPS, in.spropPPS = sps, pps
	in.sps, in.pps = nil, nil
}

// spropParameterSets returns the SPS and PPS (NAL units without start
// codes) of an H.264 fmtp line's sprop-parameter-sets: base64 NAL units
// separated by commas (padding optional, as some terminals leave it
// out), told apart by their NAL unit type; nil when it has none.
func spropParameterSets(fmtp string) (sps []byte, pps [][]byte) {
	for _, kv := range strings.Split(fmtp, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		if !strings.EqualFold(strings.TrimSpace(k), "sprop-parameter-sets") {
			continue
		}
		for _, set := range strings.Split(v, ",") {
			nal, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(set), "="))
			if err != nil || len(nal) < 2 {
				continue
			}
			switch nal[0] & 0x1f {
			case 7:
				if sps == nil {
					sps = nal
				}
			case 8:
				pps = append(pps, nal)
			}
		}
	}
	return sps, pps
}

// params are the H.264 parameter sets an IDR lacking its own is decoded
// with: the last seen in band, else those of the source's SDP; caller
// holds in.mu.
func (in *Input) params() (sps []byte, pps [][]byte) {
	sps, pps = in.sps, in.pps
	if sps == nil {
		sps = in.spropSPS
	}
	if len(pps) == 0 {
		pps = in.spropPPS
	}
	return sps, pps
}

// WriteRTP takes one RTP packet of the source (sfu.RTPWriter).
func (in *Input) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed.Load() {
		return 0, nil
	}
	mime, ok := in.pts[h.PayloadType]
	if !ok || len(payload) == 0 {
		return len(payload), nil
	}
	if mime != in.mime {
		in.stopDecoder()
		in.mime, in.needKey, in.frame, in.depack, in.h264 = mime, true, in.frame[:0], nil, h264Depack{}
		in.sps, in.pps = nil, nil
	}
	if in.started && h.SequenceNumber != in.seq+1 {
		in.lost()
	}
	in.started, in.seq = true, h.SequenceNumber
	switch mime {
	case "video/h264":
		var err error
		if in.frame, err = in.h264.append(in.frame, payload); err != nil {
			in.lost()
			return len(payload), nil
		}
	case "video/vp8":
		if in.depack == nil {
			in.depack = &codecs.VP8Packet{}
		}
		if len(in.frame) > 0 && in.depack.IsPartitionHead(payload) {
			in.frame = in.frame[:0] // a new frame without the last one's marker
		}
		part, err := in.depack.Unmarshal(payload)
		if err != nil {
			in.lost()
			return len(payload), nil
		}
		in.frame = append(in.frame, part...)
	default:
		return len(payload), nil
	}
	if h.Marker {
		in.complete(in.frame)
		in.frame = in.frame[:0]
	}
	return len(payload), nil
}

// lost drops the frame being assembled and waits for a key frame; caller
// holds in.mu.
func (in *Input) lost() {
	in.frame = in.frame[:0]
	in.needKey = true
	in.h264 = h264Depack{} // drops a partial FU-A
	in.askKey()
}

// askKey asks the source for a key frame, at most every 500 ms.
func (in *Input) askKey() {
	if now := time.Now(); in.keyFrame != nil && now.Sub(in.lastAsk) > 500*time.Millisecond {
		in.lastAsk = now
		go in.keyFrame()
	}
}

// complete passes one whole frame to the decoder; caller holds in.mu.
func (in *Input) complete(f []byte) {
	var key bool
	var form []byte
	if in.mime == "video/h264" {
		u := scanH264(f)
		if u.sps != nil {
			in.sps = append(in.sps[:0], u.sps...)
		}
		if len(u.pps) > 0 {
			in.pps = in.pps[:0]
			for _, p := range u.pps {
				in.pps = append(in.pps, bytes.Clone(p))
			}
		}
		if !u.slice {
			// Parameter sets alone: kept for the next IDR; a running
			// decoder of the same stream gets them too (a new PPS
			// between pictures), not one whose size they change.
			if in.dec != nil && !in.needKey && !in.dec.dead() && (u.sps == nil || bytes.Equal(u.sps, in.decForm)) {
				in.dec.push(f)
			}
			return
		}
		key = u.idr
		if sps, pps := in.params(); key && sps != nil {
			form = sps
			if u.sps == nil || len(u.pps) == 0 {
				if u.sps != nil {
					sps = nil
				}
				if len(u.pps) > 0 {
					pps = nil
				}
				f = withParams(f, sps, pps)
			}
		}
	} else {
		key = len(f) > 0 && f[0]&1 == 0
		if key {
			form = keyForm(in.mime, f)
		}
	}
	if in.needKey && !key {
		in.askKey()
		return
	}
	switch {
	case in.dec == nil:
	case key && in.decSize != in.target:
		in.stopDecoder() // its pane changed size: a decoder of the new size from this key frame on
	case key && form != nil && !bytes.Equal(form, in.decForm):
		// The source's size may have changed (a camera reconfigured, a
		// simulcast layer switch): ffmpeg would scale every picture to
		// its first picture's size, so a decoder of the new stream.
		in.stopDecoder()
	case in.dec.dead() && !key:
		in.stopDecoder() // a new decoder must start at a key frame
		in.needKey = true
		in.askKey()
		return
	}
	if in.dec == nil || in.dec.dead() {
		in.stopDecoder()
		d, err := startDecoder(in.ffmpeg, in.mime, in, in.target)
		if err != nil {
			return
		}
		in.dec, in.decSize = d, in.target
		in.decForm = append(in.decForm[:0], form...)
	}
	in.needKey = false
	if !in.dec.push(f) {
		in.needKey = true // the decoder is behind: start again at a key frame
		in.askKey()
	}
}

// setTarget sets the size of the largest pane the input fills: its
// decoder scales its pictures down to it (never up), so that the pipe
// carries pane-sized pictures and the composition copies rows instead of
// scaling; a running decoder of another size is replaced at the next key
// frame (asked for), its pictures scaled by the composition meanwhile.
func (in *Input) setTarget(p image.Point) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.target == p {
		return
	}
	in.target = p
	if in.dec != nil && in.decSize != p {
		in.askKey()
	}
}

// Close stops the decoder.
func (in *Input) Close() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.closed.Store(true)
	in.stopDecoder()
}

func (in *Input) stopDecoder() {
	if in.dec != nil {
		go in.dec.stop()
		in.dec = nil
	}
}

// h264Unit is what an H.264 access unit holds: its SPS and PPS (NAL
// units without start codes, pointing into the unit), whether it has a
// slice and whether its first slice is an IDR's.
type h264Unit struct {
	sps        []byte
	pps        [][]byte
	slice, idr bool
}

// scanH264 reads the NAL unit headers of an Annex-B access unit, up to
// its first slice (the parameter sets come before it).
func scanH264(f []byte) h264Unit {
	var u h264Unit
	start := -1 // the NAL unit being read
	end := func(i int) []byte { return bytes.TrimRight(f[start:i], "\x00") }
	for i := 0; i+3 <= len(f); i++ {
		if f[i] != 0 || f[i+1] != 0 || f[i+2] != 1 {
			continue
		}
		if start >= 0 {
			switch f[start] & 0x1f {
			case 7:
				u.sps = end(i)
			case 8:
				u.pps = append(u.pps, end(i))
			}
		}
		start = i + 3
		if start >= len(f) {
			return u
		}
		if t := f[start] & 0x1f; t >= 1 && t <= 5 {
			u.slice, u.idr = true, t == 5
			return u
		}
		i += 2
	}
	if start >= 0 && start < len(f) {
		switch f[start] & 0x1f {
		case 7:
			u.sps = f[start:]
		case 8:
			u.pps = append(u.pps, f[start:])
		}
	}
	return u
}

// withParams returns the IDR access unit f with sps (nil: none) and the
// PPS of pps put before its NAL units (after its delimiter).
func withParams(f, sps []byte, pps [][]byte) []byte {
	head := 0
	if bytes.HasPrefix(f, aud[:5]) && len(f) >= 6 {
		head = 6
	}
	out := make([]byte, 0, len(f)+len(sps)+64)
	out = append(out, f[:head]...)
	if sps != nil {
		out = append(append(out, startCode...), sps...)
	}
	for _, p := range pps {
		out = append(append(out, startCode...), p...)
	}
	return append(out, f[head:]...)
}

// h264IDR tells whether an Annex-B access unit holds an IDR slice.
func h264IDR(f []byte) bool {
	for i := 0; i+3 < len(f); i++ {
		if f[i] == 0 && f[i+1] == 0 && f[i+2] == 1 {
			if t := f[i+3] & 0x1f; t >= 1 && t <= 5 {
				return t == 5 // the first slice says (all of a picture's are alike)
			}
			i += 2
		}
	}
	return false
}

// keyForm is what a key frame says of its stream's format, nil when it
// says nothing: the size bytes of a VP8 key frame header (RFC 6386 9.1),
// the sequence parameter set of an H.264 IDR access unit (its picture
// size among them; ITU-T H.264 7.3.2.1.1), compared byte for byte.
func keyForm(mime string, f []byte) []byte {
	if mime == "video/vp8" {
		if len(f) >= 10 && f[3] == 0x9d && f[4] == 0x01 && f[5] == 0x2a {
			return f[6:10]
		}
		return nil
	}
	for i := 0; i+3 < len(f); i++ {
		if f[i] != 0 || f[i+1] != 0 || f[i+2] != 1 {
			continue
		}
		if f[i+3]&0x1f != 7 {
			i += 2
			continue
		}
		sps := f[i+3:]
		if end := bytes.Index(sps, []byte{0, 0, 1}); end >= 0 {
			sps = bytes.TrimRight(sps[:end], "\x00") // a 4-byte start code's leading zero
		}
		return sps
	}
	return nil
}

// decoder is the ffmpeg process decoding one input.
type decoder struct {
	p     *process
	queue chan []byte
	n     uint64
	gone  atomic.Bool
	ivf   bool
	once  sync.Once
}

// decoderQueue is how many frames may wait for the decoder before frames
// are dropped (and a key frame asked for).
const decoderQueue = 8

// startDecoder runs ffmpeg reading VP8 in IVF or H.264 Annex-B on its
// input and writing I420 in YUV4MPEG2 at the source's size, or down to
// target; threads 1 and low_delay keep it from holding frames back.
// Not -fflags nobuffer: it drops the packets ffmpeg reads while probing
// its input, which here are the key frame the decoder starts at
// (TestFirstKeyFrameIsDecoded); with -probesize 32 and -analyzeduration
// 0 the probe holds nothing back once started.
func startDecoder(ffmpeg, mime string, in *Input, target image.Point) (*decoder, error) {
	format := "h264"
	if mime == "video/vp8" {
		format = "ivf"
	}
	// -filter_threads 1: the filters (the scaling) run in the decoder's
	// one thread; swscale's slices spread over a pool of a thread per
	// core cost more than they save for a pane (about 8 % of a decoder
	// scaling 640×360 to 426×240, nothing when it passes pictures
	// through; docs/benchmarks/compose.md 2026-12-06 12:22).
	args := []string{"-filter_threads", "1", "-threads", "1", "-flags", "low_delay",
		"-probesize", "32", "-analyzeduration", "0", "-f", format, "-i", "pipe:0", "-an"}
	if target.X > 0 && target.Y > 0 {
		// Down to the pane (swscale's default bicubic), never up, even.
		args = append(args, "-vf", fmt.Sprintf("scale=w='trunc(min(iw,%d)/2)*2':h='trunc(min(ih,%d)/2)*2'", target.X, target.Y))
	}
	args = append(args, "-fps_mode", "passthrough", "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", "-flush_packets", "1", "pipe:1")
	p, err := start(ffmpeg, 0, true, args...)
	if err != nil {
		return nil, err
	}
	d := &decoder{p: p, queue: make(chan []byte, decoderQueue)}
	if format == "ivf" {
		hdr := make([]byte, 32)
		copy(hdr, "DKIF")
		binary.LittleEndian.PutUint16(hdr[6:], 32)
		copy(hdr[8:], "VP80")
		binary.LittleEndian.PutUint16(hdr[12:], 640)
		binary.LittleEndian.PutUint16(hdr[14:], 360)
		binary.LittleEndian.PutUint32(hdr[16:], 30)
		binary.LittleEndian.PutUint32(hdr[20:], 1)
		d.queue <- hdr
	}
	ivf := format == "ivf"
	go func() {
		defer d.gone.Store(true)
		for f := range d.queue {
			if _, err := p.stdin.Write(f); err != nil {
				return
			}
		}
		_ = p.stdin.Close()
	}()
	var direct func(w, h int) (bool, error)
	if c := in.comp; c != nil && p.pictures.rc != nil {
		direct = func(w, h int) (bool, error) {
			handled, err := c.readDirect(in, p.pictures, w, h)
			if handled && err == nil {
				in.frames.Add(1)
			}
			return handled, err
		}
	}
	go func() {
		defer d.gone.Store(true)
		_ = readY4M(p.pictures, in.pics.buffer, in.decoded, direct)
	}()
	d.ivf = ivf
	return d, nil
}

func (d *decoder) dead() bool { return d.gone.Load() }

// push queues one frame; false when the queue is full (dropped).
func (d *decoder) push(f []byte) bool {
	var b []byte
	if d.ivf {
		b = make([]byte, 12+len(f))
		binary.LittleEndian.PutUint32(b, uint32(len(f)))
		binary.LittleEndian.PutUint64(b[4:], d.n)
		copy(b[12:], f)
	} else {
		// ffmpeg's H.264 parser ends an access unit only when it sees
		// the next one begin: an access unit delimiter after each frame
		// ends it at once, instead of a picture later (33 ms at 30 fps).
		// The frame's own delimiter, if any, is then redundant.
		if len(f) >= 6 && bytes.HasPrefix(f, aud[:5]) {
			f = f[6:]
		}
		b = make([]byte, 0, len(f)+len(aud))
		b = append(append(b, f...), aud...)
	}
	select {
	case d.queue <- b:
		d.n++
		return true
	default:
		return false
	}
}

// aud is an H.264 access unit delimiter (any picture type).
var aud = []byte{0, 0, 0, 1, 9, 0xf0}

// stop ends the process; the input no longer pushes to it.
func (d *decoder) stop() {
	d.once.Do(func() { close(d.queue) })
	d.p.stop()
}
