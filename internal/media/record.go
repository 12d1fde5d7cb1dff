package media

import (
	"context"
	"errors"
	"time"
)

// Recording through the media plane (docs/recording.md). A media plane
// that records implements Recorder: the node's SFU does (internal/rtc);
// the simulated backend of --no-rtc has no media and no Recorder, so a
// recording there is bookkeeping only and leaves a program without a file.

// RecordSpec is what a recording stores.
type RecordSpec struct {
	Path     string // the file to create (never overwritten)
	Terminal string // mt_id of the terminal recorded; "" the conference's broadcast
	Dual     bool   // the dual stream (content) too, as a second video track
	// MaxBytes stops the recording before its file grows past it (0: no
	// quota); MinFree stops it when the disk has less free space.
	MaxBytes, MinFree int64
	// OnWrite reports the bytes written (the metrics); may be nil.
	OnWrite func(n int64)
}

// RecordInfo describes a recording's file, read when it stops.
type RecordInfo struct {
	Path       string // where the file ended up (the suffix follows the container)
	Bytes      int64
	Duration   time.Duration
	Width      int
	Height     int
	VideoCodec string
	AudioCodec string
	Container  string // "webm" or "matroska"
}

// ErrDiskFull is a recording stopped by a full disk or its quota.
var ErrDiskFull = errors.New("media: the disk or the recording quota is full")

// Recording is a running recording. Its methods are safe for concurrent
// use; Pause and Resume after the end do nothing, Stop is idempotent.
type Recording interface {
	Pause()
	Resume()
	// Stop finalises the file; the error is why the recording had
	// stopped on its own (ErrDiskFull, a write error), if it had.
	Stop() (RecordInfo, error)
	// Done is closed once the recording has stopped: by Stop, on its
	// own, or because the conference ended in the media plane.
	Done() <-chan struct{}
}

// Recorder is a media plane that records.
type Recorder interface {
	Record(ctx context.Context, conf string, spec RecordSpec) (Recording, error)
}

// RecordRun is a recording to run on the conference's media owner, which
// knows it by its rec_id until it stops: the media side's runtime of the
// recordings conference control decides (rtc.Recordings, issue 40).
type RecordRun struct {
	Domain, Conf, RecID string
	Spec                RecordSpec
	// Ended is called when the recording stopped by itself (a full disk,
	// a write error, the conference ending in the media plane), with its
	// file's figures and why it stopped: it stores the end. It runs in
	// the node's goroutine group, with no lock of the media side held;
	// ctx ends with the node. confEnded tells that the conference had
	// ended already: the recording stays known a minute more, for the
	// conference's end to read its figures (Recordings' StopRecording).
	Ended func(ctx context.Context, info RecordInfo, err error) (confEnded bool)
}

// Running is a recording running on the conference's media owner.
type Running interface {
	// Of is the recording's user domain and conference.
	Of() (domain, conf string)
	Pause()
	Resume()
}

// ErrNoRecorder is a recording refused because the node runs the most
// recordings it takes, or is stopping.
var ErrNoRecorder = errors.New("media: the node takes no more recordings")
