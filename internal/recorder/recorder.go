// Package recorder records RTP streams into a WebM or Matroska file
// without decoding them (docs/recording.md): each stream (the main video,
// the dual video, the audio) is a track of one file; frames are taken out
// of RTP with pion's depacketizers and samplebuilder and written with
// at-wat/ebml-go. A Recorder is fed by the SFU through Writer (the
// in-process endpoint's AudioOut and VideoOut), and stops on its own when
// the disk or the configured quota is full.
package recorder

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4/pkg/media/samplebuilder"
)

// Errors a recording stops with on its own (Recorder.Err).
var (
	ErrDiskFull = errors.New("recorder: the disk or the recording quota is full")
	ErrWrite    = errors.New("recorder: writing the file failed")
	ErrStopped  = errors.New("recorder: the recording is stopped")
)

// Track is one stream of a recording.
type Track struct {
	Name      string // "main", "dual", "audio": the track's name in the file
	MimeType  string // video/VP8, video/VP9, video/H264, audio/opus
	ClockRate uint32 // RTP clock rate; 90000 video, 48000 Opus when 0
	Channels  uint16 // audio channels; 2 when 0
	// PayloadTypes, when set, lets the track carry one of several codecs
	// (payload type: MIME type): the first packet chooses it, packets of
	// another codec are dropped; MimeType is the codec declared when no
	// packet chose before the header was written.
	PayloadTypes map[uint8]string
}

// Options configure a recording.
type Options struct {
	Path   string  // the file, created (never overwritten)
	Tracks []Track // at least one
	Clock  clock.Clock
	// MaxBytes stops the recording before the file grows past it (0: no
	// quota); MinFree stops it when the file system has less free space
	// (0: only a failed write stops it). Free reads the free space;
	// DiskFree when nil.
	MaxBytes int64
	MinFree  int64
	Free     func(path string) (int64, error)
	// KeyFrame asks the sources for a key frame: at the start, after a
	// resume, and when frames were lost. It is called on the recording's
	// own goroutine, never inside WriteRTP or with the recording's lock
	// held (the SFU writes into the recording through a down track that
	// KeyFrame reaches: docs/sfu-internals.md "Lock discipline"). May be nil.
	KeyFrame func()
	// OnWrite reports bytes written (metrics); may be nil.
	OnWrite func(n int64)
}

// The free disk space is read every freeCheckEvery bytes and at least
// every freeCheckPeriod. quotaReserve is kept free under the quota for the
// end of the file (the last cluster); MinQuota is the least quota that
// holds a header.
const (
	freeCheckEvery  = 1 << 20
	freeCheckPeriod = time.Second
	quotaReserve    = 16 << 10
	MinQuota        = headerEstimate + quotaReserve + 64<<10
)

// Stats describes a recording's file.
type Stats struct {
	Bytes      int64
	Duration   time.Duration // media time from the first to the last frame
	Width      int           // of the main (first) video track; 0 without video
	Height     int
	VideoCodec string // "VP8", "VP9", "H264", "" without video
	AudioCodec string // "opus", "" without audio
	Container  string // "webm" or "matroska"
}

// Recorder is a running recording.
type Recorder struct {
	opt Options

	mu       sync.Mutex
	mux      *muxer
	in       []*input
	paused   bool
	started  bool
	start    time.Time // clock time of the first packet
	stopped  bool
	err      error     // why the recording stopped on its own
	written  int64     // bytes at the last free-space check
	checked  time.Time // clock time of the last free-space check
	reported int64     // bytes reported through OnWrite
	stats    Stats
	done     chan struct{}
	keyReq   chan struct{} // a key frame request for keyFrames (1 pending at most)
}

// input is one track's depacketization.
type input struct {
	r       *Recorder
	i       int
	c       codec
	rate    uint32
	sb      *samplebuilder.SampleBuilder
	haveTS  bool
	lastTS  uint32
	ts      int64 // the RTP timestamp unwrapped, from the track's first sample
	baseMs  int64 // ms of the track's first sample on the recording's clock
	lastMs  int64
	needKey bool
	lastPLI time.Time
	chosen  bool   // the codec was chosen by a packet (Track.PayloadTypes)
	mime    string // the chosen codec, lower case
}

// maxLate is how many packets the samplebuilder waits for a missing one,
// maxLateTime how much media: a frame whose packet is lost is given up
// after maxLateTime rather than holding what follows in memory, where a
// crash would lose it (docs/recording.md "How a recording records").
const (
	maxLate     = 256
	maxLateTime = 500 * time.Millisecond
)

// newSampleBuilder makes the samplebuilder of a track.
func newSampleBuilder(c codec, rate uint32) *samplebuilder.SampleBuilder {
	return samplebuilder.New(maxLate, c.depacketizer(), rate, samplebuilder.WithMaxTimeDelay(maxLateTime))
}

