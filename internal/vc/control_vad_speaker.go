package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// voiceSpeaker makes mt the speaker of c because voice activation chose
// it (engine/voice.go): stored and pushed as the speaker set through
// PUT .../speaker, and told to the media plane. Nothing changes when voice
// activation went off meanwhile, mt already speaks or is no longer online.
func (m *Module) voiceSpeaker(ctx context.Context, ec engine.Conf, mt string) error {
	for {
		c, err := m.confs.Get(ctx, ec.DomainMoid, ec.ConfID, engine.StateRunning)
		if err != nil {
			return nil // ended meanwhile
		}
		if record.Int(c.Doc, "voice_activity_detection") != 1 || c.Roles.Speaker == mt {
			return nil
		}
		if m.ctlIsOnline(ctx, c, mt) != nil {
			return nil
		}
		c.Roles.Speaker = mt
		err = m.confs.Update(ctx, c)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		return m.mediaSync(ctx, c)
	}
}
