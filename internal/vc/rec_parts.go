package vc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/wire"
)

// Recordings follow the conference's media owner (issue 35 item 5;
// docs/recording.md "Several nodes"). A recording records on the node
// that owns the conference's media: another node that serves its start,
// pause, resume or stop passes the action to the owner (RecordingConfig.
// Pass, the control "hosted" of rtc.Owners), which reads the recording
// from the stored conference and acts with its own SFU (HostedHere).
//
// A recording is recorded in parts. Each node that records it writes a
// part of its own, stored with the recording in the conference document
// (engine.Recording.Parts): the first is <rec_id>.webm, the next ones,
// started by a node that took the conference's media over from a node
// whose lease lapsed (MediaMoved), <rec_id>-2.webm and so on. The old
// owner's part ends with it (its stop finalises the file; kill -9 leaves
// it cut short, playable up to its last whole frame). When the recording stops, its
// program gets every part's figures (program.SetParts): a part whose file
// this node cannot read (another node's disk, lost) is a gap of the time
// it ran.

// Actions on a recording passed to the media owner.
const (
	recActStart  = "start"
	recActPause  = "pause"
	recActResume = "resume"
	recActStop   = "stop"
)

// A recording's parts are stored with it, never shown in the platform's
// replies: engine.Recording.Parts, x_confer_parts [{"file", "node",
// "started_at"}].

// recNode is this node's media URL ("" one node).
func (m *Module) recNode() string {
	if m.rec == nil || m.rec.cfg.Node == nil {
		return ""
	}
	return m.rec.cfg.Node()
}

