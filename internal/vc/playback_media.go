package vc

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/playout"
	"github.com/confer-platform/confer/internal/wire"
)

// A playback with media (docs/live.md "Playback"): the program's file is
// played into the conference by a participant inside the SFU (kind
// "playback", named after file_name), which publishes the file's video
// and Opus audio paced in real time. Pause, resume, seek and stop act on
// the stream; the participant leaves at the end of the file, when the
// playback stops or is replaced, and the playback stops when its terminal
// is hung up. Playbacks play on the conference's media owner
// (playback_owner.go): a restart ends their media, not their records.

// Payload types the playback publishes with (the SFU rewrites them per
// subscriber).
const (
	playPTVideo = 96
	playPTAudio = 111
)

// playRun is a playback playing on this node.
type playRun struct {
	local  media.Peer
	player *playout.Player
	ready  chan struct{} // closed once player is set
}

// stop ends the stream and makes the participant leave.
func (p *playRun) stop() {
	p.player.Stop()
	p.local.Leave(false)
}

// programFile opens the file of a program (24106 when it has none or it
// is gone, never a 500: a file deleted behind Confer's back).
func (m *Module) programFile(fileID int, prg map[string]any) (*playout.File, error) {
	rel := path.Clean(tlStr(prg["file"]))
	if tlStr(prg["file"]) == "" || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") || m.live.cfg.Dir == "" {
		return nil, wire.Errorf(CodePlaybackNoFile, "program %d has no media file (recorded without media)", fileID)
	}
	f, err := playout.Open(filepath.Join(m.live.cfg.Dir, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, wire.Errorf(CodePlaybackNoFile, "the file of program %d is missing from the recordings folder", fileID)
	}
	if err != nil {
		return nil, wire.Errorf(CodePlaybackNoFile, "the file of program %d cannot be played: %v", fileID, err)
	}
	return f, nil
}

// playbackOpen makes the playback's participant; the stream starts paused
// until playbackRun.
func (m *Module) playbackOpen(ctx context.Context, confID, name string, f *playout.File, flowing func()) (*playRun, error) {
	spec := media.PlaybackSpec{Name: name, VideoPT: playPTVideo, AudioPT: playPTAudio}
	if f.Video != nil {
		spec.VideoMime = f.Video.Mime
	}
	if f.Audio != nil {
		spec.AudioMime = f.Audio.Mime
	}
	l, err := m.live.cfg.Media.OpenPlayback(ctx, confID, spec)
	if err != nil {
		return nil, wire.Errorf(CodeRecVRSFault, "the playback cannot join conference %s: %v", confID, err)
	}
	run := &playRun{local: l, ready: make(chan struct{})}
	g := m.live.cfg.Group
	run.player = playout.Play(f, &firstWrite{Sink: l, first: flowing}, playout.Options{AudioPT: playPTAudio, VideoPT: playPTVideo, Clock: m.live.cfg.Clock,
		Paused: true, OnEnd: func(error) {
			// The participant's leave is reported to the engine (a store
			// write): in the group, so that the server's Stop waits for it.
			g.Go(func(context.Context) {
				<-run.ready
				m.playbackEnded(confID, run)
			})
		}})
	close(run.ready)
	watching := g.Go(func(ctx context.Context) { // hung up, or the conference ended
		select {
		case <-l.Done():
			run.player.Stop()
			m.playbackEnded(confID, run)
		case <-run.player.Done():
		case <-ctx.Done(): // the node stops: ClosePlaybacks ends the stream
		}
	})
	if !watching {
		run.player.Stop()
		l.Leave(false)
		return nil, wire.Errorf(CodeRecVRSFault, "the node is stopping: the playback cannot start")
	}
	return run, nil
}

// playbackSwap makes run the conference's playback (nil: none), stopping
// the one it replaces.
func (m *Module) playbackSwap(confID string, run *playRun) {
	m.live.mu.Lock()
	old := m.live.plays[confID]
	if run != nil {
		m.live.plays[confID] = run
	} else {
		delete(m.live.plays, confID)
	}
	m.live.mu.Unlock()
	if old != nil && old != run {
		old.stop()
	}
}

// playbackEnded forgets a run that ended (file over, terminal gone).
func (m *Module) playbackEnded(confID string, run *playRun) {
	m.live.mu.Lock()
	if m.live.plays[confID] == run {
		delete(m.live.plays, confID)
	}
	m.live.mu.Unlock()
	run.player.Stop()
	run.local.Leave(false)
}

// playbackRun returns the conference's running playback, nil for none.
func (m *Module) playbackRun(confID string) *playRun {
	if !m.liveOn() {
		return nil
	}
	m.live.mu.Lock()
	defer m.live.mu.Unlock()
	return m.live.plays[confID]
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
		run.player.Seek(seek)
	}
	switch value {
	case playStopped:
		m.playbackSwap(confID, nil)
	case playPaused:
		run.player.Pause()
	case playPlaying:
		run.player.Resume()
	}
}

// ClosePlaybacks stops the streams of the node's playbacks when the node
// shuts down (before its SFU closes, which ends their participants
// without reports): their records stay as they are, as for any media the
// node's stop ends (docs/live.md "Playback").
func (m *Module) ClosePlaybacks() {
	if !m.liveOn() {
		return
	}
	m.live.mu.Lock()
	runs := make([]*playRun, 0, len(m.live.plays))
	for _, run := range m.live.plays {
		runs = append(runs, run)
	}
	m.live.mu.Unlock()
	for _, run := range runs {
		run.player.Stop()
	}
}

// firstWrite is a player's sink that calls first once, when the first
// packet goes out (the stream flows), in the player's goroutine: first
// must not block.
type firstWrite struct {
	playout.Sink
	once  sync.Once
	first func()
}

func (w *firstWrite) flowed() {
	if w.first != nil {
		w.once.Do(w.first)
	}
}

func (w *firstWrite) WriteAudio(p *rtp.Packet) { w.Sink.WriteAudio(p); w.flowed() }
func (w *firstWrite) WriteVideo(p *rtp.Packet) { w.Sink.WriteVideo(p); w.flowed() }
