package vc

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Recordings with media (docs/recording.md). When the node has a media
// plane that records (RecordingConfig.Media: the SFU's, rtc.Recordings),
// a recording that keeps a file (recorder_mode 1 or 3) records into
// Dir/<domain moid>/<rec_id>.webm (.mkv once it turns out Matroska) from
// its start; pause and resume act on it, stop finalises it and its
// program carries the file's figures. A recording whose disk or quota
// fills stops by itself: it leaves the list, its program keeps the part
// written (playable), and /confs/{conf_id}/recorders/{rec_id} is notified
// with error_code 24014 (reference 07 "录像异常通知", A3 24014 磁盘满;
// 24028 for another write error). Without media (--no-rtc) a
// recording is bookkeeping only and its program has no file.
//
// The running recorders are the media owner's runtime (rtc.Recordings,
// through Recordings; issue 40) and follow it (rec_parts.go): a node
// that serves a recording's start, pause, resume or stop for a
// conference another node owns passes it to the owner (Pass), and a node
// that takes a conference's media over continues its recordings into
// new parts of the same programs.

// Recordings is the recording runtime of the conference's media owner
// (rtc.Recordings, issue 40): the running recorders by rec_id, their
// watchers in the server's group, the node's counters and its bound of
// recordings at once. vc decides and stores; it reaches the runtime only
// through these calls, and the runtime calls vc back only through a
// recording's media.RecordRun.Ended, holding none of its locks.
type Recordings interface {
	// Record starts a recording's file and runs it under its rec_id
	// (media.ErrNoRecorder when the node takes no more).
	Record(ctx context.Context, r media.RecordRun) (media.Running, error)
	// Recording is the recording rec_id running on this node (nil: none).
	Recording(recID string) media.Running
	// StopRecording finalises the file of rec_id on this node and
	// forgets it: nil when this node runs none; the error is why it had
	// stopped on its own.
	StopRecording(recID string) (*media.RecordInfo, error)
	// DomainRunning counts the domain's recordings running on this node
	// (rec_quota.go).
	DomainRunning(domain string) int
	// DropConference ends, storing nothing, this node's recordings of a
	// conference another node took over (MediaLost).
	DropConference(confID string)
	// ReadFile reads the figures of a recording's file that the node's
	// stop interrupted (rec_recover.go): base is its path without the
	// suffix; ok false when there is none or it holds no playable media.
	ReadFile(base string) (info media.RecordInfo, ok bool)
}

// RecordingConfig is how the node records.
type RecordingConfig struct {
	Media    Recordings // nil: no media (--no-rtc)
	Dir      string     // the recordings' folder (the vrs programs' files)
	MaxBytes int64      // the most bytes of one recording file (0: no quota)
	MinFree  int64      // recordings stop when the disk has less free space
	// DomainQuota bounds the bytes of one user domain's recording files
	// (0: none; rec_quota.go).
	DomainQuota int64
	Log         *slog.Logger
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

// recMedia is how the node records.
type recMedia struct {
	cfg RecordingConfig
}

// SetRecording gives the module the node's recording runtime; server.New
// calls it once before serving.
func (m *Module) SetRecording(cfg RecordingConfig) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	m.rec = &recMedia{cfg: cfg}
}

// recOn tells whether recordings record with media on this node.
func (m *Module) recOn() bool { return m.rec != nil && m.rec.cfg.Media != nil }

// recMediaStart starts the file of a recording that was just stored, on
// the conference's media owner.
func (m *Module) recMediaStart(ctx context.Context, c engine.Conference, rc engine.Recording) error {
	if !m.recOn() || rc.RecorderMode == recLive {
		return nil
	}
	if passed, _, err := m.recPass(ctx, c.Rec.DomainMoid, c.ID(), rc.RecID, recActStart); passed || err != nil {
		return err
	}
	return m.recStartHere(ctx, c, rc)
}

// recStartHere starts a part of a recording on this node: the first
// (<rec_id>.webm) when it starts, the next (<rec_id>-<n>.webm) when this
// node took the conference's media over (rec_parts.go). The part is
// stored with the recording once its file exists.
func (m *Module) recStartHere(ctx context.Context, c engine.Conference, rc engine.Recording) error {
	p, err := m.recStartFile(ctx, c, rc)
	if err != nil {
		return err
	}
	if err := m.recAddPart(ctx, c.Rec.DomainMoid, c.ID(), p); err != nil {
		p.Drop()
		return err
	}
	return nil
}

