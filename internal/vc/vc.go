// Package vc serves the conference-control module (seed 001 "Conference
// control"; reference 05-vc-conference-control.md).
package vc

import (
	"sync"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
)

// Module is the vc module's state.
type Module struct {
	st     store.Store
	clk    clock.Clock
	confs  *engine.Conferences
	engine *engine.Engine

	// Whether each running conference, by version, has work for the tick's
	// sweeps (RunDueTimeline, RunDueMedia): unchanged conferences are not
	// read again (engine.Memo).
	tlScan, mdScan engine.Memo[bool]

	// mtAddMu serialises the capacity count of adding terminals with the
	// adding it admits, on this server (mts.go).
	mtAddMu sync.Mutex

	// live is the node's media for playbacks, monitors, broadcasts and TV
	// walls (live_media.go); nil until SetLive.
	live *liveState

	// rec is how the node records: its recording runtime (the media
	// side's, rec_media.go) and folder; nil until SetRecording.
	rec *recMedia

	// ctlLocks queue the read-modify-writes of one conference on this
	// node (conflock.go).
	ctlLocks confLocks
}

// New returns the module.
func New(st store.Store, clk clock.Clock, confs *engine.Conferences, eng *engine.Engine) *Module {
	return &Module{st: st, clk: clk, confs: confs, engine: eng}
}
