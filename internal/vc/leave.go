package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Consistency when terminals leave the call (issue 5; issue 6 "Semantics
// that must hold"): a terminal that leaves, hung up or removed, is no
// longer speaker, chairman, dual-stream source, VIP or upload terminal,
// and leaves the media features (mix, compositions, TV walls) and the
// timeline features (polls, monitors, selective viewing). The engine
// calls onLeave after the terminals have left (Features.Left,
// features.go).

// onLeave runs every feature's reaction to terminals leaving: the roles
// of conference control (rolesLeave, below), the upload terminal
// (upload.go), the media features (vmp_leave.go) and the timeline
// features (poll_timeline.go), and auto_end (autoend.go). Each reads and writes the conference on its
// own, so all of them run even when one fails; the errors are joined.
func (m *Module) onLeave(ctx context.Context, ec engine.Conf, mtIDs []string) error {
	return errors.Join(
		m.featuresLeave(ctx, ec, mtIDs),
		m.cascadeLeave(ctx, ec, mtIDs), // links, and the superiors' features (cascade_link.go)
		m.autoEndLeave(ctx, ec, mtIDs), // last, since it may end the conference
	)
}

// featuresLeave drops terminals from every feature of their conference.
// mtIDs may be cascaded ids ("4.1") of a subordinate's terminals, and a
// link terminal's id takes the whole subordinate with it (leftSet).
func (m *Module) featuresLeave(ctx context.Context, ec engine.Conf, mtIDs []string) error {
	var errs []error
	for _, step := range []func(context.Context, engine.Conf, []string) error{
		m.rolesLeave, m.uploadLeave, m.mediaLeave, m.timelineLeave,
	} {
		errs = append(errs, step(ctx, ec, mtIDs))
	}
	return errors.Join(errs...)
}

// rolesLeave drops the terminals mtIDs from the roles and the VIP list of
// their conference, and stops the dual stream of a hung-up source. A
// conference that has ended meanwhile has nothing left to clear.
func (m *Module) rolesLeave(ctx context.Context, ec engine.Conf, mtIDs []string) error {
	gone := make(leftSet, len(mtIDs))
	for _, id := range mtIDs {
		gone[id] = true
	}
	for {
		c, err := m.confs.Get(ctx, ec.DomainMoid, ec.ConfID, engine.StateRunning)
		if errors.Is(err, engine.ErrConfNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if !leaveRoles(&c, gone) {
			break
		}
		err = m.confs.Update(ctx, c)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		break
	}
	// A hung-up terminal stays a member; it no longer sends a dual stream.
	for _, id := range mtIDs {
		t, err := m.engine.Get(ctx, ec, id)
		if errors.Is(err, engine.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if record.Int(t.Doc, "dual") != 0 {
			if err := m.setTermFlags(ctx, ec, id, termFlags{Dual: model.Some(0)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// leaveRoles clears the roles and VIP entries of the terminals in gone
// from a conference document and reports whether it changed.
func leaveRoles(c *engine.Conference, gone leftSet) bool {
	changed := false
	for _, f := range []*string{&c.Roles.Chairman, &c.Roles.Speaker, &c.Roles.Dual} {
		if *f != "" && gone.has(*f) {
			*f = ""
			changed = true
		}
	}
	kept := make([]engine.VIP, 0, len(c.VIPs))
	for _, v := range c.VIPs {
		if !gone.has(v.MtID) {
			kept = append(kept, v)
		}
	}
	if len(kept) != len(c.VIPs) {
		c.VIPs = kept
		changed = true
	}
	return changed
}
