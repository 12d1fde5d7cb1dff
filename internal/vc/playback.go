package vc

import (
	"context"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Playback of a program into the conference (reference 05 items 53 to 56;
// seed 001 "Playback": POST from 5.1.0.2.0, PUT from 5.0.0.4.1). file_id
// names a program of the user domain (KindProgram, made by a stopped
// recording). With media (playback_media.go) a participant plays the
// program's file into the conference. The position advances with the clock while playing, can be
// paused, resumed and moved (current_progress), and the playback stops by
// itself at the program's length. Starting a playback replaces the one
// running, if any. With media the start is asynchronous (reference 05
// "开始放像，异步操作"): the playback is 4 (calling: its participant
// joins) and then 3 (preparing: until its stream flows) before 2, and a
// failure stops it with the notification 24104 (playback_owner.go).
//
// Stored as the conference's engine.Playback (vc_playback): file_id,
// file_name, vrs_id, play_dual_stream, rec_id (the playing recorder's id,
// from the counter of recordings), total_ms (program length), state (2
// playing, 1 paused, 0 stopped, as last set), pos_ms (position at
// anchor_at, UNIX ms) and paused_at (UNIX ms, 0 unless paused). A stopped
// playback keeps its file and the position it stopped at.

// The playback states (reference 05 "获取会议放像状态": 0 not playing,
// 1 paused, 2 playing, 3 preparing, 4 calling the entity).
const (
	playStopped   = 0
	playPaused    = 1
	playPlaying   = 2
	playPreparing = 3
	playCalling   = 4
)

// playback is the stored playback (engine.Conference's Playback).
type playback = engine.Playback

// playbackOf reads a copy of the stored playback (nil when there is none),
// which playbackStore writes back.
func playbackOf(c *engine.Conference) *playback {
	if c.Playback == nil {
		return nil
	}
	p := *c.Playback
	return &p
}

// playbackStore stores the playback p.
func playbackStore(c *engine.Conference, p *playback) { c.Playback = p }

// playbackStop stops the playback at pos.
func playbackStop(p *playback, pos time.Duration) {
	p.State, p.PosMs, p.PausedAt = playStopped, pos.Milliseconds(), 0
}

// playbackPos is the position of a playback at now, and whether it has
// reached the end of the program.
func playbackPos(p *playback, now time.Time) (time.Duration, bool) {
	ms := time.Millisecond
	pos, total := time.Duration(p.PosMs)*ms, time.Duration(p.TotalMs)*ms
	switch p.State {
	case playStopped, playPreparing, playCalling: // not moving yet
		return pos, false
	case playPaused:
		now = time.UnixMilli(p.PausedAt)
	}
	pos += max(now.Sub(time.UnixMilli(p.AnchorAt)), 0)
	if pos >= total {
		return total, true
	}
	return pos, false
}

// playbackStateAt reads the state of a playback at now.
func playbackStateAt(p *playback, now time.Time) int {
	if p == nil {
		return playStopped
	}
	if _, ended := playbackPos(p, now); ended {
		return playStopped
	}
	return p.State
}

// playbackPlaying tells whether the conference plays (or pauses) a
// program at now.
func playbackPlaying(c *engine.Conference, now time.Time) bool {
	return playbackStateAt(playbackOf(c), now) != playStopped
}

// playbackSettle stops a playback that reached its end (the due sweep).
func playbackSettle(c *engine.Conference, now time.Time) bool {
	p := playbackOf(c)
	if p == nil || p.State == playStopped {
		return false
	}
	if _, ended := playbackPos(p, now); !ended {
		return false
	}
	playbackStop(p, time.Duration(p.TotalMs)*time.Millisecond)
	playbackStore(c, p)
	return true
}

// playbackStart plays a program of the domain and answers the playing
// recorder's rec_id.
func (m *Module) playbackStart(ctx context.Context, r *api.Request) (*model.VCConfsPlaybackStartReply, error) {
	// start_put's request has the same members, its reply too.
	var q model.VCConfsPlaybackStartRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	fileID := q.FileID
	domain := r.Principal.DomainMoid
	if _, err := m.confRunning(ctx, r); err != nil {
		return nil, err
	}
	if err := playVRSCheck(q.VRSID, domain); err != nil {
		return nil, err
	}
	prg, ok, err := m.programGet(ctx, domain, strconv.Itoa(fileID))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, wire.Errorf(CodePlaybackNoFile, "file_id %d is not a program of the user domain", fileID)
	}
	if m.liveOn() {
		// The file must be there (24106 at once); the conference's media
		// owner plays it (playback_owner.go).
		if _, err := m.programFile(fileID, prg); err != nil {
			return nil, err
		}
	}
	n, err := m.st.NextNumber(ctx, recCounter, 1, 1<<31-1)
	if err != nil {
		return nil, err
	}
	recID := strconv.FormatInt(n, 10)
	state := playPlaying
	if m.liveOn() {
		state = playCalling // the player joins, then prepares, then plays
	}
	_, err = m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		p := playStartOf(q, prg, recID, state, m.clk.Now())
		playbackStore(c, &p)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if m.liveOn() {
		m.playbackBegin(domain, r.Path("conf_id"), recID)
	}
	return &model.VCConfsPlaybackStartReply{RecID: recID}, nil
}

// playbackGet answers the file, state and position of the playback.
func (m *Module) playbackGet(ctx context.Context, r *api.Request) (*model.VCConfsPlaybackGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	return playReply(playbackOf(&c), m.clk.Now()), nil
}

// playbackUpdate changes a playback that is playing or paused (20805
// otherwise): change edits its document at now.
func (m *Module) playbackUpdate(ctx context.Context, r *api.Request, change func(p *playback, now time.Time) (bool, error)) error {
	_, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		p, now := playbackOf(c), m.clk.Now()
		if playbackStateAt(p, now) == playStopped {
			return false, wire.Errorf(CodePlaybackNotPlaying, "conference %s is not playing back", c.ID())
		}
		changed, err := change(p, now)
		if changed && err == nil {
			playbackStore(c, p)
		}
		return changed, err
	})
	return err
}

// playbackState stops (0), pauses (1) or continues (2) the playback
// (playStateChange), then its media.
func (m *Module) playbackState(ctx context.Context, r *api.Request) error {
	var q model.VCConfsPlaybackStateUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	err := m.playbackUpdate(ctx, r, func(p *playback, now time.Time) (bool, error) {
		return playStateChange(p, q.Value, now)
	})
	if err != nil {
		return err
	}
	return m.playbackMedia(ctx, r.Principal.DomainMoid, r.Path("conf_id"), q.Value, -1)
}

// playbackSeek moves the position to current_progress seconds
// (playSeek), then its media.
func (m *Module) playbackSeek(ctx context.Context, r *api.Request) error {
	var q model.VCConfsPlaybackCurrentProgressUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	secs := q.CurrentProgress
	state := playPlaying
	err := m.playbackUpdate(ctx, r, func(p *playback, now time.Time) (bool, error) {
		var err error
		state, err = playSeek(p, secs, now)
		return err == nil, err
	})
	if err != nil {
		return err
	}
	return m.playbackMedia(ctx, r.Principal.DomainMoid, r.Path("conf_id"), state, time.Duration(secs)*time.Second)
}
