package vc

import (
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/wire"
)

// The preconditions of the conference picture composition (reference 05
// "开启会议画面合成", "修改会议画面合成") as plain
// functions over the typed conference state; the request's rules are
// vmpRequestOf (one reading of the start's and the change's requests)
// and vmpConfig over the terminals' paneState (vmp_config.go,
// pane_rules.go), the handlers are vmp.go's.
// vmp_rules_test.go checks them without HTTP or store.

// vmpStartable is the precondition of a start: no composition runs
// (20822 otherwise).
func vmpStartable(c engine.Conference) error {
	if c.VMP != nil {
		return wire.Errorf(CodeVMPStarted, "conference %s already runs a picture composition", c.ID())
	}
	return nil
}

// vmpRunning returns the stored composition of the request's vmp_id:
// 20823 when it does not run.
func vmpRunning(c engine.Conference, vmpID string) (*engine.VMP, error) {
	cfg := c.VMP
	if vmpID != vmpMain {
		return nil, wire.Errorf(CodeVMPNotStarted, "conference %s has no picture composition %s (its main composition is 1)", c.ID(), vmpID)
	}
	if cfg == nil {
		return nil, wire.Errorf(CodeVMPNotStarted, "conference %s has no picture composition running", c.ID())
	}
	return cfg, nil
}
