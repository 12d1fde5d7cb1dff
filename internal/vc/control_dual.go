package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// The dual-stream (content sharing) source (reference 05 items 21 to 23,
// "获取/指定/取消会议双流源"). The reference calls setting and cancelling
// asynchronous; Confer's simulated media plane switches at once, so the
// reply comes after the source is stored and reads show it immediately.
// The source terminal's dual is 1, every other terminal's 0.

// setDualStream makes an online terminal the dual-stream source (mt_id ""
// cancels the source).
func (m *Module) setDualStream(ctx context.Context, r *api.Request) error {
	var q model.VCConfsDualstreamUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	mtID := q.MtID
	prev := ""
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		if mtID != "" {
			if _, err := m.ctlOnline(ctx, *c, mtID); err != nil {
				return err
			}
		}
		prev = c.Roles.Dual
		c.Roles.Dual = mtID
		return nil
	})
	if err != nil {
		return err
	}
	if err := m.engine.Apply(ctx, engine.ConfOf(c), dualEffects(prev, mtID)); err != nil { // the dual flags move
		return err
	}
	return m.ctlStillOnline(ctx, c, mtID)
}

// cancelDualStream stops the dual stream of the terminal mt_id. A
// terminal of the conference that is not the source has nothing to stop
// (success, nothing changes); one that is not in the conference is 12104;
// mt_id "" stops whichever terminal is the source.
func (m *Module) cancelDualStream(ctx context.Context, r *api.Request) error {
	var q model.VCConfsDualstreamDeleteRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	mtID := q.MtID
	prev := ""
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		if mtID != "" {
			if _, err := m.ctlTerminal(ctx, *c, mtID); err != nil {
				return err
			}
		}
		prev = c.Roles.Dual
		if !dualCancels(prev, mtID) {
			return errCtlUnchanged
		}
		c.Roles.Dual = ""
		return nil
	})
	if errors.Is(err, errCtlUnchanged) {
		return nil
	}
	if err != nil {
		return err
	}
	return m.engine.Apply(ctx, engine.ConfOf(c), dualEffects(prev, "")) // the dual flags move
}
