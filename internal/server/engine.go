package server

import (
	"log/slog"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/vc"
)

// NewEngine builds the conference engine as every node runs it: the media
// backend newMedia makes (nil: the simulated backend over the store's
// terminal directory) and the features of conference control
// (vc.Module.Features). New and the `conferd conference approve` command
// build it here, so a conference approved from the command line starts as
// one approved through the API.
func NewEngine(st store.Store, clk clock.Clock, cfg engine.Config, newMedia func(media.Events) media.Backend, log *slog.Logger) (*engine.Engine, *vc.Module) {
	var m *vc.Module
	e := engine.New(st, clk, cfg, newMedia, log, func(e *engine.Engine) engine.Features {
		m = vc.New(st, clk, e.Conferences(), e)
		return m.Features()
	})
	return e, m
}

// Calls returns the call counts of the server's engine (the metrics'
// confer_calls_attempted_total and confer_calls_failed_total).
func (s *Server) Calls() *engine.CallCounts { return s.engine.Calls() }
