package vc

import (
	"context"
	"fmt"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
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
	switch c.DualMode() {
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
	if c.DualMode() == 2 {
		return "only the chairman or the terminal the chair names may share a screen in this conference"
	}
	return "only the speaker may share a screen in this conference"
}

// mediaDualStarted decides how mt, whose share started, becomes the dual
// stream source; the engine applies it (engine.Change).
func mediaDualStarted(mt string, online bool) engine.Change {
	prev := ""
	return engine.Change{
		Conf: func(_ context.Context, c *engine.Conference, _ []engine.Terminal) (bool, error) {
			if !mayShare(*c, mt) {
				return false, fmt.Errorf("%w: %s (dual_mode %d)", media.ErrRefused, whoMayShare(*c), c.DualMode())
			}
			if !online {
				return false, fmt.Errorf("%w: terminal %s is not online", media.ErrRefused, mt)
			}
			prev = c.Roles.Dual
			c.Roles.Dual = mt
			return prev != mt, nil
		},
		Effects: func(context.Context, engine.Conference, []engine.Terminal) (engine.Effects, error) {
			return dualEffects(prev, mt), nil
		},
	}
}

// mediaDualStopped decides how the dual stream source is cleared when it
// is mt, whose share ended.
func mediaDualStopped(mt string) engine.Change {
	cleared := false
	return engine.Change{
		Conf: func(_ context.Context, c *engine.Conference, _ []engine.Terminal) (bool, error) {
			cleared = c.Roles.Dual == mt
			if cleared {
				c.Roles.Dual = ""
			}
			return cleared, nil
		},
		Effects: func(context.Context, engine.Conference, []engine.Terminal) (engine.Effects, error) {
			if !cleared {
				return engine.Effects{}, nil // another source now
			}
			return dualEffects(mt, ""), nil
		},
	}
}

// dualEffects tell the media plane the dual stream's source next, which
// was prev, and move the terminals' dual flags.
func dualEffects(prev, next string) engine.Effects {
	eff := engine.Effects{Dual: &next}
	off, on := dualMoves(prev, next)
	if off != "" {
		eff.Flags = append(eff.Flags, engine.TerminalFlags{MtID: off, Dual: model.Some(0)})
	}
	if on != "" {
		eff.Flags = append(eff.Flags, engine.TerminalFlags{MtID: on, Dual: model.Some(1)})
	}
	return eff
}
