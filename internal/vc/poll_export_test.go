package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/engine"
)

// TimelineLeave exposes timelineLeave, the timeline's part of a
// departure, to the end-to-end tests.
func (m *Module) TimelineLeave(ctx context.Context, c engine.Conf, mtIDs []string) error {
	return m.timelineLeave(ctx, c, mtIDs)
}
