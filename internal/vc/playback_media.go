package vc

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/wire"
)

// A playback with media (docs/live.md "Playback"): the program's file is
// played into the conference by a participant inside the SFU (kind
// "playback", named after file_name), which publishes the file's video
// and Opus audio paced in real time. Pause, resume, seek and stop act on
// the stream; the participant leaves at the end of the file, when the
// playback stops or is replaced, and the playback stops when its terminal
// is hung up. vc decides and stores; the stream, its participant and
// their watchers are the media owner's runtime (rtc.LiveMedia, through
// Media: Play, Playback, StopPlayback), so they move with the
// conference's media (playback_owner.go): a restart ends their media,
// not their records.

// programFile is the path of a program's file if it can be played
// (24106 when it has none or it is gone, never a 500: a file deleted
// behind Confer's back).
func (m *Module) programFile(fileID int, prg storedProgram) (string, error) {
	rel := path.Clean(prg.File)
	if prg.File == "" || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") || m.live.cfg.Dir == "" {
		return "", wire.Errorf(CodePlaybackNoFile, "program %d has no media file (recorded without media)", fileID)
	}
	p := filepath.Join(m.live.cfg.Dir, filepath.FromSlash(rel))
	if err := m.live.cfg.Media.CheckProgram(p); err != nil {
		return "", programFileError(fileID, err)
	}
	return p, nil
}

// programFileError is 24106 for a file that cannot be played.
func programFileError(fileID int, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return wire.Errorf(CodePlaybackNoFile, "the file of program %d is missing from the recordings folder", fileID)
	}
	return wire.Errorf(CodePlaybackNoFile, "the file of program %d cannot be played: %v", fileID, err)
}

// playbackOpen makes the playback's participant; the stream starts paused
// until its Start.
func (m *Module) playbackOpen(ctx context.Context, confID string, fileID int, s media.PlaySpec) (media.Playback, error) {
	run, err := m.live.cfg.Media.Play(ctx, confID, s)
	if errors.Is(err, media.ErrUnplayable) {
		return nil, programFileError(fileID, err)
	}
	if err != nil {
		return nil, wire.Errorf(CodeRecVRSFault, "the playback cannot join conference %s: %v", confID, err)
	}
	return run, nil
}

// playbackRun returns the conference's running playback, nil for none.
func (m *Module) playbackRun(confID string) media.Playback {
	if !m.liveOn() {
		return nil
	}
	return m.live.cfg.Media.Playback(confID)
}

// playbackMedia applies a state the document took to the stream, on the
// conference's media owner: value 0 stops, 1 pauses, 2 plays; seek
// (>= 0) moves it first.
func (m *Module) playbackMedia(ctx context.Context, domain, confID string, value int, seek time.Duration) error {
	if !m.liveOn() {
		return nil
	}
	if passed, _, err := m.playPass(ctx, domain, confID, "", playActApply, value, seek); passed || err != nil {
		return err
	}
	m.playbackMediaHere(confID, value, seek)
	return nil
}

// playbackMediaHere is playbackMedia on this node.
func (m *Module) playbackMediaHere(confID string, value int, seek time.Duration) {
	run := m.playbackRun(confID)
	if run == nil {
		return
	}
	if seek >= 0 {
		run.Seek(seek)
	}
	switch value {
	case playStopped:
		m.live.cfg.Media.StopPlayback(confID)
	case playPaused:
		run.Pause()
	case playPlaying:
		run.Resume()
	}
}
