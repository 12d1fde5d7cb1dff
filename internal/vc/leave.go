package vc

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// Consistency when terminals leave the call (issue 5; issue 6 "Semantics
// that must hold"): a terminal that leaves, hung up or removed, is no
// longer speaker, chairman, dual-stream source, VIP or upload terminal,
// and leaves the media features (mix, compositions, TV walls) and the
// timeline features (polls, monitors, selective viewing). The engine
// asks onLeave after the terminals have left (Features.Left, features.go)
// and applies what it decides.

// onLeave decides every feature's reaction to terminals leaving
// conference ec, as one change of the conference (leaveConf) and its
// effects (leaveEffects): the roles of conference control (leaveRoles,
// below), the upload terminal (upload.go), the media features
// (vmp_leave.go), the timeline features (poll_timeline.go), the cascades
// (cascade_link.go) and auto_end (autoend.go). mtIDs may be cascaded ids
// ("4.1") of a subordinate's terminals, and a link terminal's id takes
// the whole subordinate with it (leftSet). It calls neither the engine
// nor conference control back: it reads the conference's terminals from
// the store when a feature needs them (a running poll, a composition,
// auto_end).
func (m *Module) onLeave(ec engine.Conf, mtIDs []string) engine.Change {
	l := &leave{m: m, ids: mtIDs, gone: make(leftSet, len(mtIDs))}
	for _, id := range mtIDs {
		l.gone[id] = true
	}
	return engine.Change{Conf: l.conf, Effects: l.effects, Notices: func() []store.Notice { return l.notices }}
}

// leave is one departure being decided: what the change of the
// conference found, for its effects.
type leave struct {
	m    *Module
	ids  []string
	gone leftSet
	// Set by the last run of conf (the engine runs it again after a
	// conflicting write):
	notices []store.Notice  // failed wall viewings, viewings and monitors
	upload  string          // the upload terminal that left
	viewers []string        // terminals whose viewing ended
	detach  []engine.Detach // the cascades of the links that left
}

// conf drops the terminals that left from every feature of the
// conference, in one write.
func (l *leave) conf(ctx context.Context, c *engine.Conference, tree []engine.Terminal) (bool, error) {
	l.notices, l.upload, l.viewers, l.detach = nil, "", nil, nil
	now := l.m.clk.Now()
	changed := leaveRoles(c, l.gone)
	if id := c.Roles.Upload; id != "" && l.gone.has(id) {
		c.Roles.Upload, l.upload, changed = "", id, true
	}
	l.notices = hduFailures(*c, l.gone.has, now)
	changed = mediaDrop(c, l.gone, now) || changed
	ch, err := l.timeline(ctx, c, tree, now)
	if err != nil {
		return false, err
	}
	changed = ch || changed
	return l.links(c) || changed, nil
}

// timeline drops the terminals that left from the polls, monitors,
// recordings and viewings (timelineLeave's change).
func (l *leave) timeline(ctx context.Context, c *engine.Conference, tree []engine.Terminal, now time.Time) (bool, error) {
	// The terminals are read only when a poll runs (pollLeave reads them
	// then): a leave without one need not decode every terminal of the
	// conference.
	var ts map[string]engine.Terminal
	if pollsActive(c) {
		var err error
		if ts, err = l.m.tlTerminalsTree(ctx, *c, tree); err != nil {
			return false, err
		}
	}
	changed := false
	for _, k := range pollKinds {
		changed = pollLeave(c, k, ts, l.gone, now) || changed
	}
	l.notices = append(l.notices, append(inspectFailures(*c, l.gone.has, now), monitorFailures(*c, l.gone.has, now)...)...)
	changed = monitorLeave(c, l.gone) || changed
	changed = recorderLeave(c, l.gone) || changed
	ch, viewers := inspectLeave(c, l.gone)
	l.viewers = viewers
	return changed || ch, nil
}

// links forgets the links whose terminals left (cascadeLeave): the
// subordinates are detached in the effects.
func (l *leave) links(c *engine.Conference) bool {
	kept := make([]engine.CascadeLink, 0, len(c.Links))
	for _, k := range c.Links {
		if l.gone[k.LinkID] {
			l.detach = append(l.detach, engine.Detach{SubID: k.ConfID, SupID: c.ID(), LinkID: k.LinkID})
			continue
		}
		kept = append(kept, k)
	}
	if len(kept) == len(c.Links) {
		return false
	}
	c.Links = kept
	c.SetSubordinateCascade(flagOf(len(kept) > 0))
	return true
}

