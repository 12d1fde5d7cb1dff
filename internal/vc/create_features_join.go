package vc

import (
	"context"
	"time"

	"github.com/confer-platform/confer/internal/engine"
)

// Terminals joining the features started from the creation
// (create_features.go): the places named by the account a terminal is
// called as become its places.

// createdJoin gives the joining terminal id (called as acct) the places
// the creation named acct for, in the features still holding them. It
// reports a change.
func (m *Module) createdJoin(ctx context.Context, c *engine.Conference, id, acct string, tree []engine.Terminal) (bool, error) {
	changed := false
	if acct == "" {
		return changed, nil
	}
	now := m.clk.Now()
	if mix := c.Mix; mix != nil && mixHas(mix.Accounts, acct) && !mixHas(mix.MtIDs, id) {
		mix.MtIDs, changed = append(mix.MtIDs, id), true
	}
	if cfg := c.VMP; cfg != nil {
		for i := range cfg.Members {
			ch := &cfg.Members[i]
			if ch.Account == acct && ch.MtID == "" && !vmpNamedChosen(cfg, id) {
				ch.MtID, changed = id, true
			}
			if po := ch.Poll; po != nil {
				changed = joinRotation(po, id, acct, now) || changed
			}
		}
		if bp := cfg.Poll; bp != nil {
			changed = joinList(bp, id, acct) || changed
		}
	}
	if p := c.Poll; p != nil && p.ByAccount && p.State != pollStateStopped {
		ts, err := m.tlTerminalsTree(ctx, *c, tree)
		if err != nil {
			return false, err
		}
		changed = joinPoll(p, id, acct, ts, now) || changed
	}
	return changed, nil
}

// joinList adds id to the mt_ids of a batch poll o whose accounts name
// acct (the mix's: createdJoin).
func joinList(o *engine.SinglePoll, id, acct string) bool {
	if !mixHas(o.Accounts, acct) || mixHas(o.MtIDs, id) {
		return false
	}
	o.MtIDs = append(o.MtIDs, id)
	return true
}

// joinRotation adds id to a single-channel poll whose accounts name acct;
// the terminal shown now stays shown (mdRot.rebase).
func joinRotation(po *engine.SinglePoll, id, acct string, now time.Time) bool {
	old := po.MtIDs
	if !mixHas(po.Accounts, acct) || mixHas(old, id) {
		return false
	}
	kept := append(append([]string{}, old...), id)
	po.Rot = pollRot(po).rebase(old, kept, now).stored()
	po.MtIDs = kept
	return true
}

// vmpNamedChosen tells whether id holds a chosen channel of cfg already (a
// terminal takes one, 20826).
func vmpNamedChosen(cfg *engine.VMP, id string) bool {
	for _, ch := range cfg.Members {
		if ch.MemberType == mtypeChosen && ch.MtID == id {
			return true
		}
	}
	return false
}

// joinPoll gives id the conference-poll member named acct whose terminal
// is not in the call (never joined, or removed). The poll takes a new
// anchor first, as pollLeave does: the rotation up to now counts the
// members as they were, and time when nobody was in the call counts for
// nothing.
func joinPoll(p *engine.Poll, id, acct string, ts map[string]engine.Terminal, now time.Time) bool {
	at := -1
	for i, mb := range p.Members {
		if mb.Account != acct {
			continue
		}
		cur := mb.MtID
		if cur == id {
			return false
		}
		if at < 0 && (cur == "" || !tlOnline(ts, cur)) {
			at = i
		}
	}
	if at < 0 {
		return false
	}
	pos, eff := pollPos(p, ts, now, nil)
	if pos.Done {
		return false
	}
	if pos.None {
		p.TurnAt = tlMs(eff)
	} else {
		p.Index, p.Rounds, p.TurnAt = pos.Index, pos.Rounds, tlMs(eff.Add(-pos.InTurn))
	}
	p.Members[at].MtID = id
	return true
}
