package vc

import (
	"context"
	"errors"
	"fmt"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// A dual stream that a terminal starts on its own (a screen share of the
// join page, a WHIP ?dual=1 publisher: media.Events.DualStarted) becomes
// the conference's dual stream source as PUT .../dualstream makes it,
// under the conference's dual_mode (docs/media.md "Dual stream"):
//   - 0: only the speaker may send it;
//   - 1: any terminal;
//   - 2: designated terminals: the chairman, or the terminal the chair
//     already named source (PUT .../dualstream).
//
// A refused share is media.ErrRefused (the SFU answers 403).

// mayShare tells whether dual_mode lets mt send the dual stream.
func mayShare(c engine.Conference, mt string) bool {
	switch record.Int(c.Doc, "dual_mode") {
	case 1:
		return true
	case 2:
		return c.Roles.Chairman == mt || c.Roles.Dual == mt
	default:
		return c.Roles.Speaker == mt
	}
}

// whoMayShare says, for the person refused, who may share under the
// conference's dual_mode (the seeds' 0 speaker, 1 anyone, 2 chairman).
func whoMayShare(c engine.Conference) string {
	if record.Int(c.Doc, "dual_mode") == 2 {
		return "only the chairman or the terminal the chair names may share a screen in this conference"
	}
	return "only the speaker may share a screen in this conference"
}

// mediaDualStarted makes mt, whose share started, the dual stream source.
func (m *Module) mediaDualStarted(ctx context.Context, ec engine.Conf, mt string) error {
	for {
		c, err := m.confs.Get(ctx, ec.DomainMoid, ec.ConfID, engine.StateRunning)
		if err != nil {
			return fmt.Errorf("%w: %v", media.ErrEnded, err)
		}
		if !mayShare(c, mt) {
			return fmt.Errorf("%w: %s (dual_mode %d)", media.ErrRefused, whoMayShare(c), record.Int(c.Doc, "dual_mode"))
		}
		if err := m.ctlIsOnline(ctx, c, mt); err != nil {
			return fmt.Errorf("%w: terminal %s is not online", media.ErrRefused, mt)
		}
		prev := c.Roles.Dual
		c.Roles.Dual = mt
		if prev != mt {
			err = m.confs.Update(ctx, c)
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil {
				return err
			}
		}
		return m.ctlDualFlags(ctx, c, prev, mt)
	}
}

// mediaDualStopped clears the dual stream source when it is mt, whose
// share ended.
func (m *Module) mediaDualStopped(ctx context.Context, ec engine.Conf, mt string) error {
	for {
		c, err := m.confs.Get(ctx, ec.DomainMoid, ec.ConfID, engine.StateRunning)
		if err != nil || c.Roles.Dual != mt {
			return nil // ended meanwhile, or another source now
		}
		c.Roles.Dual = ""
		err = m.confs.Update(ctx, c)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		return m.ctlDualFlags(ctx, c, mt, "")
	}
}
