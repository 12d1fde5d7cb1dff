package vc

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// A playback plays on the conference's media owner, and its start is
// asynchronous (reference 05 "开始放像，异步操作"; docs/live.md
// "Playback"). The start stores the playback as 4 (正在呼叫实体: its
// participant is joining) and answers; then, in the node's goroutine
// group, the owner (the action passed to it by another node, the control
// "hosted" of rtc.Owners) reads the playback from the stored conference,
// opens the file and its participant and stores 3 (准备播放: preparing);
// the first packet the player sends stores 2 (playing) and starts the
// position's clock. A failure (the file cannot be played, the
// participant cannot join, the owner is out of reach) stores 0 and
// notifies /confs/{conf_id}/playback with error_code 24104 (reference 07
// "放像异常通知", A3 24104). Pause, resume, seek and stop are passed to the
// owner too (playbackMedia). A node that takes the conference's media over
// plays a playing or paused playback again from where it is (MediaMoved).

// playbackStep, when set (tests only: SetPlaybackStepHook), is called on
// the start's steps with the state the conference holds at that moment:
// 4 once the participant joined (before 3 is stored), 3 once stored, 2
// once stored. The start waits for it, so a test reads each state through
// the API as it is, not by the luck of a poll.
var playbackStep atomic.Pointer[func(confID string, state int)]

// SetPlaybackStepHook sets the hook of a playback's start steps (nil:
// none) and returns the one it replaced; for tests.
func SetPlaybackStepHook(f func(confID string, state int)) func(confID string, state int) {
	var old *func(string, int)
	if f == nil {
		old = playbackStep.Swap(nil)
	} else {
		old = playbackStep.Swap(&f)
	}
	if old == nil {
		return nil
	}
	return *old
}

// playbackStepped calls the hook of the start's steps, if any.
func playbackStepped(confID string, state int) {
	if f := playbackStep.Load(); f != nil {
		(*f)(confID, state)
	}
}

// Playback actions passed to the media owner.
const (
	playActStart = "start" // play the stored playback (its ID) here
	playActApply = "apply" // apply Value and SeekMs to the running stream
)

// playPass passes a playback's action to the media owner (24104 when it
// fails otherwise than by a stopped owner).
func (m *Module) playPass(ctx context.Context, domain, confID, recID, action string, value int, seek time.Duration) (bool, []byte, error) {
	seekMs := int64(-1)
	if seek >= 0 {
		seekMs = seek.Milliseconds()
	}
	return m.pass(ctx, confID, Hosted{Kind: hostPlayback, Domain: domain, ID: recID, Action: action, Value: value, SeekMs: seekMs}, CodeRecVRSFault)
}

// playbackBegin starts the stored playback recID in the background: on
// the media owner, passed to it or here.
func (m *Module) playbackBegin(domain, confID, recID string) {
	g := m.live.cfg.Group
	ok := g.Go(func(ctx context.Context) {
		passed, _, err := m.playPass(ctx, domain, confID, recID, playActStart, 0, -1)
		if !passed && err == nil {
			err = m.playbackStartHere(ctx, domain, confID, recID)
		}
		if err != nil && ctx.Err() == nil {
			m.playbackFailed(context.WithoutCancel(ctx), domain, confID, recID, err)
		}
	})
	if !ok {
		m.playbackFailed(context.Background(), domain, confID, recID, errors.New("the node is stopping"))
	}
}

// playbackNow reads the conference's playback if it is still recID
// (nil otherwise: replaced or stopped).
func (m *Module) playbackNow(ctx context.Context, domain, confID, recID string) (engine.Conference, *playback, error) {
	c, err := m.confs.Get(ctx, domain, confID, engine.StateRunning)
	if err != nil {
		return c, nil, err
	}
	p := playbackOf(&c)
	if p == nil || p.RecID != recID || playbackStateAt(p, m.clk.Now()) == playStopped {
		return c, nil, nil
	}
	return c, p, nil
}

// playbackStartHere plays the stored playback recID on this node from its
// stored position and state; a playback replaced or stopped meanwhile is
// left alone.
func (m *Module) playbackStartHere(ctx context.Context, domain, confID, recID string) error {
	_, p, err := m.playbackNow(ctx, domain, confID, recID)
	if err != nil || p == nil {
		return err
	}
	fileID := p.FileID
	prg, ok, err := m.programGet(ctx, domain, strconv.Itoa(fileID))
	if err != nil {
		return err
	}
	if !ok {
		return wire.Errorf(CodePlaybackNoFile, "file_id %d is no longer a program of the user domain", fileID)
	}
	file, err := m.programFile(fileID, prg)
	if err != nil {
		return err
	}
	name := p.FileName
	if name == "" {
		name = prg.Name
	}
	g := m.live.cfg.Group
	run, err := m.playbackOpen(ctx, confID, fileID, media.PlaySpec{Name: name, Path: file, Flowing: func() {
		g.Go(func(ctx context.Context) { m.playbackFlowing(ctx, domain, confID, recID) })
	}})
	if err != nil {
		return err
	}
	// Joined: preparing until the stream flows.
	playbackStepped(confID, playCalling)
	var state int
	var pos time.Duration
	_, err = m.confUpdate(ctx, domain, confID, func(c *engine.Conference) (bool, error) {
		p := playbackOf(c)
		if p == nil || p.RecID != recID || playbackStateAt(p, m.clk.Now()) == playStopped {
			state = playStopped
			return false, nil
		}
		pos, _ = playbackPos(p, m.clk.Now())
		if state = p.State; state == playCalling {
			p.State = playPreparing
			playbackStore(c, p)
			return true, nil
		}
		return false, nil
	})
	if err != nil || state == playStopped {
		run.Stop()
		return err
	}
	if state == playCalling {
		playbackStepped(confID, playPreparing)
	}
	run.Start(pos, state == playPaused)
	return nil
}