// effects are the departure's writes to terminals and the media plane:
// the flags of the terminals that left (no dual stream, no mix or
// composition, not recorded, viewing as the conference says) and of the
// upload terminal and the viewers, the media (media_sync.go), the
// cascades (cascadeLeave) and auto_end.
func (l *leave) effects(ctx context.Context, c engine.Conference, tree []engine.Terminal) (engine.Effects, error) {
	viewing := map[string]bool{}
	for _, v := range viewingsOf(&c) {
		viewing[v.Dst.MtID] = true
	}
	mix := mixing(c)
	var flags []engine.TerminalFlags
	done := map[string]bool{}
	for _, id := range l.ids {
		done[id] = true
		f := engine.TerminalFlags{MtID: id, Dual: model.Some(0), Rec: model.Some(0),
			Inspection: model.Some(mdFlag(viewing[id])), Mix: model.Some(mdFlag(mix[id])), VMP: model.Some(0)}
		if id == l.upload {
			f.Upload = model.Some(0)
		}
		flags = append(flags, f)
	}
	if l.upload != "" && !done[l.upload] {
		flags = append(flags, engine.TerminalFlags{MtID: l.upload, Upload: model.Some(0)})
	}
	for _, id := range l.viewers {
		if !done[id] {
			done[id] = true
			flags = append(flags, engine.TerminalFlags{MtID: id, Inspection: model.Some(mdFlag(viewing[id]))})
		}
	}
	var eff engine.Effects
	var err error
	if c.VMP == nil {
		// Without a composition the flags of the others do not change
		// (the mix names them or not as before): only the terminals that
		// left are written, not every terminal of the conference read (a
		// fifth of a SIP call's CPU at high call rates,
		// docs/benchmarks/sip.md).
		eff, err = l.m.syncEffectsTree(ctx, c, tree)
	} else {
		eff, err = l.m.flagsEffectsTree(ctx, c, tree)
	}
	if err != nil {
		return engine.Effects{}, err
	}
	eff.Flags = append(flags, eff.Flags...)
	eff.Detach = l.detach
	cascadeLeave(c, l.ids, l.gone, &eff)
	end, err := l.m.autoEnd(ctx, c)
	eff.End = end
	return eff, err
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

// rolesLeft is the change of terminals mtIDs leaving the roles and the
// VIP list of their conference, for a role stored for a terminal that
// left meanwhile (ctlStillOnline; the engine runs it once, a conference
// that has ended meanwhile has nothing left to clear): the conference
// without them (leaveRoles), then their dual flags cleared (dualOff; a
// hung-up terminal stays a member, it no longer sends a dual stream).
func (m *Module) rolesLeft(mtIDs []string) engine.Change {
	gone := leftSetOf(mtIDs)
	return engine.Change{
		Conf: func(_ context.Context, c *engine.Conference, _ []engine.Terminal) (bool, error) {
			return leaveRoles(c, gone), nil
		},
		Effects: func(ctx context.Context, c engine.Conference, _ []engine.Terminal) (engine.Effects, error) {
			ts, err := m.terminalsNamed(ctx, engine.ConfOf(c), mtIDs)
			return engine.Effects{Flags: dualOff(ts)}, err
		},
	}
}

// dualOff are the flags that clear the dual flag of the terminals ts that
// have it.
func dualOff(ts []namedTerminal) []engine.TerminalFlags {
	var out []engine.TerminalFlags
	for _, t := range ts {
		if t.Dual() != 0 {
			out = append(out, engine.TerminalFlags{MtID: t.id, Dual: model.Some(0)})
		}
	}
	return out
}

// leftSetOf is the set of the terminals mtIDs that leave.
func leftSetOf(mtIDs []string) leftSet {
	gone := make(leftSet, len(mtIDs))
	for _, id := range mtIDs {
		gone[id] = true
	}
	return gone
}

// namedTerminal is a terminal with the id it was read by: a
// subordinate's terminal by its cascaded mt_id ("4.1"), which the flags
// written to it name too.
type namedTerminal struct {
	id string
	engine.Terminal
}

// terminalsNamed reads the terminals ids of conference ec, leaving out
// those gone.
func (m *Module) terminalsNamed(ctx context.Context, ec engine.Conf, ids []string) ([]namedTerminal, error) {
	out := make([]namedTerminal, 0, len(ids))
	for _, id := range ids {
		t, err := m.engine.Get(ctx, ec, id)
		if errors.Is(err, engine.ErrNotFound) {
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, namedTerminal{id, t})
	}
	return out, nil
}