// Start creates the file and returns the running recording.
func Start(o Options) (*Recorder, error) {
	if len(o.Tracks) == 0 {
		return nil, errors.New("recorder: no track to record")
	}
	if o.MaxBytes > 0 && o.MaxBytes < MinQuota {
		return nil, fmt.Errorf("recorder: a quota of %d bytes is less than the least, %d", o.MaxBytes, MinQuota)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Free == nil {
		o.Free = DiskFree
	}
	out, err := createFile(o.Path)
	if err != nil {
		return nil, err
	}
	m, err := newMuxer(out, o.Tracks)
	if err != nil {
		out.Close()
		return nil, err
	}
	r := &Recorder{opt: o, mux: m, done: make(chan struct{}), keyReq: make(chan struct{}, 1)}
	for i, t := range m.tracks {
		rate := t.spec.ClockRate
		if rate == 0 {
			rate = 90000
			if !t.c.video {
				rate = 48000
			}
		}
		in := &input{r: r, i: i, c: t.c, rate: rate, needKey: t.c.video}
		in.sb = newSampleBuilder(t.c, rate)
		r.in = append(r.in, in)
	}
	if o.KeyFrame != nil {
		go r.keyFrames()
	}
	r.askKey()
	return r, nil
}

// keyFrames calls Options.KeyFrame for each request until the recording
// stops: requests are handed over here so that no lock is held while the
// source is asked.
func (r *Recorder) keyFrames() {
	for {
		select {
		case <-r.keyReq:
			r.opt.KeyFrame()
		case <-r.done:
			return
		}
	}
}

// askKey requests a key frame from the sources; it never blocks, and a
// request already pending covers this one.
func (r *Recorder) askKey() {
	select {
	case r.keyReq <- struct{}{}:
	default:
	}
}

// Writer returns the RTP writer of track i (sfu.RTPWriter).
func (r *Recorder) Writer(i int) interface {
	WriteRTP(h *rtp.Header, payload []byte) (int, error)
} {
	return r.in[i]
}

// WriteRTP takes one packet of the track; packets that arrive while the
// recording is paused or stopped are dropped.
func (in *input) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	r := in.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return 0, ErrStopped
	}
	if r.paused {
		return len(payload), nil
	}
	if !in.accept(h.PayloadType) {
		return len(payload), nil
	}
	if !r.started {
		r.started, r.start = true, r.opt.Clock.Now()
	}
	p := &rtp.Packet{Header: *h, Payload: append([]byte(nil), payload...)}
	p.Header.Extensions = nil
	in.sb.Push(p)
	for s := in.sb.Pop(); s != nil; s = in.sb.Pop() {
		in.sample(s.Data, s.PacketTimestamp, s.PrevDroppedPackets > 0)
		if r.stopped {
			break
		}
	}
	return len(payload), nil
}

// accept chooses the track's codec by the first packet's payload type
// and tells whether a packet is of that codec.
func (in *input) accept(pt uint8) bool {
	pts := in.r.mux.tracks[in.i].spec.PayloadTypes
	if len(pts) == 0 {
		return true
	}
	mime, ok := pts[pt]
	if !ok {
		return false
	}
	if in.chosen {
		return in.mime == strings.ToLower(mime)
	}
	c, ok := codecOf(mime)
	if !ok || (in.r.mux.ws != nil && c.id != in.c.id) {
		return false // the header declared another codec
	}
	in.chosen, in.mime, in.c = true, strings.ToLower(mime), c
	in.r.mux.tracks[in.i].c = c
	in.sb = newSampleBuilder(c, in.rate)
	return true
}

// sample places one frame on the recording's timeline: the first frame
// of a track at the clock time it arrived, the next ones by their RTP
// timestamps, so that a pause (whose packets were dropped) leaves a gap of
// its length and media fed faster than real time keeps its own timing.
func (in *input) sample(data []byte, ts uint32, lost bool) {
	r := in.r
	if !in.haveTS {
		in.haveTS, in.lastTS = true, ts
		in.baseMs = r.opt.Clock.Now().Sub(r.start).Milliseconds()
	} else {
		in.ts += int64(int32(ts - in.lastTS))
		in.lastTS = ts
	}
	ms := max(in.baseMs+in.ts*1000/int64(in.rate), in.lastMs)
	in.lastMs = ms
	key := in.c.keyFrame(data)
	if in.c.video && lost && !key {
		in.needKey = true
	}
	if in.needKey {
		if !key {
			in.askKeyFrame()
			return
		}
		in.needKey = false
	}
	if r.opt.MaxBytes > 0 && r.mux.estimate+int64(len(data))+frameOverhead+quotaReserve > r.opt.MaxBytes {
		r.fail(ErrDiskFull)
		return
	}
	r.mux.write(in.i, key, ms, data)
	r.checkWritten()
}

// askKeyFrame asks for a key frame, at most every half second.
func (in *input) askKeyFrame() {
	now := in.r.opt.Clock.Now()
	if in.r.opt.KeyFrame != nil && (in.lastPLI.IsZero() || now.Sub(in.lastPLI) >= 500*time.Millisecond) {
		in.lastPLI = now
		in.r.askKey()
	}
}

