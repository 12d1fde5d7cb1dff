package vrs

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/vrs/program"
	"github.com/confer-platform/confer/internal/wire"
)

// Playback rooms (reference 09 "获取放像室列表" to "放像室恢复放像"). A
// room plays the program its prgid names (a program or file id of the
// domain; A5 24106 when there is none) to the conference that has the
// room online. The position follows the clock: it advances while playing,
// stays while paused, and the playback stops by itself at the program's
// end. Every start counts a play of the program (vodnum). The room's
// state beside cfg:
//
//	playstate       0 stopped, 1 playing, 2 paused (as last written; the end is derived)
//	play_prggid     the program played
//	play_pos_ms     the position at play_anchor_ms (UNIX ms)

// Playback states (reference 09 playstate) and actions.
const (
	playStopped = 0
	playPlaying = 1
	playPaused  = 2

	playStart = iota
	playStop
	playPause
	playResume
)

// playRoomCheck checks that a playback room's prgid names a recorded
// program of the domain.
func (m *Module) playRoomCheck(ctx context.Context, domain string, cfg map[string]any) error {
	if err := checkFileName("room.prgname", paramStr(cfg, "prgname")); err != nil {
		return err
	}
	_, err := m.playable(ctx, domain, paramInt(cfg, "prgid"))
	return err
}

// playable finds the recorded program of a file id (24106 otherwise).
func (m *Module) playable(ctx context.Context, domain string, id int) (program.Program, error) {
	p, _, err := program.FindFile(ctx, m.st, domain, id)
	if errors.Is(err, program.ErrNotFound) {
		return p, wire.Errorf(CodeNoFile, "program %d does not exist", id)
	}
	if err == nil && p.Recording() {
		return p, wire.Errorf(CodeNoFile, "program %d is still being recorded", id)
	}
	return p, err
}

// playPos is the position of a room's playback at now, and its state:
// a playback that reached the end of its program (length ms) is stopped.
func playPos(doc map[string]any, length int64, now time.Time) (int64, int) {
	state, pos := record.Int(doc, "playstate"), int64(record.Int(doc, "play_pos_ms"))
	if state == playPlaying {
		pos += now.UnixMilli() - int64(record.Int(doc, "play_anchor_ms"))
	}
	if state != playStopped && pos >= length {
		return 0, playStopped
	}
	return max(pos, 0), state
}

// programLength is the length in ms of the program a room plays (0 when
// it is gone).
func (m *Module) programLength(ctx context.Context, domain string, doc map[string]any, now time.Time) (program.Program, int64) {
	p, err := program.Get(ctx, m.st, domain, record.Int(doc, "play_prggid"))
	if err != nil {
		return p, 0
	}
	return p, p.LengthMs(now)
}

// playAction changes a room's playback.
func (m *Module) playAction(action int) func(context.Context, *api.Request) (wire.Object, error) {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) {
		if err := adminOnly(r); err != nil {
			return nil, err
		}
		domain, now := r.Principal.DomainMoid, m.clk.Now()
		var started program.Program
		_, err := m.roomUpdate(ctx, kindPlayRoom, domain, r.Path("id"), func(rm *room) error {
			_, length := m.programLength(ctx, domain, rm.doc, now)
			pos, state := playPos(rm.doc, length, now)
			set := func(state int, pos int64) {
				rm.doc["playstate"], rm.doc["play_pos_ms"], rm.doc["play_anchor_ms"] = state, pos, now.UnixMilli()
			}
			switch {
			case action == playStart && state != playStopped:
				return wire.Errorf(CodeBadState, "playback room %s is playing already", rm.rec.ID)
			case action == playStart:
				p, err := m.playable(ctx, domain, paramInt(rm.cfg(), "prgid"))
				if err != nil {
					return err
				}
				started = p
				rm.doc["play_prggid"] = p.GID()
				set(playPlaying, 0)
			case action == playStop && state == playStopped:
				return wire.Errorf(CodeBadState, "playback room %s is not playing", rm.rec.ID)
			case action == playStop:
				set(playStopped, 0)
			case action == playPause && state != playPlaying:
				return wire.Errorf(CodeBadState, "playback room %s is not playing", rm.rec.ID)
			case action == playPause:
				set(playPaused, pos)
			case state != playPaused: // resume
				return wire.Errorf(CodeBadState, "playback room %s is not paused", rm.rec.ID)
			default:
				set(playPlaying, pos)
			}
			return nil
		})
		if err != nil || started.Rec.ID == "" {
			return nil, err
		}
		_, err = program.Update(ctx, m.st, now, domain, started.GID(), func(p *program.Program) error {
			p.Doc["vodnum"] = record.Int(p.Doc, "vodnum") + 1
			return nil
		})
		if errors.Is(err, program.ErrNotFound) {
			err = nil
		}
		return nil, err
	}
}

// playRoomsPlaying returns the rooms of the domain that play (or pause)
// the program gid at now.
func (m *Module) playRoomsPlaying(ctx context.Context, domain string, gid int) ([]store.Record, error) {
	rs, err := m.rooms(ctx, kindPlayRoom, domain)
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	var out []store.Record
	for _, rm := range rs {
		if record.Int(rm.doc, "play_prggid") != gid {
			continue
		}
		_, length := m.programLength(ctx, domain, rm.doc, now)
		if _, state := playPos(rm.doc, length, now); state != playStopped {
			out = append(out, rm.rec)
		}
	}
	return out, nil
}

// playRoomStop stops a room's playback.
func (m *Module) playRoomStop(ctx context.Context, domain, id string) error {
	_, err := m.roomUpdate(ctx, kindPlayRoom, domain, id, func(rm *room) error {
		rm.doc["playstate"], rm.doc["play_pos_ms"] = playStopped, 0
		return nil
	})
	return err
}

func (m *Module) playRoomList(ctx context.Context, r *api.Request) (wire.Object, error) {
	now := m.clk.Now()
	return m.roomList(ctx, r, kindPlayRoom, func(rm room, calls map[string]caller) map[string]any {
		call := calls[rm.number()]
		domain := rm.rec.DomainMoid
		cfg := shallowCopy(rm.cfg())
		if p, _, err := program.FindFile(ctx, m.st, domain, paramInt(cfg, "prgid")); err == nil {
			cfg["streamjsonpath"] = record.Str(p.Doc, "streamjsonpath")
		}
		p, length := m.programLength(ctx, domain, rm.doc, now)
		pos, state := playPos(rm.doc, length, now)
		busy := state != playStopped || call.confID != ""
		v := map[string]any{
			"roomcfg": cfg, "roomstate": boolInt(busy), "playstate": state, "gkstate": 1, "sipstate": 0,
			"encmode": boolInt(busy), "authmode": boolInt(busy), "playobj": call.confName,
		}
		if state != playStopped {
			v["elapse"], v["duraion"] = int(pos/1000), p.Length(now)
		}
		return v
	})
}

func shallowCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
