package vc

import (
	"context"
	"errors"
	"fmt"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// Features set at creation (reference 04 "创建会议" mix "混音信息", vmp
// "画面合成设置", poll "轮询设置", recorder "录像设置"; the conference
// info's mix_enable, vmp_enable and poll_enable "是否在混音/合成/轮询", and
// recorder_mode 0 "未开启录像或直播" of the templates): a conference
// created with them runs them from its start, now or when a booked or
// pending one starts. Each is stored as an operator's start through vc
// would store it (vc_mix, vc_vmp, vc_poll, vc_recorders), so that vc reads,
// changes and stops it in the same way.
//
// The creation names members by account, and the conference starts before
// its invited terminals answer. Every place named by account remembers the
// account (the mix's and batch polls' "accounts", a chosen channel's
// "account", the poll members' account); a terminal called as that account
// takes the place when it joins (onJoin), and again when it rejoins after
// leaving, while the feature runs. Until then the place is empty: the
// mix lacks it, a chosen channel shows nothing, polls skip it. A feature
// that an operator starts again (or modifies, for the composition) through
// vc holds only what the operator named; stopping it ends it.
//
// Settings that the creation accepted but vc would refuse are left out: a
// channel outside the layout or given twice, a second channel following
// the speaker, the conference poll or the dual stream, a second channel for
// one account. A composition, poll or recording that cannot run at all
// (no layout, no poll interval, no member, another domain's recording
// server) does not start, and the start reports why to the server's log.

// hasCreated tells whether the creation set any feature.
func hasCreated(c engine.Conference) bool {
	for _, k := range []string{"mix", "vmp", "poll"} {
		if c.ObjectSet(k) {
			return true
		}
	}
	var rec model.MCConfsCreateRequestRecorder // as createdApply reads it
	return c.Member("recorder", &rec) && rec.RecorderMode != 0
}

// createdStart decides how the creation's features of a conference that
// has just started (engine.Features.Started) start, each unless it runs
// already: the start's follow-up runs again on another node when the node
// that started the conference stopped before it was done
// (engine/start_pending.go). The engine writes the conference that
// createdApply changed, then applies the terminals' flags and the media
// (engine.Change).
func (m *Module) createdStart(started engine.Conference) engine.Change {
	if !hasCreated(started) {
		return engine.Change{}
	}
	var problems []error
	change := func(ctx context.Context, c *engine.Conference, tree []engine.Terminal) (bool, error) {
		var err error
		problems, err = m.createdApply(ctx, c, tree)
		return true, err
	}
	effects := func(ctx context.Context, c engine.Conference, tree []engine.Terminal) (engine.Effects, error) {
		// The creation's recording records with media from now on
		// (rec_media.go), its part stored by the engine (Effects.Parts);
		// one that cannot is a problem of the start and stays a
		// recording without a file.
		var parts []engine.RecordingStarted
		for _, rc := range c.Recorders {
			if m.recHere(rc.RecID) == nil {
				p, err := m.recMediaStartPart(ctx, c, rc)
				if err != nil {
					problems = append(problems, createdProblem{fmt.Errorf("recorder: %w: the recording has no file", err)})
				} else if p != nil {
					parts = append(parts, *p)
				}
			}
		}
		eff, err := m.flagsEffectsTree(ctx, c, tree)
		eff.Parts = parts
		return eff, errors.Join(append(problems, err)...)
	}
	return engine.Change{Conf: change, Effects: effects}
}

// createdApply stores the creation's features in the conference document,
// each unless it runs already. The problems are
// the settings left out.
func (m *Module) createdApply(ctx context.Context, c *engine.Conference, tree []engine.Terminal) ([]error, error) {
	v, err := m.mdLoadTree(ctx, *c, tree)
	if err != nil {
		return nil, err
	}
	var problems []error
	var mix model.MCConfsCreateRequestMix // the creation's, stored
	if c.ObjectSet("mix") && c.Mix == nil && c.Member("mix", &mix) {
		c.Mix = v.createdMix(mix)
	}
	if c.ObjectSet("vmp") && c.VMP == nil {
		var p createdVMPSetting // the creation's, stored
		c.Member("vmp", &p)     // best effort, as createdSetting
		cfg, err := v.createdVMP(p)
		if err != nil {
			problems = append(problems, err)
		} else {
			c.VMP = cfg
		}
	}
	if c.ObjectSet("poll") && !pollRunning(c.Poll, v.byID, v.now) {
		var p createdPollSetting // the creation's, stored
		c.Member("poll", &p)     // best effort, as createdSetting
		poll, err := v.createdPoll(p)
		if err != nil {
			problems = append(problems, err)
		} else {
			c.Poll = poll
		}
	}
	c.SetMixEnable(mdFlag(c.Mix != nil))
	c.SetVMPEnable(mdFlag(c.VMP != nil))
	c.SetPollEnable(mdFlag(pollRunning(c.Poll, v.byID, v.now)))
	var rec model.MCConfsCreateRequestRecorder // the creation's, stored
	if c.Member("recorder", &rec) && rec.RecorderMode != 0 {
		if err := m.createdRecorder(ctx, c, rec, v.now); err != nil {
			if !isCreatedProblem(err) {
				return nil, err
			}
			problems = append(problems, err)
		}
	}
	return problems, nil
}

// resolve is the online local terminal called as acct that taken does not
// hold ("" when none).
func (v *mdView) resolve(acct string, taken map[string]bool) string {
	if acct == "" {
		return ""
	}
	for _, t := range v.ts {
		id := t.MtID()
		if t.Rec.State == engine.StateOnline && t.Account() == acct && !taken[id] {
			return id
		}
	}
	return ""
}

// createdIDs resolves accounts to the terminals online now.
func (v *mdView) createdIDs(accts []string) []string {
	taken := map[string]bool{}
	var out []string
	for _, a := range accts {
		if id := v.resolve(a, taken); id != "" {
			taken[id] = true
			out = append(out, id)
		}
	}
	return out
}

// createdMix is the mix of the creation's mix settings (both modes mix the
// members named, as vc's start does); nil for a mode vc does not have.
func (v *mdView) createdMix(p model.MCConfsCreateRequestMix) *engine.Mix {
	mode := p.Mode
	if mode != 1 && mode != 2 {
		return nil
	}
	seen := map[string]bool{}
	var accts []string
	for _, e := range p.Members {
		if a := e.Account; a != "" && !seen[a] {
			seen[a] = true
			accts = append(accts, a)
		}
	}
	// The accounts are stored, also when the creation named none.
	return &engine.Mix{Mode: mode, MtIDs: v.createdIDs(accts), Accounts: append([]string{}, accts...)}
}
