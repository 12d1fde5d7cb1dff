package vc

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Recordings with media (docs/recording.md). When the node has a media
// plane that records (RecordingConfig.Recorder: the SFU), a recording
// that keeps a file (recorder_mode 1 or 3) records into
// Dir/<domain moid>/<rec_id>.webm (.mkv once it turns out Matroska) from
// its start; pause and resume act on it, stop finalises it and its
// program carries the file's figures. A recording whose disk or quota
// fills stops by itself: it leaves the list, its program keeps the part
// written (playable), and /confs/{conf_id}/recorders/{rec_id} is notified
// with error_code 24014 (reference 07 "录像异常通知", A3 24014 磁盘满;
// 24028 for another write error). Without a Recorder (--no-rtc) a
// recording is bookkeeping only and its program has no file.
//
// The running recorders are the media owner's (rec_parts.go): a node
// that serves a recording's start, pause, resume or stop for a
// conference another node owns passes it to the owner (Pass), and a node
// that takes a conference's media over continues its recordings into
// new parts of the same programs.

// RecordingConfig is how the node records.
type RecordingConfig struct {
	Recorder media.Recorder // nil: no media (--no-rtc)
	Dir      string         // the recordings' folder (the vrs programs' files)
	MaxBytes int64          // the most bytes of one recording file (0: no quota)
	MinFree  int64          // recordings stop when the disk has less free space
	// DomainQuota bounds the bytes of one user domain's recording files
	// (0: none; rec_quota.go).
	DomainQuota int64
	// MaxRunning bounds the recordings writing files on this node at
	// once (DefaultMaxRunning when 0); one more is refused with 24102.
	MaxRunning int
	Log        *slog.Logger
	// Group is the server's goroutine group: the watcher of each running
	// recording runs in it, so that the server's Stop waits for its last
	// write before the store closes (docs/architecture.md "One
	// lifecycle"); nil: recordings with media are refused.
	Group *lifecycle.Group
	// Pass passes an action on a recording or a playback to the
	// conference's media owner when another node owns it
	// (rtc.Owners.PassHosted): passed is false when it belongs here, and
	// reply is a recording's stop's figures; nil: all of them are this
	// node's.
	Pass func(ctx context.Context, confID string, h Hosted) (passed bool, reply []byte, err error)
	// Node is this node's media URL (rtc.Owners.Self), stored with each
	// part it records; nil or "": one node.
	Node func() string
}

// DefaultMaxRunning is the default bound of recordings at once on a node
// (docs/benchmarks.md "Recording": 64 ran on 2 cores; the disk's write
// rate binds before the CPU).
const DefaultMaxRunning = 32

// recMedia is the node's running recorders and their figures.
type recMedia struct {
	cfg     RecordingConfig
	mu      sync.Mutex
	live    map[string]*liveRec // by rec_id
	bytes   atomic.Int64        // bytes written by every recording (metrics)
	running atomic.Int64
}

// liveRec is a recording running on this node.
type liveRec struct {
	domain, conf, recID string
	rec                 media.Recording
	once                sync.Once
	info                media.RecordInfo
	err                 error
	rel                 string // the file, relative to Dir
}

// stop finalises the file once; every caller gets the same figures.
func (lr *liveRec) stop() (media.RecordInfo, error) {
	lr.once.Do(func() { lr.info, lr.err = lr.rec.Stop() })
	return lr.info, lr.err
}

// SetRecording gives the module the node's recorder; server.New calls it
// once before serving.
func (m *Module) SetRecording(cfg RecordingConfig) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.MaxRunning <= 0 {
		cfg.MaxRunning = DefaultMaxRunning
	}
	m.rec = &recMedia{cfg: cfg, live: map[string]*liveRec{}}
}

// RecordingBytes is how many bytes the node's recordings wrote.
func (m *Module) RecordingBytes() int64 {
	if m.rec == nil {
		return 0
	}
	return m.rec.bytes.Load()
}

// RecordingsRunning is how many recordings write a file on this node.
func (m *Module) RecordingsRunning() int {
	if m.rec == nil {
		return 0
	}
	return int(m.rec.running.Load())
}

// recMediaStart starts the file of a recording that was just stored, on
// the conference's media owner.
func (m *Module) recMediaStart(ctx context.Context, c engine.Conference, rc map[string]any) error {
	if m.rec == nil || m.rec.cfg.Recorder == nil || tlInt(rc["recorder_mode"]) == recLive {
		return nil
	}
	if passed, _, err := m.recPass(ctx, c.Rec.DomainMoid, c.ID(), tlStr(rc["rec_id"]), recActStart); passed || err != nil {
		return err
	}
	return m.recStartHere(ctx, c, rc)
}

