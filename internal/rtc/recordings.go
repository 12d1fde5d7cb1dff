package rtc

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/recorder"
)

// Recordings on this node (docs/recording.md): the media owner's runtime
// of the recordings vc decides and stores (issue 40). Each running
// recording is known by its rec_id; its watcher (the recording stopped by
// itself) runs in the server's goroutine group, so that the server's Stop
// waits for its last write, and calls vc's end-of-recording write back
// (media.RecordRun.Ended). CloseRecordings finalises every file at
// shutdown. Lock discipline: the registry's lock guards the map only;
// a recording's Pause, Resume and Stop (which reach into the SFU) and the
// call back into vc run without it.

// DefaultMaxRunning is the default bound of recordings at once on a node
// (docs/benchmarks.md "Recording": 64 ran on 2 cores; the disk's write
// rate binds before the CPU).
const DefaultMaxRunning = 32

// Recordings is the node's running recordings and their figures.
type Recordings struct {
	rec   media.Recorder
	group *lifecycle.Group
	max   int
	log   *slog.Logger
	mu    sync.Mutex
	runs  map[string]*recRun // by rec_id
	// stopped keeps a run for a while after it leaves runs, so that a
	// second stop of the same rec_id (two DELETEs at once) waits for the
	// first's file and gets its figures rather than none.
	stopped map[string]*recRun
	bytes   atomic.Int64 // bytes written by every recording (metrics)
	running atomic.Int64
}

// NewRecordings makes the recording runtime of the node's recorder (the
// SFU's, Recorder): at most maxRunning at once (DefaultMaxRunning when
// 0), their watchers in g (the server's group).
func NewRecordings(rec media.Recorder, g *lifecycle.Group, maxRunning int, log *slog.Logger) *Recordings {
	if maxRunning <= 0 {
		maxRunning = DefaultMaxRunning
	}
	if log == nil {
		log = slog.Default()
	}
	return &Recordings{rec: rec, group: g, max: maxRunning, log: log, runs: map[string]*recRun{}, stopped: map[string]*recRun{}}
}

// recRun is a recording running on this node.
type recRun struct {
	domain, conf, id string
	rec              media.Recording
	once             sync.Once
	info             media.RecordInfo
	err              error
}

var _ media.Running = (*recRun)(nil)

func (r *recRun) Of() (domain, conf string) { return r.domain, r.conf }
func (r *recRun) Pause()                    { r.rec.Pause() }
func (r *recRun) Resume()                   { r.rec.Resume() }

// stop finalises the file once; every caller gets the same figures.
func (r *recRun) stop() (media.RecordInfo, error) {
	r.once.Do(func() { r.info, r.err = r.rec.Stop() })
	return r.info, r.err
}

// Record starts a recording's file and runs it under its rec_id until it
// stops (media.ErrNoRecorder when the node runs its most, or stops).
func (rs *Recordings) Record(ctx context.Context, r media.RecordRun) (media.Running, error) {
	if n := rs.running.Add(1); n > int64(rs.max) {
		rs.running.Add(-1)
		return nil, fmt.Errorf("%w: %d recordings run on this node, the most it takes", media.ErrNoRecorder, rs.max)
	}
	spec := r.Spec
	onWrite := spec.OnWrite
	spec.OnWrite = func(n int64) {
		rs.bytes.Add(n)
		if onWrite != nil {
			onWrite(n)
		}
	}
	rec, err := rs.rec.Record(ctx, r.Conf, spec)
	if err != nil {
		rs.running.Add(-1)
		return nil, err
	}
	run := &recRun{domain: r.Domain, conf: r.Conf, id: r.RecID, rec: rec}
	rs.mu.Lock()
	rs.runs[r.RecID] = run
	rs.mu.Unlock()
	if !rs.group.Go(func(ctx context.Context) { rs.watch(ctx, run, r.Ended) }) {
		rs.forget(run)
		_, _ = run.stop()
		return nil, fmt.Errorf("%w: the node is stopping", media.ErrNoRecorder)
	}
	return run, nil
}

// Recording returns the recording rec_id running on this node, nil for
// none.
func (rs *Recordings) Recording(recID string) media.Running {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if run := rs.runs[recID]; run != nil {
		return run
	}
	return nil
}

// Progress is what the recording rec_id running on this node took of a
// track (TrackMain, TrackAudio, TrackDual) into the file so far
// (recorder.Progress); false when none runs here or its recorder does
// not tell. Tests wait on it for the media they sent to be in the file.
func (rs *Recordings) Progress(recID string, track int) (recorder.Progress, bool) {
	rs.mu.Lock()
	run := rs.runs[recID]
	rs.mu.Unlock()
	if run == nil {
		return recorder.Progress{}, false
	}
	p, ok := run.rec.(interface {
		Progress(track int) recorder.Progress
	})
	if !ok {
		return recorder.Progress{}, false
	}
	return p.Progress(track), true
}