// checkWritten reports the bytes written, stops on a write error, and
// reads the free space every freeCheckEvery bytes.
func (r *Recorder) checkWritten() {
	n, err := r.mux.out.state()
	if r.opt.OnWrite != nil && n > r.reported {
		r.opt.OnWrite(n - r.reported)
		r.reported = n
	}
	switch {
	case err != nil && diskFull(err):
		r.fail(ErrDiskFull)
	case err != nil:
		r.fail(errors.Join(ErrWrite, err))
	case r.mux.fatal != nil:
		r.fail(errors.Join(ErrWrite, r.mux.fatal))
	case r.opt.MinFree > 0 && (n-r.written >= freeCheckEvery || r.opt.Clock.Now().Sub(r.checked) >= freeCheckPeriod):
		r.written, r.checked = n, r.opt.Clock.Now()
		if free, err := r.opt.Free(r.opt.Path); err == nil && free < r.opt.MinFree {
			r.fail(ErrDiskFull)
		}
	}
}

// fail stops the recording on its own; the caller holds r.mu.
func (r *Recorder) fail(err error) {
	if r.stopped {
		return
	}
	r.err = err
	r.finish()
}

// finish finalises the file; the caller holds r.mu.
func (r *Recorder) finish() {
	r.stopped = true
	for _, in := range r.in {
		if r.err != nil {
			break // stopped on its own: what waits is dropped (the quota's reserve is for the end of the file)
		}
		in.sb.Flush()
		for s := in.sb.Pop(); s != nil; s = in.sb.Pop() {
			if in.haveTS || !in.c.video || in.c.keyFrame(s.Data) {
				in.sampleFinal(s.Data, s.PacketTimestamp)
			}
		}
	}
	cerr := r.mux.close()
	n, werr := r.mux.out.state()
	if r.opt.OnWrite != nil && n > r.reported {
		r.opt.OnWrite(n - r.reported)
		r.reported = n
	}
	if r.err == nil && (werr != nil || cerr != nil) {
		r.err = errors.Join(ErrWrite, werr, cerr)
	}
	r.stats = r.statsLocked(n)
	close(r.done)
}

// sampleFinal writes a frame that was waiting in the samplebuilder when
// the recording stopped (no quota check: the reserve covers it).
func (in *input) sampleFinal(data []byte, ts uint32) {
	if in.needKey && !in.c.keyFrame(data) {
		return
	}
	if !in.haveTS {
		in.haveTS, in.lastTS = true, ts
		in.baseMs = in.r.opt.Clock.Now().Sub(in.r.start).Milliseconds()
	} else {
		in.ts += int64(int32(ts - in.lastTS))
		in.lastTS = ts
	}
	ms := max(in.baseMs+in.ts*1000/int64(in.rate), in.lastMs)
	in.lastMs, in.needKey = ms, false
	in.r.mux.write(in.i, in.c.keyFrame(data), ms, data)
}

func (r *Recorder) statsLocked(n int64) Stats {
	s := Stats{Bytes: n, Duration: r.mux.duration(), Container: "webm"}
	if r.mux.matroska() {
		s.Container = "matroska"
	}
	for _, t := range r.mux.tracks {
		switch {
		case t.c.video && s.VideoCodec == "":
			s.VideoCodec, s.Width, s.Height = codecName(t.c.id), t.w, t.h
		case !t.c.video && s.AudioCodec == "":
			s.AudioCodec = codecName(t.c.id)
		}
	}
	return s
}

// codecName is the short name of a Matroska codec id.
func codecName(id string) string {
	switch id {
	case "V_VP8":
		return "VP8"
	case "V_VP9":
		return "VP9"
	case "V_MPEG4/ISO/AVC":
		return "H264"
	case "A_OPUS":
		return "opus"
	}
	return id
}

// Pause drops what arrives until Resume; the file keeps a gap of the
// paused length. Pausing a paused or stopped recording does nothing.
func (r *Recorder) Pause() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paused = true
}

// Resume records again from the next key frame.
func (r *Recorder) Resume() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.paused || r.stopped {
		return
	}
	r.paused = false
	for _, in := range r.in {
		in.sb = newSampleBuilder(in.c, in.rate)
		in.needKey = in.c.video
		in.lastPLI = time.Time{}
	}
	r.askKey()
}

// Stop finalises the file and returns its figures; the error is why the
// recording had stopped on its own, if it had. Stop is idempotent.
func (r *Recorder) Stop() (Stats, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopped {
		r.finish()
	}
	return r.stats, r.err
}

// Done is closed when the recording has stopped (by Stop or on its own).
func (r *Recorder) Done() <-chan struct{} { return r.done }

// Err is why the recording stopped on its own (ErrDiskFull, ErrWrite),
// nil while it runs or when Stop stopped it.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Bytes is the size of the file so far.
func (r *Recorder) Bytes() int64 {
	n, _ := r.mux.out.state()
	return n
}

// Progress is what track i (Options.Tracks) has taken into the file so
// far, read under the recording's lock: an event to wait on (a test waits
// for the media it sent to be in the file rather than for a time).
func (r *Recorder) Progress(i int) Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mux.tracks[i].written
}

// Path is the recording's file.
func (r *Recorder) Path() string { return r.opt.Path }
