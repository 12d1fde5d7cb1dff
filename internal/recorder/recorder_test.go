package recorder_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/playout"
	"github.com/confer-platform/confer/internal/recorder"
	"github.com/confer-platform/confer/internal/recorder/rectest"
)

var vp8Opus = []recorder.Track{
	{Name: "main", MimeType: "video/VP8", ClockRate: 90000},
	{Name: "audio", MimeType: "audio/opus", ClockRate: 48000, Channels: 2},
}

// feed sends the packets whose media time is in [from, to) to the
// recorder, moving the clock with them (faster than real time).
func feed(t *testing.T, r *recorder.Recorder, clk *clock.Fake, t0 time.Time, ps []rectest.Packet, from, to time.Duration) {
	t.Helper()
	for _, p := range ps {
		if p.At < from || p.At >= to {
			continue
		}
		clk.Set(t0.Add(p.At))
		i := 1
		if p.Video {
			i = 0
		}
		if _, err := r.Writer(i).WriteRTP(&p.Header, p.Payload); err != nil && !errors.Is(err, recorder.ErrStopped) {
			t.Fatal(err)
		}
	}
}

func start(t *testing.T, o recorder.Options) (*recorder.Recorder, *clock.Fake, time.Time) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clk := clock.NewFake(t0)
	o.Clock, o.Tracks = clk, vp8Opus
	r, err := recorder.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	return r, clk, t0
}

func within(t *testing.T, what string, got, want, tol time.Duration) {
	t.Helper()
	if got < want-tol || got > want+tol {
		t.Errorf("%s = %v, want %v ± %v", what, got, want, tol)
	}
}

// TestRecordTenSeconds records 10 s of VP8 and Opus made by ffmpeg, fed
// as RTP faster than real time: ffprobe reads a WebM file of 10 s with
// both codecs and the picture's size.
func TestRecordTenSeconds(t *testing.T) {
	dir := t.TempDir()
	ps := rectest.Packets(t, dir, 10)
	path := filepath.Join(dir, "rec.webm")
	r, clk, t0 := start(t, recorder.Options{Path: path})
	feed(t, r, clk, t0, ps, 0, time.Hour)
	st, err := r.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if st.VideoCodec != "VP8" || st.AudioCodec != "opus" || st.Width != rectest.Width || st.Height != rectest.Height || st.Container != "webm" {
		t.Errorf("stats = %+v", st)
	}
	within(t, "stats duration", st.Duration, 10*time.Second, time.Second)
	if fi, err := os.Stat(path); err != nil || fi.Size() != st.Bytes {
		t.Errorf("file size %v (%v), stats %d", fi.Size(), err, st.Bytes)
	}
	p := rectest.ProbeFile(t, path)
	within(t, "ffprobe duration", p.Duration(), 10*time.Second, time.Second)
	v, okV := p.Stream("video")
	a, okA := p.Stream("audio")
	if !okV || !okA || v.Codec != "vp8" || a.Codec != "opus" || v.Width != rectest.Width || v.Height != rectest.Height {
		t.Errorf("ffprobe streams = %+v", p.Streams)
	}
	if p.Format.Name != "matroska,webm" {
		t.Errorf("format = %q", p.Format.Name)
	}
	if h, err := recorder.ProbeHeader(path); err != nil || h.Duration < 9*time.Second || h.Width != rectest.Width || h.VideoCodec != "VP8" {
		t.Errorf("header = %+v, %v", h, err)
	}
}