// recStartHere starts a part of a recording on this node: the first
// (<rec_id>.webm) when it starts, the next (<rec_id>-<n>.webm) when this
// node took the conference's media over (rec_parts.go). The part is
// stored with the recording once its file exists.
func (m *Module) recStartHere(ctx context.Context, c engine.Conference, rc map[string]any) error {
	recID := tlStr(rc["rec_id"])
	if n := m.rec.running.Add(1); n > int64(m.rec.cfg.MaxRunning) {
		m.rec.running.Add(-1)
		return wire.Errorf(CodeRecNoResource, "%d recordings run on this node, the most it takes", m.rec.cfg.MaxRunning)
	}
	started := false
	defer func() {
		if !started {
			m.rec.running.Add(-1)
		}
	}()
	allow, used, ok, err := m.recAllowance(ctx, c.Rec.DomainMoid) // rec_quota.go
	if err != nil {
		return err
	}
	if !ok {
		return wire.Errorf(CodeRecDiskFull, "the user domain's recordings hold %d bytes of its quota of %d (--rec-domain-quota): delete programs to record again",
			used, m.rec.cfg.DomainQuota)
	}
	maxBytes := m.rec.cfg.MaxBytes
	if allow > 0 && (maxBytes <= 0 || allow < maxBytes) {
		maxBytes = allow
	}
	rel := m.recPartFile(c.Rec.DomainMoid, recID, len(recParts(rc))+1)
	path := filepath.Join(m.rec.cfg.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return wire.Errorf(CodeRecWriteError, "the recordings folder cannot be made: %v", err)
	}
	spec := media.RecordSpec{Path: path, Dual: tlInt(rc["dual_stream"]) == 1, MaxBytes: maxBytes,
		MinFree: m.rec.cfg.MinFree, OnWrite: func(n int64) { m.rec.bytes.Add(n) }}
	if tlInt(rc["recorder_type"]) == recTypeTerminal {
		if ids := tlMtIDs(rc["members"]); len(ids) > 0 {
			spec.Terminal = ids[0]
		}
	}
	rec, err := m.rec.cfg.Recorder.Record(ctx, c.ID(), spec)
	if err != nil {
		return wire.Errorf(CodeRecWriteError, "the recording cannot start: %v", err)
	}
	lr := &liveRec{domain: c.Rec.DomainMoid, conf: c.ID(), recID: recID, rec: rec, rel: filepath.ToSlash(rel)}
	m.rec.mu.Lock()
	m.rec.live[recID] = lr
	m.rec.mu.Unlock()
	if !m.rec.cfg.Group.Go(func(ctx context.Context) { m.recWatch(ctx, lr) }) {
		m.rec.mu.Lock()
		delete(m.rec.live, recID)
		m.rec.mu.Unlock()
		_, _ = lr.stop()
		return wire.Errorf(CodeRecNoResource, "the node is stopping: the recording cannot start")
	}
	started = true // counted in running until recForget
	if err := m.recAddPart(ctx, lr); err != nil {
		m.recForget(lr)
		_, _ = lr.stop()
		return err
	}
	return nil
}

// recLive returns the recording's running recorder on this node, nil
// when there is none.
func (m *Module) recLive(recID string) *liveRec {
	if m.rec == nil {
		return nil
	}
	m.rec.mu.Lock()
	defer m.rec.mu.Unlock()
	return m.rec.live[recID]
}

// recForget drops a stopped recorder from the running ones.
func (m *Module) recForget(lr *liveRec) {
	m.rec.mu.Lock()
	defer m.rec.mu.Unlock()
	if m.rec.live[lr.recID] == lr {
		delete(m.rec.live, lr.recID)
		m.rec.running.Add(-1)
	}
}

// recMediaState pauses or resumes a recording's file, on the
// conference's media owner.
func (m *Module) recMediaState(ctx context.Context, domain, confID, recID string, pause bool) error {
	act := recActResume
	if pause {
		act = recActPause
	}
	if passed, _, err := m.recPass(ctx, domain, confID, recID, act); passed || err != nil {
		return err
	}
	m.recStateHere(recID, pause)
	return nil
}

// recStateHere pauses or resumes a recording's file on this node.
func (m *Module) recStateHere(recID string, pause bool) {
	if lr := m.recLive(recID); lr != nil {
		if pause {
			lr.rec.Pause()
		} else {
			lr.rec.Resume()
		}
	}
}

// recMediaStop finalises a recording's file on the conference's media
// owner and returns the figures of its parts (nil when it has no file).
func (m *Module) recMediaStop(ctx context.Context, domain, confID string, rc map[string]any) ([]media.RecordInfo, error) {
	if m.rec == nil || m.rec.cfg.Recorder == nil {
		return nil, nil
	}
	recID := tlStr(rc["rec_id"])
	passed, reply, err := m.recPass(ctx, domain, confID, recID, recActStop)
	if err != nil {
		return nil, err
	}
	var cur *media.RecordInfo
	if passed {
		if err := json.Unmarshal(reply, &cur); err != nil {
			return nil, err
		}
	} else {
		cur = m.recStopHere(recID)
	}
	return m.recPartsInfo(rc, cur, m.clk.Now()), nil
}

