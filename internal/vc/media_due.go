package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
)

// RunDueMedia keeps the vmp flags of terminals in step with compositions
// whose panes change without a request: automatic fills (a terminal that
// comes online), channels that follow a role or a poll, batch and
// single-channel polls turning with the clock. What the compositions show
// is computed at every read from their stored start times; only the
// terminals' flags are written, and only where they differ. The server's
// tick runs it with the other due work; a composition that no request
// changes keeps its flags as of its last change until then.
//
// The media plane is told what the conference shows with the flags
// (media_sync.go), so a composition that moves or a conference poll that
// turns reaches it within a tick (the engine passes on changes only).
//
// Only conferences whose composition moves or whose conference poll runs
// are read in full; whether one does is kept by version (engine.Scan).
func (m *Module) RunDueMedia(ctx context.Context) error {
	confs, err := engine.Scan(ctx, m.st, &m.mdScan, engine.StateRunning, func(c engine.Conference) bool {
		return vmpMoves(c.VMP) || (c.Poll != nil && c.Poll.State == pollStatePolling)
	})
	if err != nil {
		return err
	}
	for _, sc := range confs {
		if !sc.Val {
			continue
		}
		c, err := m.confs.Get(ctx, sc.Key.DomainMoid, sc.Key.ID, engine.StateRunning)
		if err != nil && errors.Is(err, engine.ErrConfNotFound) {
			continue // ended meanwhile
		}
		if err != nil {
			return err
		}
		if err := m.mediaFlags(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// vmpMoves tells whether a composition's panes can change without a
// request: an automatic or batch-poll mode, or a channel that follows a
// role or polls.
func vmpMoves(cfg *engine.VMP) bool {
	if cfg == nil {
		return false
	}
	if cfg.Mode != 1 {
		return true
	}
	for _, ch := range cfg.Members {
		if ch.MemberType != mtypeChosen {
			return true
		}
	}
	return false
}