// TestProgressCountsFrames: Progress counts the frames each track took
// into the file and the media time they span, while the recording runs
// and, after the stop, as many video frames as ffprobe reads.
func TestProgressCountsFrames(t *testing.T) {
	dir := t.TempDir()
	ps := rectest.Packets(t, dir, 10)
	path := filepath.Join(dir, "rec.webm")
	r, clk, t0 := start(t, recorder.Options{Path: path})
	if p := r.Progress(0); p.Frames != 0 || p.Span != 0 {
		t.Errorf("progress before any packet = %+v", p)
	}
	feed(t, r, clk, t0, ps, 0, 4*time.Second)
	v, a := r.Progress(0), r.Progress(1)
	// The samplebuilder holds a track's last frame until the next one
	// begins: 4 s of media span a little less.
	within(t, "video span", v.Span, 4*time.Second, 200*time.Millisecond)
	within(t, "audio span", a.Span, 4*time.Second, 200*time.Millisecond)
	if v.Frames < 4*14 || v.Frames > 4*15 || a.Frames < 4*49 || a.Frames > 4*50 {
		t.Errorf("frames after 4 s of 15 pictures and 50 Opus frames a second: video %d, audio %d", v.Frames, a.Frames)
	}
	feed(t, r, clk, t0, ps, 4*time.Second, time.Hour)
	if _, err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	v = r.Progress(0)
	within(t, "video span after the stop", v.Span, 10*time.Second, 200*time.Millisecond)
	if p := rectest.ProbeFile(t, path); int64(len(p.Video)) != v.Frames {
		t.Errorf("progress counts %d video frames, the file holds %d", v.Frames, len(p.Video))
	}
}

// TestPauseLeavesGap pauses from 3 s to 5 s of a 10 s stream: the file
// lasts 10 s and its video jumps by 2 s.
func TestPauseLeavesGap(t *testing.T) {
	dir := t.TempDir()
	ps := rectest.Packets(t, dir, 10)
	path := filepath.Join(dir, "rec.webm")
	r, clk, t0 := start(t, recorder.Options{Path: path})
	feed(t, r, clk, t0, ps, 0, 3*time.Second)
	r.Pause()
	r.Pause() // twice: still paused
	feed(t, r, clk, t0, ps, 3*time.Second, 5*time.Second)
	r.Resume()
	feed(t, r, clk, t0, ps, 5*time.Second, time.Hour)
	if _, err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	p := rectest.ProbeFile(t, path)
	within(t, "duration", p.Duration(), 10*time.Second, time.Second)
	within(t, "video gap", p.MaxVideoGap(), 2*time.Second, 300*time.Millisecond)
}

// TestQuotaStopsPlayable: a recording that reaches its quota stops on its
// own with ErrDiskFull; the file stays under the quota and plays.
func TestQuotaStopsPlayable(t *testing.T) {
	dir := t.TempDir()
	ps := rectest.Packets(t, dir, 10)
	path := filepath.Join(dir, "rec.webm")
	const quota = recorder.MinQuota + 100<<10
	var wrote int64
	r, clk, t0 := start(t, recorder.Options{Path: path, MaxBytes: quota, OnWrite: func(n int64) { wrote += n }})
	feed(t, r, clk, t0, ps, 0, time.Hour)
	select {
	case <-r.Done():
	default:
		t.Fatal("the recording did not stop at its quota")
	}
	if !errors.Is(r.Err(), recorder.ErrDiskFull) {
		t.Fatalf("err = %v", r.Err())
	}
	st, err := r.Stop()
	if !errors.Is(err, recorder.ErrDiskFull) || st.Bytes > quota || st.Bytes != wrote {
		t.Errorf("stop = %+v, %v; reported %d", st, err, wrote)
	}
	p := rectest.ProbeFile(t, path)
	if d := p.Duration(); d <= time.Second || d >= 10*time.Second {
		t.Errorf("duration = %v", d)
	}
}

// TestFreeSpaceStops: too little free space stops the recording.
func TestFreeSpaceStops(t *testing.T) {
	dir := t.TempDir()
	ps := rectest.Packets(t, dir, 10)
	path := filepath.Join(dir, "rec.webm")
	free := int64(1 << 40)
	r, clk, t0 := start(t, recorder.Options{Path: path, MinFree: 1 << 30, Free: func(string) (int64, error) { return free, nil }})
	feed(t, r, clk, t0, ps, 0, 2*time.Second)
	free = 1 << 20
	feed(t, r, clk, t0, ps, 2*time.Second, time.Hour)
	if !errors.Is(r.Err(), recorder.ErrDiskFull) {
		t.Fatalf("err = %v", r.Err())
	}
	rectest.ProbeFile(t, path)
}