// recMediaStartPart starts the file of a recording that was just stored,
// as recMediaStart, but leaves the part of a file started on this node to
// the caller to store: the engine, for a recording that a conference's
// creation set (engine.Effects.Parts). Nil when no file starts here.
func (m *Module) recMediaStartPart(ctx context.Context, c engine.Conference, rc engine.Recording) (*engine.RecordingStarted, error) {
	if !m.recOn() || rc.RecorderMode == recLive {
		return nil, nil
	}
	if passed, _, err := m.recPass(ctx, c.Rec.DomainMoid, c.ID(), rc.RecID, recActStart); passed || err != nil {
		return nil, err
	}
	p, err := m.recStartFile(ctx, c, rc)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// recStartFile starts the file of a part of a recording on this node
// and returns the part to store.
func (m *Module) recStartFile(ctx context.Context, c engine.Conference, rc engine.Recording) (engine.RecordingStarted, error) {
	domain, confID, recID := c.Rec.DomainMoid, c.ID(), rc.RecID
	allow, used, ok, err := m.recAllowance(ctx, domain) // rec_quota.go
	if err != nil {
		return engine.RecordingStarted{}, err
	}
	if !ok {
		return engine.RecordingStarted{}, wire.Errorf(CodeRecDiskFull, "the user domain's recordings hold %d bytes of its quota of %d (--rec-domain-quota): delete programs to record again",
			used, m.rec.cfg.DomainQuota)
	}
	maxBytes := m.rec.cfg.MaxBytes
	if allow > 0 && (maxBytes <= 0 || allow < maxBytes) {
		maxBytes = allow
	}
	rel := partFile(m.rec.cfg.Dir, domain, recID, len(rc.Parts)+1)
	path := filepath.Join(m.rec.cfg.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return engine.RecordingStarted{}, wire.Errorf(CodeRecWriteError, "the recordings folder cannot be made: %v", err)
	}
	spec := media.RecordSpec{Path: path, Dual: rc.DualStream == 1, MaxBytes: maxBytes, MinFree: m.rec.cfg.MinFree}
	if rc.RecorderType == recTypeTerminal && len(rc.Members) > 0 {
		spec.Terminal = rc.Members[0]
	}
	run, err := m.rec.cfg.Media.Record(ctx, media.RecordRun{Domain: domain, Conf: confID, RecID: recID, Spec: spec,
		Ended: func(ctx context.Context, info media.RecordInfo, err error) bool {
			return m.recEnded(ctx, domain, confID, recID, info, err)
		}})
	if errors.Is(err, media.ErrNoRecorder) {
		return engine.RecordingStarted{}, wire.Errorf(CodeRecNoResource, "the recording cannot start: %v", err)
	}
	if err != nil {
		return engine.RecordingStarted{}, wire.Errorf(CodeRecWriteError, "the recording cannot start: %v", err)
	}
	return engine.RecordingStarted{RecID: recID, Run: run,
		Part: engine.RecordingPart{File: filepath.ToSlash(rel), Node: m.recNode(), StartedAt: tlMs(m.clk.Now())},
		Drop: func() { _, _ = m.rec.cfg.Media.StopRecording(recID) }}, nil
}

// recHere returns the recording running on this node, nil when there is
// none (rtc.Recordings' Recording).
func (m *Module) recHere(recID string) media.Running {
	if !m.recOn() {
		return nil
	}
	return m.rec.cfg.Media.Recording(recID)
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
	if run := m.recHere(recID); run != nil {
		if pause {
			run.Pause()
		} else {
			run.Resume()
		}
	}
}

// recMediaStop finalises a recording's file on the conference's media
// owner and returns the figures of its parts (nil when it has no file).
func (m *Module) recMediaStop(ctx context.Context, domain, confID string, rc engine.Recording) ([]media.RecordInfo, error) {
	if !m.recOn() {
		return nil, nil
	}
	recID := rc.RecID
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
	info, err := m.rec.cfg.Media.StopRecording(recID)
	if info == nil {
		return nil
	}
	if err != nil {
		m.rec.cfg.Log.Warn("recording: the file was cut short", "rec_id", recID, "err", err)
	}
	info.Path = relTo(m.rec.cfg.Dir, info.Path)
	return info
}

// relTo is a file's path relative to the recordings' folder dir.
func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// recEnded stores the end of a recording that stopped by itself (a full
// disk, a write error, the conference ending in the media plane): the
// media side's watcher calls it (media.RecordRun.Ended, rtc.Recordings)
// with the file's figures and why it stopped. It leaves the list with its
// program, and a failure is notified. confEnded tells that the conference
// had ended (nothing was stored).
func (m *Module) recEnded(ctx context.Context, domain, confID, recID string, info media.RecordInfo, err error) (confEnded bool) {
	info.Path = relTo(m.rec.cfg.Dir, info.Path)
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
		m.rec.cfg.Log.Error("recording: stopped by a failure", "conf_id", confID, "rec_id", recID, "error_code", code, "err", err)
	}
	ended, err := m.recEndedByMedia(ctx, domain, confID, recID, &info, code)
	if err != nil {
		m.rec.cfg.Log.Error("recording: the stop could not be stored", "conf_id", confID, "rec_id", recID, "err", err)
	}
	return ended
}

// recEndedByMedia stores the end of a recording that stopped by itself:
// its program, its leaving the list (with the failure's notification, in
// the same write), its terminals' rec flags. ended tells that the
// conference is no longer running (nothing was stored).
func (m *Module) recEndedByMedia(ctx context.Context, domain, confID, recID string, info *media.RecordInfo, code int) (ended bool, err error) {
	nctx, notes := store.WithNotices(ctx)
	var members []string
	c, err := m.confUpdate(nctx, domain, confID, func(c *engine.Conference) (bool, error) {
		i := recFind(*c, recID)
		if i < 0 {
			return false, nil // stopped meanwhile
		}
		now, rc := m.clk.Now(), c.Recorders[i]
		if err := m.programSave(ctx, *c, rc, now, m.recPartsInfo(rc, info, now)); err != nil {
			return false, err
		}
		members = rc.Members
		recDrop(c, i)
		if code != 0 {
			n, err := store.NewNotice(c.Rec.DomainMoid, c.ID(), "/recorders/"+recID,
				push.Failure{ErrorCode: code}, now)
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
		if err := m.setTermFlags(ctx, engine.ConfOf(c), id, termFlags{Rec: model.Some(0)}); err != nil {
			return false, err
		}
	}
	return false, nil
}
