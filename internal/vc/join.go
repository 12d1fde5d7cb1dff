package vc

import (
	"context"
	"encoding/json"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
)

// A terminal that joins takes on the conference's state (issue 5,
// "Semantics that must hold"; reference 04 creation fields mute
// "初始哑音", silence "初始静音", speaker, chairman, vips):
//
//   - a muted (silenced) conference mutes (silences) it, except, with
//     mute_filter 1, the speaker and the chairman;
//   - the speaker, chairman and VIPs named by account at creation become
//     those roles when their terminal joins, while the role is free (the
//     speaker not under voice activation; VIPs up to vipMax);
//   - the places that the mix, composition and poll started from the
//     creation name by its account become its places
//     (create_features_join.go).
//
// Cascade link terminals (types 7 and 8) carry other conferences' sound
// and take on neither.

// onJoin decides what the conference's state changes for t, which just
// joined: its roles and places, written by the engine, then the flags and
// media, its mute and silence, and its controls told again (engine.Change).
func (m *Module) onJoin(t engine.Terminal) engine.Change {
	if typ := t.Type(); typ == engine.TypeSubordinate || typ == engine.TypeSuperior {
		return engine.Change{}
	}
	id, acct := t.MtID(), t.Account()
	media, roles := false, false
	change := func(ctx context.Context, c *engine.Conference, tree []engine.Terminal) (bool, error) {
		roles = joinRoles(c, id, acct)
		var err error
		media, err = m.createdJoin(ctx, c, id, acct, tree)
		return roles || media, err
	}
	effects := func(ctx context.Context, c engine.Conference, tree []engine.Terminal) (engine.Effects, error) {
		var eff engine.Effects
		var err error
		if media {
			eff, err = m.flagsEffectsTree(ctx, c, tree)
		} else if roles {
			// The speaker or chairman it became is part of what the media
			// plane shows (the chairman's join page offers the controls).
			eff, err = m.syncEffectsTree(ctx, c, tree)
		}
		if err != nil {
			return engine.Effects{}, err
		}
		spared := c.MuteFilter() == 1 && (c.Roles.Speaker == id || c.Roles.Chairman == id)
		if c.Mute() == 1 && !spared && t.Mute() != 1 {
			eff.Mute = []string{id}
		}
		if c.Silence() == 1 && t.Silence() != 1 {
			eff.Silence = []string{id}
		}
		// A terminal that comes back (a client rejoining as it,
		// docs/join-page.md "Reconnection") with its mute or silence: the
		// media plane it joins may not know them (a node that took the
		// media over, or restarted).
		eff.Reapply = []engine.Terminal{t}
		return eff, nil
	}
	return engine.Change{Conf: change, Effects: effects}
}

// joinRoles gives the joining terminal id (called as acct) the roles the
// creation named it for, where they are free; it reports a change.
func joinRoles(c *engine.Conference, id, acct string) bool {
	if acct == "" {
		return false
	}
	named := func(field string) bool {
		var o struct { // the creation's {name, account, account_type}
			Account string `json:"account"`
		}
		return c.Member(field, &o) && o.Account == acct
	}
	changed := false
	if named("speaker") && c.Roles.Speaker == "" && c.VoiceActivityDetection() != 1 {
		c.Roles.Speaker = id
		changed = true
	}
	if named("chairman") && c.Roles.Chairman == "" {
		c.Roles.Chairman = id
		changed = true
	}
	var vips []json.RawMessage // an element that is not an object names no one
	c.Member("vips", &vips)
	for _, e := range vips {
		var v struct { // the creation's {name, account, account_type}, account as record.Str reads it
			Account record.Text `json:"account"`
		}
		if json.Unmarshal(e, &v) != nil || string(v.Account) != acct || len(c.VIPs) >= vipMax {
			continue
		}
		for _, have := range c.VIPs {
			if have.MtID == id {
				return changed
			}
		}
		c.VIPs = append(c.VIPs, engine.VIP{MtID: id, CascadeID: vipLocalCascade})
		return true
	}
	return changed
}
