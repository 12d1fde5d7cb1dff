package vc

import (
	"context"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The TV walls of a conference (reference 05 items 68 to 71, "获取会议电视
// 墙列表", "获取电视墙通道信息", "开启电视墙", "关闭电视墙"; seed 001:
// show_mt_name and the alias operation from 6.1.0.2.0). Starting a wall
// stores it in the conference document (engine.Conference.HDUs) with what it shows: mode
// 1 a selected view (specific), 2 a four-way split screen (spilt), 3 a
// single-channel poll (poll, turning every keep_time seconds like the
// composition's). Starting a wall the conference already runs changes its
// view. The list and the channel info also show the walls of the TV-wall
// batch poll (view type 7). hdu_ids are walls of the domain's registry
// (hdu_registry.go).

// hduFind returns the index of TV wall id among the conference's started
// walls, -1 when it has not started it.
func hduFind(c engine.Conference, id string) int {
	for i, h := range c.HDUs {
		if h.HDUID == id {
			return i
		}
	}
	return -1
}

// startHDU starts (or changes the view of) a TV wall.
func (m *Module) startHDU(ctx context.Context, r *api.Request) error {
	var q model.VCConfsHDUsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	var named []string
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		if err := m.hduClaim(ctx, v, []string{q.HDUID}, "hdus", "hdu_id"); err != nil {
			return err
		}
		h, ids, err := v.hduConfig(q)
		if err != nil {
			return err
		}
		named = ids
		c.HDUs = hduPut(c.HDUs, h)
		return nil
	})
	if err != nil {
		return err
	}
	return m.mediaStillOnline(ctx, c, named)
}

// stopHDU stops a wall the conference started (hduStopOf).
func (m *Module) stopHDU(ctx context.Context, r *api.Request) error {
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		i, err := hduStopOf(*c, hduUses(*c, v), r.Path("hdu_id"))
		if err != nil {
			return err
		}
		c.HDUs = append(append([]engine.HDU{}, c.HDUs[:i]...), c.HDUs[i+1:]...)
		hduForget(c, v)
		return nil
	})
	return err
}

// listHDUs lists the walls the conference occupies (hduList).
func (m *Module) listHDUs(ctx context.Context, r *api.Request) (*model.VCConfsHDUsListReply, error) {
	c, v, err := m.mdRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	return hduList(hduUses(c, v)), nil
}

// getHDU shows what a wall of the conference shows now; 12105 for a wall
// the conference does not run.
func (m *Module) getHDU(ctx context.Context, r *api.Request) (*model.VCConfsHDUsGetReply, error) {
	id := r.Path("hdu_id")
	c, v, err := m.mdRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	if i := hduFind(c, id); i >= 0 {
		return v.hduReply(c.HDUs[i]), nil
	}
	if hp := c.HDUPoll; hp != nil && hduUses(c, v)[id] == "hdupoll" {
		mt := v.hdupollShows(hp)[id]
		return hdupollWallReply(id, hp, mt, v.account(mt)), nil
	}
	return nil, wire.Errorf(CodeHDUNotFound, "conference %s runs no TV wall %s", c.ID(), id)
}

// hduNameMax is the length of a TV-wall name (reference 05 "获取平台电视墙
// 列表": hdu_name, at most 16 bytes), which an alias stands for.
const hduNameMax = 16

// setHDUAlias sets (or, empty, clears) the alias of a wall the conference
// occupies; the platform list shows it as the wall's name while the
// conference occupies the wall (at most 16 bytes, as the name).
func (m *Module) setHDUAlias(ctx context.Context, r *api.Request) error {
	var q model.VCConfsHDUsAliasUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	if err := hduAliasCheck(q.Alias.Value); err != nil {
		return err
	}
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		return hduAliasSet(c, hduUses(*c, v), r.Path("hdu_id"), q.Alias.Value)
	})
	return err
}

// hduForget drops the aliases of the walls the conference no longer
// occupies.
func hduForget(c *engine.Conference, v *mdView) {
	if len(c.HDUAliases) == 0 {
		return
	}
	uses := hduUses(*c, v)
	for id := range c.HDUAliases {
		if uses[id] == "" {
			delete(c.HDUAliases, id)
		}
	}
}

// hduDrop removes the terminals in gone from the conference's walls: a
// wall viewing one of them shows nothing, its polls and split screens go
// on without them; a custom batch poll left without terminals stops. It
// reports whether the document changed.
func hduDrop(c *engine.Conference, gone leftSet, now time.Time) bool {
	changed := false
	for _, h := range c.HDUs {
		if sp := h.Specific; sp != nil && gone.has(sp.MtID) {
			sp.MtID, changed = "", true
		}
		if po := h.Poll; po != nil {
			if _, ch := dropSinglePoll(po, gone, now); ch {
				changed = true
			}
		}
		if sl := h.Split; sl != nil {
			kept := make([]engine.HDUSplitMember, 0, len(sl.Members))
			for _, e := range sl.Members {
				if !gone.has(e.MtID) {
					kept = append(kept, e)
				}
			}
			if len(kept) != len(sl.Members) {
				sl.Members, changed = kept, true
			}
		}
	}
	if hp := c.HDUPoll; hp != nil {
		if kept, ch := mdWithout(hp.MtIDs, gone); ch {
			hp.MtIDs, changed = kept, true
			if len(kept) == 0 { // a custom batch poll with no terminal left stops
				c.HDUPoll = nil
			}
		}
	}
	return changed
}
