// Package mc serves the conference-management module (seed 001 "Conference
// management"; reference 04-mc-conference-management.md): templates,
// virtual meeting rooms, conference creation and ending, booked
// conferences, meeting-room areas, meeting files and resources.
package mc

import (
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
)

// Config holds the module's settings.
type Config struct {
	FilesDir string // where meeting files are kept
	// MaxFilesPerDomain is the quota of meeting files a user domain keeps
	// (files_quota.go): 0 takes DefaultMaxFilesPerDomain, < 0 no quota.
	MaxFilesPerDomain int
}

// Module is the mc module's state.
type Module struct {
	st    store.Store
	clk   clock.Clock
	cfg   Config
	confs *engine.Conferences
}

// New returns the module.
func New(st store.Store, clk clock.Clock, confs *engine.Conferences, cfg Config) *Module {
	return &Module{st: st, clk: clk, cfg: cfg, confs: confs}
}
