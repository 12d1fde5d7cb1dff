package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/engine"
)

// autoEnd tells whether a conference created with auto_end 1 (reference
// 04 "auto_end: 无终端时自动结束会议") ends because its last terminal has
// left the call: no terminal is online or ringing any more. A departure
// decides it (onLeave, Effects.End); the engine ends the conference.
func (m *Module) autoEnd(ctx context.Context, c engine.Conference) (bool, error) {
	if c.AutoEnd() != 1 {
		return false, nil
	}
	ts, err := m.terminals(ctx, engine.ConfOf(c))
	if err != nil {
		return false, err
	}
	return noneInCall(ts), nil
}

// noneInCall tells whether no terminal of ts is online or being called.
func noneInCall(ts []engine.Terminal) bool {
	for _, t := range ts {
		if t.Rec.State == engine.StateOnline || t.Rec.State == engine.StateCalling {
			return false
		}
	}
	return true
}
