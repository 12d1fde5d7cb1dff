package vc

import (
	"context"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
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

// getHDUPoll shows the batch poll; state 0 and nothing else when none
// runs.
func (m *Module) getHDUPoll(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, err := m.ctlRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	hp := c.HDUPoll
	if hp == nil {
		return (&model.VCConfsHdupollGetReply{}).Wire(), nil
	}
	v, err := m.mdLoad(ctx, c)
	if err != nil {
		return nil, err
	}
	out := model.VCConfsHdupollGetReply{Mode: hp.Mode, Num: hp.Num, KeepTime: hp.KeepTime, ShowMtName: hp.ShowMtName,
		State: v.hdupollState(hp)}
	for _, id := range hp.HDUIDs {
		out.HDUs = append(out.HDUs, model.VCConfsHdupollGetReplyHDU{HDUID: id})
	}
	for _, id := range v.hdupollPool(hp) {
		out.Members = append(out.Members, model.VCConfsHdupollGetReplyMember{MtID: id})
	}
	return out.Wire(), nil
}

// startHDUPoll starts a batch poll on the walls hdus and answers its
// poll_id.
func (m *Module) startHDUPoll(ctx context.Context, r *api.Request) (wire.Object, error) {
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
		ids := make([]string, len(q.HDUs))
		for i, h := range q.HDUs {
			ids[i] = h.HDUID
		}
		walls, err := hduIDs(ids, "hdus")
		if err != nil {
			return err
		}
		if err := m.hduClaim(ctx, v, walls, "hdupoll", "hdus"); err != nil {
			return err
		}
		mode := q.Mode
		named = nil
		if mode == 2 {
			ids := make([]string, len(q.Members))
			for i, e := range q.Members {
				ids[i] = e.MtID
			}
			if named, err = v.mdIDList(ids, "members"); err != nil {
				return err
			}
			if len(named) == 0 {
				return wire.InvalidParam("members", "must name the terminals of a custom batch poll (mode 2)")
			}
		}
		pollID = c.HDUPollSeq + 1
		c.HDUPoll = &engine.HDUPoll{PollID: pollID, Mode: mode, Num: num, KeepTime: keep,
			ShowMtName: q.ShowMtName, HDUIDs: walls, MtIDs: named, State: 1,
			Rot: mdRot{Num: num, Keep: time.Duration(keep) * time.Second, Since: v.now}.stored()}
		c.HDUPollSeq = pollID
		hduForget(c, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return wire.Object{"poll_id": pollID}, m.mediaStillOnline(ctx, c, named)
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
// poll_id; 20524 when it does not run.
func (m *Module) setHDUPollState(ctx context.Context, r *api.Request) (wire.Object, error) {
	p := r.Args.Params
	id, value := record.Int(p, "poll_id"), record.Int(p, "value")
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		hp := c.HDUPoll
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		if hp == nil || hp.PollID != id || v.hdupollState(hp) == 0 {
			return wire.Errorf(CodePollStopped, "conference %s runs no TV-wall batch poll %d", c.ID(), id)
		}
		rot := hdupollRot(hp)
		switch value {
		case 0:
			c.HDUPoll = nil
		case 1:
			hp.Rot, hp.State = rot.pause(v.now).stored(), 2
		case 2:
			hp.Rot, hp.State = rot.resume(v.now).stored(), 1
		}
		hduForget(c, v)
		return nil
	})
	return nil, err
}
