package vrs

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
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
func (m *Module) playRoomCheck(ctx context.Context, domain string, cfg roomCfg) error {
	if err := checkFileName("room.prgname", cfg.Prgname); err != nil {
		return err
	}
	_, err := m.playable(ctx, domain, cfg.Prgid)
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
func playPos(doc roomDoc, length int64, now time.Time) (int64, int) {
	state, pos := doc.Playstate, doc.PlayPosMs
	if state == playPlaying {
		pos += now.UnixMilli() - doc.PlayAnchorMs
	}
	if state != playStopped && pos >= length {
		return 0, playStopped
	}
	return max(pos, 0), state
}

// programLength is the length in ms of the program a room plays (0 when
// it is gone).
func (m *Module) programLength(ctx context.Context, domain string, doc roomDoc, now time.Time) (program.Program, int64) {
	p, err := program.Get(ctx, m.st, domain, doc.PlayPrggid)
	if err != nil {
		return p, 0
	}
	return p, p.LengthMs(now)
}

// playAction changes a room's playback.
func (m *Module) playAction(action int) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error {
		if err := adminOnly(r); err != nil {
			return err
		}
		domain, now := r.Principal.DomainMoid, m.clk.Now()
		var started program.Program
		_, err := m.roomUpdate(ctx, kindPlayRoom, domain, r.Path("id"), func(rm *room) error {
			_, length := m.programLength(ctx, domain, rm.doc, now)
			pos, state := playPos(rm.doc, length, now)
			set := func(state int, pos int64) {
				rm.doc.Playstate, rm.doc.PlayPosMs, rm.doc.PlayAnchorMs = state, pos, now.UnixMilli()
			}
			switch {
			case action == playStart && state != playStopped:
				return wire.Errorf(CodeBadState, "playback room %s is playing already", rm.rec.ID)
			case action == playStart:
				p, err := m.playable(ctx, domain, rm.doc.Cfg.Prgid)
				if err != nil {
					return err
				}
				started = p
				rm.doc.PlayPrggid = p.GID()
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
			return err
		}
		_, err = program.Update(ctx, m.st, now, domain, started.GID(), func(p *program.Program) error {
			program.CountPlay(p)
			return nil
		})
		if errors.Is(err, program.ErrNotFound) {
			err = nil
		}
		return err
	})
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
		if rm.doc.PlayPrggid != gid {
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
		rm.doc.Playstate, rm.doc.PlayPosMs = playStopped, 0
		return nil
	})
	return err
}

// playRoomCreate adds a playback room of the caller's domain.
func (m *Module) playRoomCreate(ctx context.Context, r *api.Request) (*model.VRSPlayroomCreateReply, error) {
	id, err := m.roomCreate(ctx, r, kindPlayRoom, MaxPlayRooms, CodePlayRoomLimit)
	if err != nil {
		return nil, err
	}
	return &model.VRSPlayroomCreateReply{Roomid: id}, nil
}

func (m *Module) playRoomList(ctx context.Context, r *api.Request) (*model.VRSPlayroomListReply, error) {
	var q model.VRSPlayroomListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		return nil, err
	}
	now := m.clk.Now()
	rooms, count, pageID, err := roomList(ctx, m, r, model.VRSRecroomListRequest(q), kindPlayRoom, func(rm room, calls map[string]caller) model.VRSPlayroomListReplyRoomstateItem {
		call := calls[rm.number()]
		domain := rm.rec.DomainMoid
		streamjsonpath := ""
		if p, _, err := program.FindFile(ctx, m.st, domain, rm.doc.Cfg.Prgid); err == nil {
			streamjsonpath = p.StreamJSONPath()
		}
		p, length := m.programLength(ctx, domain, rm.doc, now)
		pos, state := playPos(rm.doc, length, now)
		busy := state != playStopped || call.confID != ""
		v := model.VRSPlayroomListReplyRoomstateItem{
			Roomcfg: rm.doc.Cfg.playView(streamjsonpath), Roomstate: boolInt(busy), Playstate: state, Gkstate: 1, Sipstate: 0,
			Encmode: boolInt(busy), Authmode: boolInt(busy), Playobj: call.confName,
		}
		if state != playStopped {
			v.Elapse, v.Duraion = int(pos/1000), p.Length(now)
		}
		return v
	})
	if err != nil {
		return nil, err
	}
	reply := model.VRSPlayroomListReply{Roomcount: count, Pageid: pageID, Roomstate: rooms}
	return &reply, nil
}
