package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
)

// autoEndLeave ends a conference created with auto_end 1 (reference 04
// "auto_end: 无终端时自动结束会议") when its last terminal has left the
// call: no terminal is online or ringing any more.
func (m *Module) autoEndLeave(ctx context.Context, ec engine.Conf, _ []string) error {
	c, err := m.confs.Get(ctx, ec.DomainMoid, ec.ConfID, engine.StateRunning)
	if errors.Is(err, engine.ErrConfNotFound) {
		return nil // already ended
	}
	if err != nil || record.Int(c.Doc, "auto_end") != 1 {
		return err
	}
	ts, err := m.engine.List(ctx, ec)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if t.Rec.State == engine.StateOnline || t.Rec.State == engine.StateCalling {
			return nil
		}
	}
	err = m.confs.End(ctx, ec.DomainMoid, ec.ConfID)
	if errors.Is(err, engine.ErrConfNotFound) {
		return nil // another request ended it first
	}
	return err
}
