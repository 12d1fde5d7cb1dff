package vc

import (
	"context"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// Consistency of the media features (issue 6 "Semantics that must hold"):
// a terminal that leaves the call, hung up or removed, leaves the mix, the
// conference composition (a chosen channel it held becomes empty; an
// automatic composition shows the next online terminal at once), the
// single-channel and batch polls (the poll goes on with the next
// terminal), the self compositions (its own stops; a channel it held
// becomes empty) and the TV walls (a wall viewing it shows nothing; polls
// and split screens go on without it). Its mix and vmp flags are cleared.

// mediaLeft is the change of terminals mtIDs leaving the media features
// of their conference, for a terminal named by a feature after it left
// (mediaStillOnline, which the engine runs it for once; leave.go's
// onLeave decides the same drop when terminals leave; a conference that
// has ended has nothing left to clear): the conference without them
// (mediaDrop), written with the failures of the TV walls left empty
// (push_notices.go), then the mix and vmp flags and the media plane's
// sync.
func (m *Module) mediaLeft(mtIDs []string) engine.Change {
	gone := leftSetOf(mtIDs)
	var notices []store.Notice
	return engine.Change{
		Conf: func(_ context.Context, c *engine.Conference, _ []engine.Terminal) (bool, error) {
			now := m.clk.Now()
			notices = hduFailures(*c, gone.has, now)
			return mediaDrop(c, gone, now), nil
		},
		Notices: func() []store.Notice { return notices },
		Effects: func(ctx context.Context, c engine.Conference, tree []engine.Terminal) (engine.Effects, error) {
			if c.VMP != nil {
				return m.flagsEffectsTree(ctx, c, tree)
			}
			// Without a composition the flags of the others do not
			// change (the mix names them or not as before): the leave
			// reads the terminals that left, not every terminal of the
			// conference (a fifth of a SIP call's CPU at high call
			// rates, docs/benchmarks/sip.md).
			ts, err := m.terminalsNamed(ctx, engine.ConfOf(c), mtIDs)
			if err != nil {
				return engine.Effects{}, err
			}
			flags := mediaFlagsLeft(ts, mixing(c))
			eff, err := m.syncEffectsTree(ctx, c, tree)
			if err != nil {
				return engine.Effects{Flags: flags}, err
			}
			eff.Flags = append(flags, eff.Flags...)
			return eff, nil
		},
	}
}

// mediaFlagsLeft are the flags of the terminals ts that left a conference
// without a composition: in the mix as mix says, in no composition; only
// the flags that change.
func mediaFlagsLeft(ts []namedTerminal, mix map[string]bool) []engine.TerminalFlags {
	var out []engine.TerminalFlags
	for _, t := range ts {
		f := engine.TerminalFlags{MtID: t.id}
		if want := mdFlag(mix[t.id]); t.Mix() != want {
			f.Mix = model.Some(want)
		}
		if t.VMP() != 0 {
			f.VMP = model.Some(0)
		}
		if f.Mix.Set || f.VMP.Set {
			out = append(out, f)
		}
	}
	return out
}

// mediaDrop removes the terminals in gone from every media feature of a
// conference and reports whether it changed.
func mediaDrop(c *engine.Conference, gone leftSet, now time.Time) bool {
	changed := false
	if mix := c.Mix; mix != nil {
		if kept, ch := mdWithout(mix.MtIDs, gone); ch {
			mix.MtIDs, changed = kept, true
		}
	}
	if cfg := c.VMP; cfg != nil {
		members, ch := dropChannels(cfg.Members, gone, now)
		if ch {
			cfg.Members, changed = members, true
		}
		if bp := cfg.Poll; bp != nil {
			if kept, ch := mdWithout(bp.MtIDs, gone); ch {
				bp.MtIDs, changed = kept, true
			}
		}
	}
	changed = selfDrop(c, gone, now) || changed
	changed = hduDrop(c, gone, now) || changed
	return changed
}

// dropChannels removes the terminals in gone from composition channels: a
// chosen channel of theirs goes, a single-channel poll goes on without
// them (and goes when none is left). Channels the creation named by
// account stay, empty, for the account's terminal to join again
// (create_features.go).
func dropChannels(members []engine.VMPMember, gone leftSet, now time.Time) ([]engine.VMPMember, bool) {
	changed := false
	out := make([]engine.VMPMember, 0, len(members))
	for _, m := range members {
		if id := m.MtID; id != "" && gone.has(id) {
			changed = true
			if m.Account == "" {
				continue
			}
			m.MtID = ""
		}
		if po := m.Poll; po != nil {
			if ok, ch := dropSinglePoll(po, gone, now); ch {
				changed = true
				if !ok && len(po.Accounts) == 0 {
					continue
				}
			}
		}
		out = append(out, m)
	}
	return out, changed
}

// dropSinglePoll removes the terminals in gone from a single-channel poll
// (a composition channel's or a TV wall's), carrying its rotation over;
// ok is false when no terminal is left.
func dropSinglePoll(po *engine.SinglePoll, gone leftSet, now time.Time) (ok, changed bool) {
	kept, ch := mdWithout(po.MtIDs, gone)
	if !ch {
		return true, false
	}
	po.Rot = rotOfStored(po.Num, po.KeepTime, po.Rot).rebase(po.MtIDs, kept, now).stored()
	po.MtIDs = kept
	return len(kept) > 0, true
}

// mixing is the set of the terminals the conference's mix names.
func mixing(c engine.Conference) map[string]bool {
	mix := map[string]bool{}
	if c.Mix != nil {
		for _, id := range c.Mix.MtIDs {
			mix[id] = true
		}
	}
	return mix
}

// mediaFlags sets the mix and vmp flags of the conference's terminals to
// what its mix and composition hold now, then tells the media
// (flagsEffectsTree).
func (m *Module) mediaFlags(ctx context.Context, c engine.Conference) error {
	sub, err := m.cascadeTree(ctx, c)
	if err != nil {
		return err
	}
	eff, err := m.flagsEffectsTree(ctx, c, sub)
	if err != nil {
		return err
	}
	return m.engine.Apply(ctx, engine.ConfOf(c), eff)
}

// flagsEffectsTree is what mediaFlags writes and tells: the flags of the
// terminals whose flags change, then the media (media_sync.go); sub is
// the terminals of c's subordinates (a feature hook's tree,
// engine.Change).
func (m *Module) flagsEffectsTree(ctx context.Context, c engine.Conference, sub []engine.Terminal) (engine.Effects, error) {
	v, err := m.mdLoadTree(ctx, c, sub)
	if err != nil {
		return engine.Effects{}, err
	}
	mix := mixing(c)
	vmp := v.vmpInvolved(c.VMP)
	eff := v.effects()
	for _, t := range v.ts {
		id := t.MtID()
		f := engine.TerminalFlags{MtID: id}
		if want := mdFlag(mix[id]); t.Mix() != want {
			f.Mix = model.Some(want)
		}
		if want := mdFlag(vmp[id]); t.VMP() != want {
			f.VMP = model.Some(want)
		}
		if f.Mix.Set || f.VMP.Set {
			eff.Flags = append(eff.Flags, f)
		}
	}
	return eff, nil
}

// mediaUpdate stores what change makes of the running conference, given
// the view of its terminals (mdLoad), then sets the terminals' flags
// (mediaFlags); the terminals change names must still be online after the
// write (mediaStillOnline). It is the write of the mix (writeMix) and of
// the composition (writeVMP).
func (m *Module) mediaUpdate(ctx context.Context, r *api.Request, change func(c *engine.Conference, v *mdView) ([]string, error)) error {
	var named []string
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		named, err = change(c, v)
		return err
	})
	if err != nil {
		return err
	}
	if err := m.mediaFlags(ctx, c); err != nil {
		return err
	}
	return m.mediaStillOnline(ctx, c, named)
}

// mediaStillOnline runs after a media feature naming the terminals ids was
// stored: a terminal that left the call between the check and the write
// had its departure handled before it was named, so it is dropped again
// and the request answers 20401 (12104 when it was removed).
func (m *Module) mediaStillOnline(ctx context.Context, c engine.Conference, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	v, err := m.mdLoad(ctx, c)
	if err != nil {
		return err
	}
	var gone []string
	var first error
	for _, id := range ids {
		if err := v.member("mt_id", id); err != nil {
			gone = append(gone, id)
			if first == nil {
				first = err
			}
		}
	}
	if len(gone) == 0 {
		return nil
	}
	if err := m.engine.Change(ctx, engine.ConfOf(c), m.mediaLeft(gone)); err != nil {
		return err
	}
	return first
}