// playbackFlowing stores 2 (playing) once the stream of a preparing
// playback flows: its position counts from now.
func (m *Module) playbackFlowing(ctx context.Context, domain, confID, recID string) {
	stored := false
	_, err := m.confUpdate(ctx, domain, confID, func(c *engine.Conference) (bool, error) {
		p := playbackOf(c)
		stored = false
		if p == nil || p.RecID != recID || p.State != playPreparing {
			return false, nil
		}
		p.State, p.AnchorAt = playPlaying, tlMs(m.clk.Now())
		playbackStore(c, p)
		stored = true
		return true, nil
	})
	if err == nil && stored {
		playbackStepped(confID, playPlaying)
	}
	if err != nil && !isConfNotFound(err) {
		m.liveLog().Warn("playback: storing that it plays", "conf_id", confID, "rec_id", recID, "err", err)
	}
}

// playbackFailed stops a playback whose start failed and notifies
// /confs/{conf_id}/playback with error_code 24104.
func (m *Module) playbackFailed(ctx context.Context, domain, confID, recID string, cause error) {
	m.liveLog().Warn("playback: the start failed", "conf_id", confID, "rec_id", recID, "err", cause)
	nctx, notes := store.WithNotices(ctx)
	_, err := m.confUpdate(nctx, domain, confID, func(c *engine.Conference) (bool, error) {
		p := playbackOf(c)
		if p == nil || p.RecID != recID || p.State == playStopped {
			return false, nil
		}
		now := m.clk.Now()
		pos, _ := playbackPos(p, now)
		playbackStop(p, pos)
		playbackStore(c, p)
		n, err := store.NewNotice(c.Rec.DomainMoid, c.ID(), "/playback", push.Failure{ErrorCode: CodeRecVRSFault}, now)
		if err != nil {
			return false, err
		}
		notes.Set(n)
		return true, nil
	})
	if err != nil && !isConfNotFound(err) {
		m.liveLog().Error("playback: storing a failed start", "conf_id", confID, "rec_id", recID, "err", err)
	}
}

// playbackHere applies a playback's action another node passed here.
func (m *Module) playbackHere(ctx context.Context, confID string, h Hosted) error {
	if !m.liveOn() {
		return wire.Errorf(CodeRecVRSFault, "the conference's media node plays nothing")
	}
	switch h.Action {
	case playActStart:
		return m.playbackStartHere(ctx, h.Domain, confID, h.ID)
	case playActApply:
		seek := time.Duration(-1)
		if h.SeekMs >= 0 {
			seek = time.Duration(h.SeekMs) * time.Millisecond
		}
		m.playbackMediaHere(confID, h.Value, seek)
		return nil
	}
	return wire.InvalidParam("action", "unknown playback action "+h.Action)
}

// playMoved plays again, on this node, which just took the conference's
// media over, a playback that was playing or paused on the old owner:
// from where it is, as a new start (4, then 3, then 2).
func (m *Module) playMoved(ctx context.Context, c engine.Conference) {
	if !m.liveOn() || m.playbackRun(c.ID()) != nil {
		return
	}
	p := playbackOf(&c)
	if p == nil || playbackStateAt(p, m.clk.Now()) == playStopped {
		return
	}
	recID := p.RecID
	_, err := m.confUpdate(ctx, c.Rec.DomainMoid, c.ID(), func(c *engine.Conference) (bool, error) {
		p := playbackOf(c)
		now := m.clk.Now()
		if p == nil || p.RecID != recID || p.State != playPlaying || playbackStateAt(p, now) == playStopped {
			return false, nil
		}
		pos, _ := playbackPos(p, now)
		p.State, p.PosMs, p.AnchorAt = playCalling, pos.Milliseconds(), tlMs(now)
		playbackStore(c, p)
		return true, nil
	})
	if err != nil {
		m.liveLog().Warn("playback: moving to this node", "conf_id", c.ID(), "err", err)
		return
	}
	m.playbackBegin(c.Rec.DomainMoid, c.ID(), recID)
}

// liveLog is the log of live media's background work.
func (m *Module) liveLog() *slog.Logger {
	if m.rec != nil && m.rec.cfg.Log != nil {
		return m.rec.cfg.Log
	}
	return slog.Default()
}
