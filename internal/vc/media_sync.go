package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
)

// What the media plane is told (issue 19 "Every vc control acts on
// media"): vc stores a control in the conference document, then tells
// the media plane through the engine what every participant now sees
// (engine.SetBroadcast: the speaker, forced broadcast, the composition's
// panes as they show now, the member the conference poll shows now) and
// hears (engine.SetMix), and who sends the dual stream (engine.SetDual,
// control_dual.go). Per-terminal controls (mute, silence, volume, camera,
// video source) go to the media plane from the engine itself
// (engine/controls.go).

// mediaSync tells the media plane what the conference's participants see
// and hear, from its stored state (syncEffectsTree, with the terminals of
// its subordinates read only when the panes or a poll need them).
func (m *Module) mediaSync(ctx context.Context, c engine.Conference) error {
	var sub []engine.Terminal
	if mdNeedsTerminals(c) {
		var err error
		if sub, err = m.cascadeTree(ctx, c); err != nil {
			return err
		}
	}
	eff, err := m.syncEffectsTree(ctx, c, sub)
	if err != nil {
		return err
	}
	return m.engine.Apply(ctx, engine.ConfOf(c), eff)
}

// syncEffectsTree is what mediaSync tells the media plane, with the
// terminals of c's subordinates given (a feature hook's tree,
// engine.Change).
func (m *Module) syncEffectsTree(ctx context.Context, c engine.Conference, sub []engine.Terminal) (engine.Effects, error) {
	if !mdNeedsTerminals(c) {
		// Without a composition or a running poll the broadcast and the
		// mix come from the document alone: no terminal is read (a
		// third of a speaker change's CPU, docs/benchmarks.md
		// 2026-11-26).
		v := &mdView{conf: c, now: m.clk.Now()}
		return v.effects(), nil
	}
	v, err := m.mdLoadTree(ctx, c, sub)
	if err != nil {
		return engine.Effects{}, err
	}
	return v.effects(), nil
}

// mdNeedsTerminals tells whether broadcast reads the terminals: the panes
// of a composition and the position of a poll that is not stopped do.
func mdNeedsTerminals(c engine.Conference) bool {
	if c.VMP != nil || len(c.SelfVMPs) > 0 || len(c.HDUVMPs) > 0 {
		return true
	}
	return c.Poll != nil && c.Poll.State != pollStateStopped
}

// effects are what the view's participants see and hear, for the engine
// to tell the media plane (engine.Effects).
func (v *mdView) effects() engine.Effects {
	b, mix := v.broadcast(), v.mix()
	return engine.Effects{Broadcast: &b, Mix: &mix}
}

// broadcast is what the conference's participants see now.
func (v *mdView) broadcast() media.Broadcast {
	b := media.Broadcast{Speaker: v.conf.Roles.Speaker, Forced: v.conf.ForceBroadcast() == 1,
		Chairman: v.conf.Roles.Chairman}
	if cfg := v.conf.VMP; cfg != nil {
		b.Layout = cfg.Layout
		b.ShowNames = cfg.ShowMtName == 1
		b.Panes = []media.Pane{}
		for _, p := range v.vmpOf(cfg) {
			b.Panes = append(b.Panes, media.Pane{Index: p.chn, MtID: p.mtID})
		}
	}
	b.Selves = v.selves()
	if p := v.conf.Poll; p != nil && p.State != pollStateStopped {
		if pos, _ := pollPos(p, v.byID, v.now, nil); !pos.None && !pos.Done && pos.Index < len(p.Members) {
			b.Poll = p.Members[pos.Index].MtID
		}
	}
	return b
}

// mix is what the conference's participants hear now: the members of a
// running mix, or everyone.
func (v *mdView) mix() media.Mix {
	mix := v.conf.Mix
	if mix == nil {
		return media.Mix{All: true}
	}
	return media.Mix{Members: append([]string{}, mix.MtIDs...), Smart: mix.Mode == 1}
}

// MediaMoved tells this node's media plane, which just took a running
// conference over from a node whose lease lapsed (docs/media-nodes.md
// "Failover"), what the conference's participants see and hear, and
// continues its recordings into new parts (rec_parts.go), its playback
// from where it is (playback_owner.go) and its RTMP pushes (rec_rtmp.go).
func (m *Module) MediaMoved(ctx context.Context, confID string) error {
	m.engine.MediaMoved(confID)
	ec, ok, err := m.engine.Running(ctx, confID)
	if err != nil || !ok {
		return err
	}
	c, err := m.confs.Get(ctx, ec.DomainMoid, confID, engine.StateRunning)
	if err != nil {
		if errors.Is(err, engine.ErrConfNotFound) {
			return nil // ended meanwhile
		}
		return err
	}
	m.playMoved(ctx, c)
	m.rtmpMoved(c)
	return errors.Join(m.mediaSync(ctx, c), m.mediaReapply(ctx, c), m.recMoved(ctx, c))
}

// mediaReapply tells this node's media plane, which just took the
// conference over, the mute and silence its terminals hold: the media
// plane keeps them for a participant that joins later under the mt_id,
// so a terminal the chair muted comes back muted through the new owner
// (issue 35; docs/media-nodes.md "Failover").
func (m *Module) mediaReapply(ctx context.Context, c engine.Conference) error {
	ts, err := m.engine.List(ctx, engine.ConfOf(c))
	if err != nil {
		return err
	}
	var errs []error
	for _, t := range ts {
		errs = append(errs, m.engine.Reapply(ctx, c.ID(), t))
	}
	return errors.Join(errs...)
}

// selves are the self compositions as they show now: a terminal's on its
// lowest video channel (a terminal of one picture has one), and each TV
// wall's.
func (v *mdView) selves() []media.SelfComposition {
	var out []media.SelfComposition
	add := func(s media.SelfComposition, cfg engine.SelfVMP) {
		s.Layout, s.ShowNames = cfg.Layout, cfg.ShowMtName == 1
		s.Panes = []media.Pane{}
		for _, p := range v.selfPanes(cfg) {
			s.Panes = append(s.Panes, media.Pane{Index: p.chn, MtID: p.mtID})
		}
		out = append(out, s)
	}
	selfs := v.conf.SelfVMPs
	for i, s := range selfs {
		if selfFind(selfs, s.MtID, -1) == i {
			add(media.SelfComposition{MtID: s.MtID}, s)
		}
	}
	for _, h := range v.conf.HDUVMPs {
		add(media.SelfComposition{Wall: h.HDUID}, h)
	}
	return out
}
