package rtc

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/recorder"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/pion/webrtc/v4"
)

// Recorder records conferences of the node's SFU (media.Recorder;
// docs/recording.md): a recording is an invisible tap inside the SFU
// (sfu.OpenLocal, not a member) receiving the broadcast or one terminal,
// plus a second tap on the dual stream when it is recorded, written by
// internal/recorder into one file.
type Recorder struct {
	SFU *sfu.SFU
}

var _ media.Recorder = (*Recorder)(nil)

// The codecs a recording accepts: those the SFU forwards (VP8 first,
// H.264) and Opus. A track's codec is the first that arrives.
var (
	recVideo = []sfu.LocalCodec{
		{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: 96},
		{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 102},
	}
	recAudio = []sfu.LocalCodec{{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, PayloadType: 111}}
)

// The tracks of a recording's file, in order (recorder.Options.Tracks):
// the main video, the audio, the dual video when it is recorded.
const (
	TrackMain = iota
	TrackAudio
	TrackDual
)

func payloadTypes(cs []sfu.LocalCodec) map[uint8]string {
	out := map[uint8]string{}
	for _, c := range cs {
		out[c.PayloadType] = c.MimeType
	}
	return out
}

// Record starts a recording: the file is created at once, the taps are
// opened, and the recording stops by itself when the conference ends in
// the SFU.
func (r *Recorder) Record(ctx context.Context, conf string, spec media.RecordSpec) (media.Recording, error) {
	tracks := []recorder.Track{
		{Name: "main", MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadTypes: payloadTypes(recVideo)},
		{Name: "audio", MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, PayloadTypes: payloadTypes(recAudio)},
	}
	if spec.Dual {
		tracks = append(tracks, recorder.Track{Name: "dual", MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadTypes: payloadTypes(recVideo)})
	}
	rec := &recording{}
	var err error
	rec.rec, err = recorder.Start(recorder.Options{Path: spec.Path, Tracks: tracks, MaxBytes: spec.MaxBytes, MinFree: spec.MinFree,
		OnWrite: spec.OnWrite, KeyFrame: rec.keyFrame})
	if err != nil {
		return nil, err
	}
	src := sfu.SourceBroadcast
	if spec.Terminal != "" {
		src = sfu.SourceTerminal
	}
	// A recording of the conference holds its mix (everyone who talks) and
	// the composed picture while a composition runs; one of a terminal
	// holds that terminal's own sound and picture.
	main, err := r.SFU.OpenLocal(ctx, conf, sfu.LocalOptions{Receive: src, Terminal: spec.Terminal,
		MixedAudio: src == sfu.SourceBroadcast, Composed: src == sfu.SourceBroadcast,
		AudioOut: rec.rec.Writer(TrackAudio), VideoOut: rec.rec.Writer(TrackMain), AudioCodecs: recAudio, VideoCodecs: recVideo})
	if err != nil {
		rec.rec.Stop()
		os.Remove(spec.Path)
		return nil, err
	}
	rec.taps = append(rec.taps, main)
	if spec.Dual {
		dual, err := r.SFU.OpenLocal(ctx, conf, sfu.LocalOptions{Receive: sfu.SourceDual, VideoOut: rec.rec.Writer(TrackDual), VideoCodecs: recVideo})
		if err != nil {
			main.Close()
			rec.rec.Stop()
			os.Remove(spec.Path)
			return nil, err
		}
		rec.taps = append(rec.taps, dual)
	}
	rec.ready.Store(true)
	rec.keyFrame()
	go rec.watch(main.Done())
	return rec, nil
}

// recording is a recorder fed by its taps.
type recording struct {
	rec   *recorder.Recorder
	taps  []*sfu.Local
	ready atomic.Bool // taps is complete
	once  sync.Once
	info  media.RecordInfo
	err   error
}

// keyFrame asks the recorded sources for a key frame.
func (r *recording) keyFrame() {
	if !r.ready.Load() {
		return
	}
	for _, t := range r.taps {
		t.RequestKeyFrame()
	}
}

// watch stops the recording when the conference ends in the SFU, and
// closes the taps when the recording stops on its own.
func (r *recording) watch(tapDone <-chan struct{}) {
	select {
	case <-tapDone:
		r.Stop()
	case <-r.rec.Done():
		r.closeTaps()
	}
}

func (r *recording) closeTaps() {
	for _, t := range r.taps {
		t.Close()
	}
}

// Progress is what a track (TrackMain, TrackAudio, TrackDual) took into
// the file so far (recorder.Progress).
func (r *recording) Progress(track int) recorder.Progress { return r.rec.Progress(track) }

func (r *recording) Pause()                { r.rec.Pause() }
func (r *recording) Resume()               { r.rec.Resume() }
func (r *recording) Done() <-chan struct{} { return r.rec.Done() }

// Stop closes the taps and finalises the file; a Matroska file (H.264)
// takes the .mkv suffix.
func (r *recording) Stop() (media.RecordInfo, error) {
	r.once.Do(func() {
		r.closeTaps()
		st, err := r.rec.Stop()
		if errors.Is(err, recorder.ErrDiskFull) {
			err = errors.Join(media.ErrDiskFull, err)
		}
		path := r.rec.Path()
		if st.Container == "matroska" && strings.HasSuffix(path, ".webm") {
			mkv := strings.TrimSuffix(path, ".webm") + ".mkv"
			if os.Rename(path, mkv) == nil {
				path = mkv
			}
		}
		r.info = media.RecordInfo{Path: path, Bytes: st.Bytes, Duration: st.Duration, Width: st.Width, Height: st.Height,
			VideoCodec: st.VideoCodec, AudioCodec: st.AudioCodec, Container: st.Container}
		r.err = err
	})
	return r.info, r.err
}
