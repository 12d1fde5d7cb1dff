package vc

import (
	"context"
	"errors"
	"slices"
	"sort"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// TV-wall self compositions (reference 05 items 62 to 66, "开启/获取/修改/
// 停止电视墙自主画面合成", "获取开启自主画面合成的电视墙列表"; seed 001: mode
// from 6.0.0.3.0). A TV wall of the domain's registry shows a composition
// of its own, kept in the conference document (engine.Conference.HDUVMPs) in the stored
// form of the self compositions (mtvmps_config.go). The wall must be free
// (hduClaim); an unknown wall answers 12105, a wall without a self
// composition 20823. Modifying without mode keeps the mode.

// hduvmpFind returns the index of the self composition of wall id, -1
// when it has none.
func hduvmpFind(c engine.Conference, id string) int {
	for i, h := range c.HDUVMPs {
		if h.HDUID == id {
			return i
		}
	}
	return -1
}

// hduvmpOf finds the self composition of the request's wall: 12105 for a
// wall of no registry, 20823 when the wall has none.
func (m *Module) hduvmpOf(ctx context.Context, c engine.Conference, id string) (int, error) {
	if err := m.hduKnown(ctx, c.Rec.DomainMoid, id); err != nil {
		return -1, err
	}
	i := hduvmpFind(c, id)
	if i < 0 {
		return -1, wire.Errorf(CodeVMPNotStarted, "TV wall %s runs no self composition in conference %s", id, c.ID())
	}
	return i, nil
}

// startHDUVMP starts the self composition of a free wall (20822 when it
// runs one).
func (m *Module) startHDUVMP(ctx context.Context, r *api.Request) error {
	var q model.VCConfsHduvmpsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	id := q.HDUID
	return m.writeHDUVMP(ctx, r, func(c engine.Conference, v *mdView, walls []engine.SelfVMP) ([]engine.SelfVMP, []string, error) {
		if hduvmpFind(c, id) >= 0 {
			return nil, nil, wire.Errorf(CodeVMPStarted, "TV wall %s already runs a self composition in conference %s", id, c.ID())
		}
		if err := m.hduClaim(ctx, v, []string{id}, "hduvmps", "hdu_id"); err != nil {
			return nil, nil, err
		}
		cfg, named, err := selfConfig(wallRequestOf(q.Layout, q.ShowMtName, q.Members), hduvmpStartMode(q), v.panes())
		if err != nil {
			return nil, nil, err
		}
		cfg.HDUID = id
		return append(walls, cfg), named, nil
	})
}

// hduvmpStartMode is the mode of a wall's self composition at its start.
// Before 6.0.0.3.0 the start has no mode (seed 001): as for the
// conference composition, it is custom (1) when it names members and
// automatic (2) when it names none.
// A mode of 0 is one not sent (the catalogue's validation refuses a 0
// that is).
func hduvmpStartMode(q model.VCConfsHduvmpsCreateRequest) int {
	if q.Mode != 0 {
		return q.Mode
	}
	if len(q.Members) > 0 {
		return 1
	}
	return 2
}

// modifyHDUVMP replaces the settings of a wall's self composition.
func (m *Module) modifyHDUVMP(ctx context.Context, r *api.Request) error {
	var q model.VCConfsHduvmpsUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	id := r.Path("hdu_id")
	return m.writeHDUVMP(ctx, r, func(c engine.Conference, v *mdView, walls []engine.SelfVMP) ([]engine.SelfVMP, []string, error) {
		i, err := m.hduvmpOf(ctx, c, id)
		if err != nil {
			return nil, nil, err
		}
		cfg, named, err := selfConfig(wallRequestOf(q.Layout, q.ShowMtName, q.Members), q.Mode.Or(walls[i].Mode), v.panes())
		if err != nil {
			return nil, nil, err
		}
		cfg.HDUID = id
		walls[i] = cfg
		return walls, named, nil
	})
}

// stopHDUVMP stops a wall's self composition, freeing the wall.
func (m *Module) stopHDUVMP(ctx context.Context, r *api.Request) error {
	id := r.Path("hdu_id")
	return m.writeHDUVMP(ctx, r, func(c engine.Conference, v *mdView, walls []engine.SelfVMP) ([]engine.SelfVMP, []string, error) {
		i, err := m.hduvmpOf(ctx, c, id)
		if err != nil {
			return nil, nil, err
		}
		return append(walls[:i:i], walls[i+1:]...), nil, nil
	})
}

// writeHDUVMP stores the TV-wall self compositions that change makes of
// the running conference's; the terminals change names must still be
// online after the write (see mediaStillOnline).
func (m *Module) writeHDUVMP(ctx context.Context, r *api.Request,
	change func(c engine.Conference, v *mdView, walls []engine.SelfVMP) ([]engine.SelfVMP, []string, error)) error {
	var named []string
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		walls, ids, err := change(*c, v, slices.Clone(c.HDUVMPs))
		if err != nil {
			return err
		}
		c.HDUVMPs = append([]engine.SelfVMP{}, walls...) // stored as a list, empty when the last stops
		hduForget(c, v)
		named = ids
		return nil
	})
	if err != nil {
		return err
	}
	// The wall's composed picture follows (media_sync.go).
	return errors.Join(m.mediaStillOnline(ctx, c, named), m.mediaSync(ctx, c))
}

// getHDUVMP shows a wall's self composition as it is now.
func (m *Module) getHDUVMP(ctx context.Context, r *api.Request) (*model.VCConfsHduvmpsGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	i, err := m.hduvmpOf(ctx, c, r.Path("hdu_id"))
	if err != nil {
		return nil, err
	}
	v, err := m.mdLoad(ctx, c)
	if err != nil {
		return nil, err
	}
	return v.wallReply(c.HDUVMPs[i]), nil
}

// listHDUVMPs lists the walls running a self composition.
func (m *Module) listHDUVMPs(ctx context.Context, r *api.Request) (*model.VCConfsHduvmpsListReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	walls := slices.Clone(c.HDUVMPs)
	sort.SliceStable(walls, func(i, j int) bool { return hduLess(walls[i].HDUID, walls[j].HDUID) })
	var out model.VCConfsHduvmpsListReply
	for _, h := range walls {
		out.HDUs = append(out.HDUs, model.VCConfsHduvmpsListReplyHDU{Layout: h.Layout, ShowMtName: h.ShowMtName, HDUID: h.HDUID})
	}
	return &out, nil
}