// partFile is the file of a recording's n-th part (from 1), relative to
// the recordings folder dir: the first free name from n on.
func partFile(dir, domain, recID string, n int) string {
	for ; ; n++ {
		name := recID
		if n > 1 {
			name = fmt.Sprintf("%s-%d", recID, n)
		}
		rel := filepath.Join(domain, name+".webm")
		if n > 1000 {
			return rel // the recorder refuses an existing file
		}
		base := filepath.Join(dir, domain, name)
		if !exists(base+".webm") && !exists(base+".mkv") {
			return rel
		}
	}
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// Hosted is an action on media that the conference's media owner hosts
// (rtc.Hosted): a recording's or a playback's.
type Hosted struct {
	Kind   string // hostRecording or hostPlayback
	Domain string
	ID     string // the recording's rec_id; a playback's (or "": the conference's)
	Action string
	Value  int   // a playback's state (playActApply)
	SeekMs int64 // a playback's position to move to, -1 none (playActApply)
}

// Kinds of hosted media.
const (
	hostRecording = "recording"
	hostPlayback  = "playback"
	hostRTMP      = "rtmp" // a live broadcast's RTMP push (rec_rtmp.go)
)

// pass passes an action to the media owner when another node owns the
// conference; an owner out of reach is media.ErrMoving (90503), any
// other failure to pass code.
func (m *Module) pass(ctx context.Context, confID string, h Hosted, code int) (passed bool, reply []byte, err error) {
	if m.rec == nil || m.rec.cfg.Pass == nil {
		return false, nil, nil
	}
	passed, reply, err = m.rec.cfg.Pass(ctx, confID, h)
	var we *wire.Error
	if err == nil || errors.As(err, &we) || errors.Is(err, media.ErrMoving) {
		return passed, reply, err
	}
	return passed, nil, wire.Errorf(code, "the %s's %s on the conference's media node failed: %v", h.Kind, h.Action, err)
}

// recPass passes a recording's action to the media owner (24028 when it
// fails otherwise than by a stopped owner).
func (m *Module) recPass(ctx context.Context, domain, confID, recID, action string) (passed bool, reply []byte, err error) {
	return m.pass(ctx, confID, Hosted{Kind: hostRecording, Domain: domain, ID: recID, Action: action}, CodeRecWriteError)
}

// recAddPart stores the part of a file started on this node
// (recStartFile) with its recording; a recording that left the list
// meanwhile (stopped) is an error.
func (m *Module) recAddPart(ctx context.Context, domain, confID string, p engine.RecordingStarted) error {
	recID, part, run := p.RecID, p.Part, p.Run
	paused := false
	_, err := m.confUpdate(ctx, domain, confID, func(c *engine.Conference) (bool, error) {
		i := recFind(*c, recID)
		if i < 0 {
			return false, recUnknown(*c, recID)
		}
		rc := &c.Recorders[i]
		rc.Parts = append(rc.Parts, part)
		paused = rc.State == recPaused
		return true, nil
	})
	if err == nil && paused {
		run.Pause() // a paused recording continued by a new owner
	}
	return err
}

// recPartsInfo returns the figures of a recording's parts at its stop:
// cur is the part this node (or the owner) just finalised; the others
// are read from the recordings folder, and one that cannot be read is a
// gap (no size, the time it ran as its length). Nil when no part has a
// file.
func (m *Module) recPartsInfo(rc engine.Recording, cur *media.RecordInfo, now time.Time) []media.RecordInfo {
	parts := rc.Parts
	if len(parts) == 0 {
		if cur == nil {
			return nil
		}
		return []media.RecordInfo{*cur}
	}
	base := func(p string) string {
		return strings.TrimSuffix(strings.TrimSuffix(filepath.ToSlash(p), ".webm"), ".mkv")
	}
	var out []media.RecordInfo
	files, matched := 0, false
	for i, p := range parts {
		if cur != nil && base(cur.Path) == base(p.File) {
			out, matched = append(out, *cur), true
			files++
			continue
		}
		if info, ok := m.recFileInfo(base(p.File)); ok {
			out = append(out, info)
			files++
			continue
		}
		end := now.UnixMilli()
		if i+1 < len(parts) {
			end = parts[i+1].StartedAt
		}
		out = append(out, media.RecordInfo{Path: p.File, Duration: time.Duration(max(end-p.StartedAt, 0)) * time.Millisecond})
	}
	if cur != nil && !matched {
		out = append(out, *cur)
		files++
	}
	if files == 0 {
		return nil
	}
	return out
}

// HostedHere applies, on this node (the conference's media owner), an
// action another node passed here (rtc.HostedHook): a recording's
// (recordingHere) or a playback's (playbackHere, playback_owner.go).
func (m *Module) HostedHere(ctx context.Context, confID string, h Hosted) ([]byte, error) {
	switch h.Kind {
	case hostRecording:
		return m.recordingHere(ctx, h.Domain, confID, h.ID, h.Action)
	case hostPlayback:
		return nil, m.playbackHere(ctx, confID, h)
	case hostRTMP:
		return nil, m.rtmpHere(ctx, h.Domain, confID, h.ID, h.Action)
	}
	return nil, wire.InvalidParam("kind", "unknown hosted media "+h.Kind)
}

// recordingHere applies a recording's action on this node: start records
// the stored recording here, pause and resume act on its file, and stop
// finalises it and answers its figures (JSON media.RecordInfo, null when
// this node records none of it).
func (m *Module) recordingHere(ctx context.Context, domain, confID, recID, action string) ([]byte, error) {
	if !m.recOn() {
		return nil, wire.Errorf(CodeRecWriteError, "the conference's media node records nothing")
	}
	if run := m.recHere(recID); run != nil {
		if d, c := run.Of(); d != domain || c != confID {
			return nil, wire.Errorf(CodeRecNotRecording, "recording %s is not of conference %s", recID, confID)
		}
	}
	switch action {
	case recActStart:
		if m.recHere(recID) != nil {
			return nil, nil
		}
		c, err := m.confs.Get(ctx, domain, confID, engine.StateRunning)
		if err != nil {
			return nil, err
		}
		i := recFind(c, recID)
		if i < 0 {
			return nil, recUnknown(c, recID)
		}
		return nil, m.recStartHere(ctx, c, c.Recorders[i])
	case recActPause, recActResume:
		m.recStateHere(recID, action == recActPause)
		return nil, nil
	case recActStop:
		return json.Marshal(m.recStopHere(recID))
	}
	return nil, wire.InvalidParam("action", "unknown recording action "+action)
}

// recMoved continues, on this node, which just took the conference's
// media over from a node whose lease lapsed, the conference's running
// recordings that keep a file: each into a new part (MediaMoved).
func (m *Module) recMoved(ctx context.Context, c engine.Conference) error {
	if !m.recOn() {
		return nil
	}
	var errs []error
	for _, rc := range c.Recorders {
		recID := rc.RecID
		if rc.RecorderMode == recLive || m.recHere(recID) != nil {
			continue
		}
		if err := m.recStartHere(ctx, c, rc); err != nil {
			errs = append(errs, fmt.Errorf("recording %s: %w", recID, err))
			continue
		}
		m.rec.cfg.Log.Info("recording: continued into a new part on the conference's new media owner", "conf_id", c.ID(),
			"rec_id", recID, "part", len(rc.Parts)+1)
	}
	return errors.Join(errs...)
}

// MediaLost ends, without storing anything, this node's parts of the
// recordings of a conference another node took over (this node's lease
// lapsed): their files are finalised (rtc.Recordings' DropConference),
// and the new owner records the next parts. Its RTMP pushes stop too:
// the new owner pushes.
func (m *Module) MediaLost(confID string) {
	m.rtmpLost(confID)
	if m.recOn() {
		m.rec.cfg.Media.DropConference(confID)
	}
}