// StopRecording finalises the file of the recording rec_id on this node
// and forgets it (first: its watcher stores nothing): nil when this node
// runs none; the error is why it had stopped on its own, if it had. A
// recording being stopped by another caller gives that stop's figures,
// once its file is final.
func (rs *Recordings) StopRecording(recID string) (*media.RecordInfo, error) {
	rs.mu.Lock()
	run := rs.runs[recID]
	if run == nil {
		run = rs.stopped[recID]
	}
	rs.mu.Unlock()
	if run == nil {
		return nil, nil
	}
	rs.forget(run)
	info, err := run.stop()
	return &info, err
}

// DomainRunning counts the domain's recordings running on this node
// (vc's domain quota).
func (rs *Recordings) DomainRunning(domain string) int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	n := 0
	for _, run := range rs.runs {
		if run.domain == domain {
			n++
		}
	}
	return n
}

// DropConference ends, storing nothing, this node's recordings of a
// conference another node took over (this node's lease lapsed): their
// files are finalised, and the new owner records the next parts.
func (rs *Recordings) DropConference(confID string) {
	rs.mu.Lock()
	var lost []*recRun
	for _, run := range rs.runs {
		if run.conf == confID {
			lost = append(lost, run)
		}
	}
	rs.mu.Unlock()
	rs.cutShort(lost, "recording: this node's part cut short")
}

// CloseRecordings finalises the files of the node's running recordings
// when the node shuts down (before its SFU closes). Their ends are not
// stored: the recordings stay listed in their conferences, and their
// files are reported by the next start's reconciliation
// (docs/recording.md "How a recording records").
func (rs *Recordings) CloseRecordings() {
	rs.mu.Lock()
	runs := make([]*recRun, 0, len(rs.runs))
	for _, run := range rs.runs {
		runs = append(runs, run)
	}
	rs.mu.Unlock()
	rs.cutShort(runs, "recording: cut short at shutdown")
}

// cutShort finalises the files of runs taken out of the registry, storing
// no end: each is forgotten first, so its watcher stores nothing. It holds
// no lock of the runtime while a recorder stops.
func (rs *Recordings) cutShort(runs []*recRun, what string) {
	for _, run := range runs {
		rs.forget(run)
		if _, err := run.stop(); err != nil {
			rs.log.Warn(what, "rec_id", run.id, "err", err)
		}
	}
}

// Bytes is how many bytes the node's recordings wrote.
func (rs *Recordings) Bytes() int64 { return rs.bytes.Load() }

// Running is how many recordings write a file on this node.
func (rs *Recordings) Running() int { return int(rs.running.Load()) }

// forget drops a recording from the running ones; StopRecording still
// finds it for a minute (stoppedKept).
func (rs *Recordings) forget(run *recRun) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.runs[run.id] != run {
		return
	}
	delete(rs.runs, run.id)
	rs.running.Add(-1)
	rs.stopped[run.id] = run
	time.AfterFunc(stoppedKept, func() {
		rs.mu.Lock()
		defer rs.mu.Unlock()
		if rs.stopped[run.id] == run {
			delete(rs.stopped, run.id)
		}
	})
}

// stoppedKept is how long a stopped recording's figures stay with
// StopRecording.
const stoppedKept = time.Minute

// known tells whether run is still the running recording of its rec_id.
func (rs *Recordings) known(run *recRun) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.runs[run.id] == run
}

// watch waits for a recording to stop. One that stopped by itself is
// finalised and its end stored by vc (ended, without the registry's
// lock); one that was stopped here (StopRecording, DropConference,
// CloseRecordings) was forgotten first and stores nothing. The node's
// stop (ctx) ends the watch: CloseRecordings finalises the file and the
// next start's reconciliation reports it.
func (rs *Recordings) watch(ctx context.Context, run *recRun, ended func(context.Context, media.RecordInfo, error) bool) {
	select {
	case <-run.rec.Done():
	case <-ctx.Done():
		return
	}
	if !rs.known(run) {
		return // stopped through the API, by the conference's end or the node's stop
	}
	info, err := run.stop()
	if ended != nil && ended(ctx, info, err) {
		// The conference has ended: its end stores the program with the
		// file's figures (StopRecording finds the recording here); it is
		// dropped later in case that ran on another node.
		time.AfterFunc(time.Minute, func() { rs.forget(run) })
		return
	}
	rs.forget(run)
}
