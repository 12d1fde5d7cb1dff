package vc

import (
	"context"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The TV-wall batch poll (reference 05 items 72 to 74, "获取电视墙批量轮询
// 信息", "开启电视墙批量轮询", "修改电视墙批量轮询状态"; seed 001: from
// 5.2.0.2.0). The poll shows its terminals on its TV walls page by page, as
// many terminals as walls, turning every keep_time seconds (default 5, the
// reference's example); a round shows every page once, and after num
// rounds (num > 0) the poll has stopped and its walls are free. Mode 1
// (automatic) polls the online terminals, the speaker first; mode 2
// (custom) polls its members. A conference runs one batch poll, stored in
// its document (engine.Conference.HDUPoll, vc_hdupoll) with its poll_id
// (numbered by HDUPollSeq, vc_hdupoll_seq); starting another replaces
// it. Pausing keeps the page; resuming goes on from there.

// hdupollDefaultKeep is the poll interval when the request sends none.
const hdupollDefaultKeep = 5

// hdupollPool are the terminals a batch poll shows in turn, in order.
func (v *mdView) hdupollPool(hp *engine.HDUPoll) []string {
	if hp.Mode == 1 {
		return v.onlineIDs()
	}
	var pool []string
	for _, id := range hp.MtIDs {
		if v.online(id) {
			pool = append(pool, id)
		}
	}
	return pool
}

// hdupollState is the state of a stored batch poll now: 1 polling, 2
// paused, 0 when its rounds are complete.
func (v *mdView) hdupollState(hp *engine.HDUPoll) int {
	walls, pool := len(hp.HDUIDs), v.hdupollPool(hp)
	if walls == 0 || len(pool) == 0 {
		return hp.State
	}
	if _, done := hdupollRot(hp).at((len(pool)+walls-1)/walls, v.now); done {
		return 0
	}
	return hp.State
}

// hdupollRot is the rotation of a batch poll.
func hdupollRot(hp *engine.HDUPoll) mdRot { return rotOfStored(hp.Num, hp.KeepTime, hp.Rot) }

// hdupollShows maps each TV wall of a running batch poll to the terminal
// it shows now ("" when the page has fewer terminals than walls).
func (v *mdView) hdupollShows(hp *engine.HDUPoll) map[string]string {
	walls := hp.HDUIDs
	page := mdPage(v.hdupollPool(hp), len(walls), hdupollRot(hp), v)
	out := make(map[string]string, len(walls))
	for i, id := range walls {
		out[id] = ""
		if i < len(page) {
			out[id] = page[i]
		}
	}
	return out
}

// getHDUPoll shows the batch poll (hdupollReply).
func (m *Module) getHDUPoll(ctx context.Context, r *api.Request) (*model.VCConfsHdupollGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	hp := c.HDUPoll
	if hp == nil {
		return hdupollReply(nil, 0, nil), nil
	}
	v, err := m.mdLoad(ctx, c)
	if err != nil {
		return nil, err
	}
	return hdupollReply(hp, v.hdupollState(hp), v.hdupollPool(hp)), nil
}

// startHDUPoll starts a batch poll on the walls hdus (hdupollWalls) and
// answers its poll_id.
func (m *Module) startHDUPoll(ctx context.Context, r *api.Request) (*model.VCConfsHdupollStartReply, error) {
	var q model.VCConfsHdupollStartRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	var named []string
	var pollID int
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		num, keep, err := mdRoundsKeepOf(q.Num, q.KeepTime, "", hdupollDefaultKeep)
		if err != nil {
			return err
		}
		walls, members, err := hdupollWalls(q)
		if err != nil {
			return err
		}
		if err := m.hduClaim(ctx, v, walls, "hdupoll", "hdus"); err != nil {
			return err
		}
		named = nil
		if q.Mode == 2 {
			if named, err = v.mdIDList(members, "members"); err != nil {
				return err
			}
			if len(named) == 0 {
				return wire.InvalidParam("members", "must name the terminals of a custom batch poll (mode 2)")
			}
		}
		pollID = c.HDUPollSeq + 1
		c.HDUPoll = &engine.HDUPoll{PollID: pollID, Mode: q.Mode, Num: num, KeepTime: keep,
			ShowMtName: q.ShowMtName, HDUIDs: walls, MtIDs: named, State: 1,
			Rot: mdRot{Num: num, Keep: time.Duration(keep) * time.Second, Since: v.now}.stored()}
		c.HDUPollSeq = pollID
		hduForget(c, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := m.mediaStillOnline(ctx, c, named); err != nil {
		return nil, err
	}
	return &model.VCConfsHdupollStartReply{PollID: pollID}, nil
}

// hduIDs reads the hdu_id of a list of {hdu_id}: at least one, each given
// once.
func hduIDs(l []string, path string) ([]string, error) {
	if len(l) == 0 {
		return nil, wire.InvalidParam(path, "must name at least one TV wall")
	}
	seen := map[string]bool{}
	var out []string
	for i, id := range l {
		if seen[id] {
			return nil, wire.InvalidParam(fmt.Sprintf("%s[%d].hdu_id", path, i), fmt.Sprintf("TV wall %s is given twice", id))
		}
		seen[id] = true
		out = append(out, id)
	}
	return out, nil
}

// setHDUPollState stops (0), pauses (1) or resumes (2) the batch poll
// poll_id (hdupollStateChange).
func (m *Module) setHDUPollState(ctx context.Context, r *api.Request) error {
	var q model.VCConfsHdupollStateUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		running := 0
		if hp := c.HDUPoll; hp != nil {
			running = v.hdupollState(hp)
		}
		if err := hdupollStateChange(c, q.PollID, q.Value, running, v.now); err != nil {
			return err
		}
		hduForget(c, v)
		return nil
	})
	return err
}
