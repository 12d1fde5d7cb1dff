package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/engine"
)

// voiceSpeaker decides how mt, online, becomes the speaker of its
// conference because voice activation chose it (engine/voice.go): stored
// and pushed as the speaker set through PUT .../speaker, and told to the
// media plane, which the engine applies (engine.Change). Nothing changes
// when voice activation went off meanwhile or mt already speaks.
func (m *Module) voiceSpeaker(mt string) engine.Change {
	changed := false
	return engine.Change{
		Conf: func(_ context.Context, c *engine.Conference, _ []engine.Terminal) (bool, error) {
			changed = c.VoiceActivityDetection() == 1 && c.Roles.Speaker != mt
			if changed {
				c.Roles.Speaker = mt
			}
			return changed, nil
		},
		Effects: func(ctx context.Context, c engine.Conference, tree []engine.Terminal) (engine.Effects, error) {
			if !changed {
				return engine.Effects{}, nil
			}
			return m.syncEffectsTree(ctx, c, tree)
		},
	}
}
