package vc

import (
	"context"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
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
// its document (docHDUPoll) with its poll_id; starting another replaces
// it. Pausing keeps the page; resuming goes on from there.

// hdupollDefaultKeep is the poll interval when the request sends none.
const hdupollDefaultKeep = 5

// hdupollPool are the terminals a batch poll shows in turn, in order.
func (v *mdView) hdupollPool(hp map[string]any) []string {
	if record.Int(hp, "mode") == 1 {
		return v.onlineIDs()
	}
	var pool []string
	for _, id := range mdStrs(hp, "mt_ids") {
		if v.online(id) {
			pool = append(pool, id)
		}
	}
	return pool
}

// hdupollState is the state of a stored batch poll now: 1 polling, 2
// paused, 0 when its rounds are complete.
func (v *mdView) hdupollState(hp map[string]any) int {
	walls, pool := len(mdStrs(hp, "hdu_ids")), v.hdupollPool(hp)
	if walls == 0 || len(pool) == 0 {
		return record.Int(hp, "state")
	}
	if _, done := rotOf(hp).at((len(pool)+walls-1)/walls, v.now); done {
		return 0
	}
	return record.Int(hp, "state")
}

// hdupollShows maps each TV wall of a running batch poll to the terminal
// it shows now ("" when the page has fewer terminals than walls).
func (v *mdView) hdupollShows(hp map[string]any) map[string]string {
	walls := mdStrs(hp, "hdu_ids")
	page := mdPage(v.hdupollPool(hp), len(walls), rotOf(hp), v)
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
	hp := mdObj(c.Doc, docHDUPoll)
	if hp == nil {
		return shape.Project(map[string]any{"state": 0}, r.Endpoint.Reply), nil
	}
	v, err := m.mdLoad(ctx, c)
	if err != nil {
		return nil, err
	}
	var hdus, members []any
	for _, id := range mdStrs(hp, "hdu_ids") {
		hdus = append(hdus, map[string]any{"hdu_id": id})
	}
	for _, id := range v.hdupollPool(hp) {
		members = append(members, map[string]any{"mt_id": id})
	}
	out := shape.Merge(map[string]any{}, hp)
	out["state"], out["hdus"], out["members"] = v.hdupollState(hp), hdus, members
	return shape.Project(out, r.Endpoint.Reply), nil
}

// startHDUPoll starts a batch poll on the walls hdus and answers its
// poll_id.
func (m *Module) startHDUPoll(ctx context.Context, r *api.Request) (wire.Object, error) {
	p := r.Args.Params
	var named []string
	var pollID int
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		num, keep, err := mdRoundsKeep(p, "", hdupollDefaultKeep)
		if err != nil {
			return err
		}
		walls, err := hduIDs(mdObjs(p, "hdus"), "hdus")
		if err != nil {
			return err
		}
		if err := m.hduClaim(ctx, v, walls, "hdupoll", "hdus"); err != nil {
			return err
		}
		mode := record.Int(p, "mode")
		named = nil
		if mode == 2 {
			if named, err = v.mdIDs(mdObjs(p, "members"), "members"); err != nil {
				return err
			}
			if len(named) == 0 {
				return wire.InvalidParam("members", "must name the terminals of a custom batch poll (mode 2)")
			}
		}
		pollID = record.Int(c.Doc, docHDUPollNo) + 1
		hp := map[string]any{"poll_id": pollID, "mode": mode, "num": num, "keep_time": keep,
			"show_mt_name": record.Int(p, "show_mt_name"), "hdu_ids": mdStrAnys(walls),
			"mt_ids": mdStrAnys(named), "state": 1}
		mdRot{Num: num, Keep: time.Duration(keep) * time.Second, Since: v.now}.put(hp)
		c.Doc[docHDUPoll], c.Doc[docHDUPollNo] = hp, pollID
		hduForget(c, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return wire.Object{"poll_id": pollID}, m.mediaStillOnline(ctx, c, named)
}

// hduIDs reads a list of {hdu_id}: at least one, each given once.
func hduIDs(l []map[string]any, path string) ([]string, error) {
	if len(l) == 0 {
		return nil, wire.InvalidParam(path, "must name at least one TV wall")
	}
	seen := map[string]bool{}
	var out []string
	for i, e := range l {
		id := record.Str(e, "hdu_id")
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
		hp := mdObj(c.Doc, docHDUPoll)
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		if hp == nil || record.Int(hp, "poll_id") != id || v.hdupollState(hp) == 0 {
			return wire.Errorf(CodePollStopped, "conference %s runs no TV-wall batch poll %d", c.ID(), id)
		}
		rot := rotOf(hp)
		switch value {
		case 0:
			delete(c.Doc, docHDUPoll)
		case 1:
			rot.pause(v.now).put(hp)
			hp["state"] = 2
		case 2:
			rot.resume(v.now).put(hp)
			hp["state"] = 1
		}
		hduForget(c, v)
		return nil
	})
	return nil, err
}