// TestCutShortPlays: a copy of the file taken while it records (as a
// crash would leave it) plays up to where it was cut.
func TestCutShortPlays(t *testing.T) {
	dir := t.TempDir()
	ps := rectest.Packets(t, dir, 10)
	path := filepath.Join(dir, "rec.webm")
	r, clk, t0 := start(t, recorder.Options{Path: path})
	feed(t, r, clk, t0, ps, 0, 4*time.Second)
	// No wait: the muxer hands frames to ebml-go's writer goroutines over
	// unbuffered channels through a sorter holding at most a quarter
	// second, so once feed returns the file holds all but the last few
	// frames of the 4 s, which the copy may miss.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.webm")
	if err := os.WriteFile(cut, b[:len(b)-100], 0o600); err != nil {
		t.Fatal(err)
	}
	r.Stop()
	p := rectest.ProbeFile(t, cut)
	if len(p.Video) < 30 {
		t.Errorf("the cut file holds %d video frames", len(p.Video))
	}
}

// TestConcurrentControl: pauses, resumes and stops from many goroutines
// while packets arrive leave one stopped recording and a playable file.
func TestConcurrentControl(t *testing.T) {
	dir := t.TempDir()
	ps := rectest.Packets(t, dir, 10)
	path := filepath.Join(dir, "rec.webm")
	r, clk, t0 := start(t, recorder.Options{Path: path})
	var wg sync.WaitGroup
	wg.Go(func() { feed(t, r, clk, t0, ps, 0, time.Hour) })
	for range 4 {
		wg.Go(func() {
			for range 50 {
				r.Pause()
				r.Resume()
			}
			r.Stop()
		})
	}
	wg.Wait()
	a, errA := r.Stop()
	b, errB := r.Stop()
	if a != b || errA != nil || errB != nil {
		t.Errorf("stops differ: %+v %v / %+v %v", a, errA, b, errB)
	}
	select {
	case <-r.Done():
	default:
		t.Error("not done")
	}
	rectest.ProbeFile(t, path)
}

// TestRecordH264IsMatroska: H.264 (libx264) with Opus makes a Matroska
// file that ffprobe reads with both codecs and the picture's size.
func TestRecordH264IsMatroska(t *testing.T) {
	dir := t.TempDir()
	var ps []rectest.Packet
	for _, p := range rectest.Packets(t, dir, 10) {
		if !p.Video && p.At < 5*time.Second {
			ps = append(ps, p)
		}
	}
	ps = append(ps, rectest.H264Packets(t, dir, 5)...)
	slices.SortStableFunc(ps, func(a, b rectest.Packet) int { return int(a.At - b.At) })
	path := filepath.Join(dir, "rec.mkv")
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clk := clock.NewFake(t0)
	r, err := recorder.Start(recorder.Options{Path: path, Clock: clk, Tracks: []recorder.Track{
		{Name: "main", MimeType: "video/VP8", PayloadTypes: map[uint8]string{96: "video/VP8", 102: "video/H264"}},
		{Name: "audio", MimeType: "audio/opus", Channels: 2},
	}})
	if err != nil {
		t.Fatal(err)
	}
	feed(t, r, clk, t0, ps, 0, time.Hour)
	st, err := r.Stop()
	if err != nil || st.Container != "matroska" || st.VideoCodec != "H264" || st.Width != rectest.Width || st.Height != rectest.Height {
		t.Fatalf("stats = %+v, %v", st, err)
	}
	p := rectest.ProbeFile(t, path)
	v, _ := p.Stream("video")
	a, _ := p.Stream("audio")
	if v.Codec != "h264" || a.Codec != "opus" || v.Width != rectest.Width || v.Height != rectest.Height {
		t.Errorf("streams = %+v", p.Streams)
	}
	within(t, "duration", p.Duration(), 5*time.Second, time.Second)
	if h, err := recorder.ProbeHeader(path); err != nil || h.Container != "matroska" || h.VideoCodec != "H264" {
		t.Errorf("header = %+v, %v", h, err)
	}
}

