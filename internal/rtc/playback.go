package rtc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/playout"
)

// Playbacks on this node (docs/live.md "Playback"): the media owner's
// runtime of the playbacks vc decides (issue 40). A playback is a
// participant inside the SFU (kind "playback") publishing a program's
// video and Opus audio, paced in real time by internal/playout. Its
// watchers (the file's end, the participant hung up) run in the server's
// goroutine group, so that the server's Stop waits for them; Close stops
// every stream at shutdown.

// Payload types a playback publishes with (the SFU rewrites them per
// subscriber).
const (
	playPTVideo = 96
	playPTAudio = 111
)

// playbacks is the node's running playbacks, by conference.
type playbacks struct {
	group *lifecycle.Group
	clock playout.Clock
	mu    sync.Mutex
	runs  map[string]*playRun
}

// playRun is a playback playing on this node.
type playRun struct {
	ps     *playbacks
	conf   string
	peer   media.Peer
	player *playout.Player
	ready  chan struct{} // closed once player is set
}

// CheckProgram tells whether the file at path can be played.
func (l *LiveMedia) CheckProgram(path string) error {
	_, err := openProgram(path)
	return err
}

func openProgram(path string) (*playout.File, error) {
	f, err := playout.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", media.ErrUnplayable, err)
	}
	return f, nil
}

// Play opens a playback of the conference, paused: its participant joins
// the conference (the SFU's participant of kind "playback").
func (l *LiveMedia) Play(ctx context.Context, confID string, s media.PlaySpec) (media.Playback, error) {
	f, err := openProgram(s.Path)
	if err != nil {
		return nil, err
	}
	spec := media.PlaybackSpec{Name: s.Name, VideoPT: playPTVideo, AudioPT: playPTAudio}
	if f.Video != nil {
		spec.VideoMime = f.Video.Mime
	}
	if f.Audio != nil {
		spec.AudioMime = f.Audio.Mime
	}
	peer, err := l.OpenPlayback(ctx, confID, spec)
	if err != nil {
		return nil, err
	}
	ps := l.plays
	run := &playRun{ps: ps, conf: confID, peer: peer, ready: make(chan struct{})}
	run.player = playout.Play(f, &firstWrite{Sink: peer, first: s.Flowing}, playout.Options{AudioPT: playPTAudio, VideoPT: playPTVideo, Clock: ps.clock,
		Paused: true, OnEnd: func(error) {
			// The participant's leave is reported to the engine (a store
			// write): in the group, so that the server's Stop waits for it.
			ps.group.Go(func(context.Context) {
				<-run.ready
				run.ended()
			})
		}})
	close(run.ready)
	watching := ps.group.Go(func(ctx context.Context) { // hung up, or the conference ended
		select {
		case <-peer.Done():
			run.ended()
		case <-run.player.Done():
		case <-ctx.Done(): // the node stops: Close ends the stream
		}
	})
	if !watching {
		run.Stop()
		return nil, errors.New("the node is stopping")
	}
	return run, nil
}

// Playback returns the conference's playback on this node, nil for none.
func (l *LiveMedia) Playback(confID string) media.Playback {
	l.plays.mu.Lock()
	defer l.plays.mu.Unlock()
	if run := l.plays.runs[confID]; run != nil {
		return run
	}
	return nil
}

// StopPlayback ends the conference's playback on this node, if any.
func (l *LiveMedia) StopPlayback(confID string) {
	l.plays.mu.Lock()
	run := l.plays.runs[confID]
	delete(l.plays.runs, confID)
	l.plays.mu.Unlock()
	if run != nil {
		run.Stop()
	}
}

// ClosePlaybacks stops the streams of the node's playbacks when the node
// shuts down (before its SFU closes, which ends their participants
// without reports): their records stay as they are, as for any media the
// node's stop ends (docs/live.md "Playback").
func (l *LiveMedia) ClosePlaybacks() {
	l.plays.mu.Lock()
	runs := make([]*playRun, 0, len(l.plays.runs))
	for _, run := range l.plays.runs {
		runs = append(runs, run)
	}
	l.plays.mu.Unlock()
	for _, run := range runs {
		run.player.Stop()
	}
}

// Start makes run the conference's playback, stopping the one it
// replaces, and plays it from pos (held there when paused).
func (p *playRun) Start(pos time.Duration, paused bool) {
	p.ps.mu.Lock()
	old := p.ps.runs[p.conf]
	p.ps.runs[p.conf] = p
	p.ps.mu.Unlock()
	if old != nil && old != p {
		old.Stop()
	}
	if pos > 0 {
		p.player.Seek(pos)
	}
	if !paused {
		p.player.Resume()
	}
}

func (p *playRun) Seek(pos time.Duration) { p.player.Seek(pos) }
func (p *playRun) Pause()                 { p.player.Pause() }
func (p *playRun) Resume()                { p.player.Resume() }

// Stop ends the stream and makes the participant leave.
func (p *playRun) Stop() {
	p.player.Stop()
	p.peer.Leave(false)
}

// ended forgets a run that ended (file over, terminal gone).
func (p *playRun) ended() {
	p.ps.mu.Lock()
	if p.ps.runs[p.conf] == p {
		delete(p.ps.runs, p.conf)
	}
	p.ps.mu.Unlock()
	p.Stop()
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