// recStopHere finalises the file of the recording's part that this node
// records (nil when it records none).
func (m *Module) recStopHere(recID string) *media.RecordInfo {
	lr := m.recLive(recID)
	if lr == nil {
		return nil
	}
	info, err := lr.stop()
	if err != nil {
		m.rec.cfg.Log.Warn("recording: the file was cut short", "rec_id", recID, "err", err)
	}
	m.recForget(lr)
	info.Path = m.recRel(lr, info.Path)
	return &info
}

// recRel is a file's path relative to the recordings' folder.
func (m *Module) recRel(lr *liveRec, path string) string {
	if rel, err := filepath.Rel(m.rec.cfg.Dir, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(lr.rel)
}

// recWatch waits for a recording to stop. One that stopped by itself (a
// full disk, a write error, the conference ending in the media plane)
// leaves the list with its program, and a failure is notified. The
// node's stop (ctx) ends the watch: CloseRecordings finalises the file and
// the next start's reconciliation reports it.
func (m *Module) recWatch(ctx context.Context, lr *liveRec) {
	select {
	case <-lr.rec.Done():
	case <-ctx.Done():
		return
	}
	if m.recLive(lr.recID) != lr {
		return // stopped through the API or by the conference's end
	}
	info, err := lr.stop()
	info.Path = m.recRel(lr, info.Path)
	// The write outlives the stop's cancel (Stop waits for it, the store
	// is still open), bounded on its own.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	code := 0
	switch {
	case errors.Is(err, media.ErrDiskFull):
		code = CodeRecDiskFull
	case err != nil:
		code = CodeRecWriteError
	}
	if code != 0 {
		m.rec.cfg.Log.Error("recording: stopped by a failure", "conf_id", lr.conf, "rec_id", lr.recID, "error_code", code, "err", err)
	}
	ended, err := m.recEndedByMedia(ctx, lr, &info, code)
	if err != nil {
		m.rec.cfg.Log.Error("recording: the stop could not be stored", "conf_id", lr.conf, "rec_id", lr.recID, "err", err)
	}
	if ended {
		// The conference has ended: its TimelineEnded stores the program
		// with the file's figures (recMediaStop finds the recorder here);
		// the recorder is dropped later in case that ran on another node.
		time.AfterFunc(time.Minute, func() { m.recForget(lr) })
		return
	}
	m.recForget(lr)
}

// recEndedByMedia stores the end of a recording that stopped by itself:
// its program, its leaving the list (with the failure's notification, in
// the same write), its terminals' rec flags. ended tells that the
// conference is no longer running (nothing was stored).
func (m *Module) recEndedByMedia(ctx context.Context, lr *liveRec, info *media.RecordInfo, code int) (ended bool, err error) {
	nctx, notes := store.WithNotices(ctx)
	var members []string
	c, err := m.tlUpdate(nctx, lr.domain, lr.conf, func(c *engine.Conference) (bool, error) {
		i, rs := recFind(c.Doc, lr.recID)
		if i < 0 {
			return false, nil // stopped meanwhile
		}
		now := m.clk.Now()
		if err := m.programSave(ctx, *c, rs[i], now, m.recPartsInfo(rs[i], info, now)); err != nil {
			return false, err
		}
		members = tlMtIDs(rs[i]["members"])
		c.Doc[tlKeyRecorders] = tlAnys(append(rs[:i], rs[i+1:]...))
		if code != 0 {
			n, err := store.NewNotice(c.Rec.DomainMoid, c.ID(), "/recorders/"+lr.recID,
				map[string]any{"error_code": code}, now)
			if err != nil {
				return false, err
			}
			notes.Set(n)
		}
		return true, nil
	})
	if errors.Is(err, engine.ErrConfNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	for _, id := range members {
		if err := m.tlSetFlag(ctx, c, id, "rec", 0); err != nil {
			return false, err
		}
	}
	return false, nil
}

// CloseRecordings finalises the files of the node's running recordings
// when the node shuts down (before its SFU closes). Their programs are
// not stored: the recordings stay listed in their conferences, and their
// files are reported by the next start's reconciliation
// (docs/recording.md "How a recording records").
func (m *Module) CloseRecordings() {
	if m.rec == nil {
		return
	}
	m.rec.mu.Lock()
	live := make([]*liveRec, 0, len(m.rec.live))
	for _, lr := range m.rec.live {
		live = append(live, lr)
	}
	m.rec.mu.Unlock()
	for _, lr := range live {
		if _, err := lr.stop(); err != nil {
			m.rec.cfg.Log.Warn("recording: cut short at shutdown", "rec_id", lr.recID, "err", err)
		}
		m.recForget(lr)
	}
}