// TestCrashLosesLittle: a recording read as it is on disk while it still
// runs (what kill -9 leaves) holds all but the last second or so of what
// was fed (docs/recording.md "How a recording records"), even when a
// track never receives anything (a dual stream nobody sends) and an audio
// packet was lost shortly before the end: nothing waits in memory for the
// empty track or for the lost packet. playout reads the frames as the restart of a node
// does, also of copies cut short at 20 places; ffprobe, when installed,
// reads a copy cut in the middle of a block.
func TestCrashLosesLittle(t *testing.T) {
	const n = 8 * time.Second
	dir := t.TempDir()
	all := rectest.Packets(t, dir, int(n/time.Second))
	var ps []rectest.Packet
	dropped := false
	for _, p := range all {
		if !p.Video && !dropped && p.At >= n-3*time.Second {
			dropped = true // one audio packet lost 3 s before the end
			continue
		}
		ps = append(ps, p)
	}
	path := filepath.Join(dir, "rec.webm")
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clk := clock.NewFake(t0)
	r, err := recorder.Start(recorder.Options{Path: path, Clock: clk, Tracks: append(slices.Clone(vp8Opus),
		recorder.Track{Name: "dual", MimeType: "video/VP8", ClockRate: 90000})})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	feed(t, r, clk, t0, ps, 0, time.Hour)
	// The file as it is now, the recording still running: the frames
	// WriteRTP handed over are in the file but for the few the muxer's
	// goroutines pass along (a kill -9 loses those too).
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "crash.webm")
	if err := os.WriteFile(snap, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := playout.Open(snap)
	if err != nil {
		t.Fatal(err)
	}
	last := map[uint64]time.Duration{}
	first := time.Duration(-1)
	if err := f.Frames(context.Background(), 0, func(fr playout.Frame) error {
		if first < 0 {
			first = fr.Time
		}
		last[fr.Track] = max(last[fr.Track], fr.Time)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*playout.Track{f.Video, f.Audio} {
		if tr == nil {
			t.Fatal("a track is missing")
		}
		got := last[tr.Number] - first
		t.Logf("track %d (%s): %v of %v on disk", tr.Number, tr.Mime, got, n)
		if got < n-1500*time.Millisecond {
			t.Errorf("track %d (%s) holds %v of %v on disk", tr.Number, tr.Mime, got, n)
		}
	}
	// Cut anywhere in its last 80 KiB (in a block, a cluster's header),
	// the file reads without error up to the cut, as a restart reads it.
	for k := 1; k <= 20; k++ {
		cut := filepath.Join(dir, "cut.webm")
		if err := os.WriteFile(cut, b[:len(b)-k*4099], 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := playout.Open(cut)
		if err != nil {
			t.Fatalf("cut %d bytes short: %v", k*4099, err)
		}
		frames := 0
		if err := f.Frames(context.Background(), 0, func(playout.Frame) error { frames++; return nil }); err != nil || frames == 0 {
			t.Errorf("cut %d bytes short: %d frames, %v", k*4099, frames, err)
		}
	}
	if _, err := exec.LookPath("ffprobe"); err != nil {
		t.Log("ffprobe is not installed: the file on disk is not decoded")
		return
	}
	cut := filepath.Join(dir, "cut.webm")
	if err := os.WriteFile(cut, b[:len(b)-100], 0o600); err != nil {
		t.Fatal(err)
	}
	p := rectest.ProbeFile(t, cut)
	if len(p.Video) == 0 || time.Duration(p.Video[len(p.Video)-1]*float64(time.Second)) < n-1500*time.Millisecond-100*time.Millisecond {
		t.Errorf("ffprobe reads %d video frames of %v", len(p.Video), n)
	}
}
