package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/engine"
)

// TimelineLeave exposes timelineLeave to the end-to-end tests until the
// engine's Features.Left calls it.
func (m *Module) TimelineLeave(ctx context.Context, c engine.Conf, mtIDs []string) error {
	return m.timelineLeave(ctx, c, mtIDs)
}
