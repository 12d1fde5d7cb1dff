package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Conference mixing (reference 05 items 33 to 37, "获取会议混音信息",
// "开启/停止会议混音", "添加/删除混音成员"). A conference has one mixer, its
// main one, mix_id 1 (any other does not exist: 20812). The mixer is
// stored in the conference document (engine.Conference.Mix, vc_mix: mode
// and the members' mt_ids, in the order they joined); mix_enable of the conference and the
// mix flag of each member follow it. Both modes (1 smart, 2 custom) mix
// the members named; the mode is kept and reported. Members must be
// online terminals of the conference (12104, 20401); a member that leaves
// the call leaves the mix.

// mixMain is the id of the conference's main mixer.
const mixMain = "1"

// mixRunning returns the stored mix of the request's mix_id: 20812 when
// it does not run.
func mixRunning(c engine.Conference, mixID string) (*engine.Mix, error) {
	mix := c.Mix
	if mixID != mixMain {
		return nil, wire.Errorf(CodeMixNotRunning, "conference %s has no mixer %s (its main mixer is 1)", c.ID(), mixID)
	}
	if mix == nil {
		return nil, wire.Errorf(CodeMixNotRunning, "conference %s is not mixing", c.ID())
	}
	return mix, nil
}

// getMix shows the mode and the members with their call aliases
// (mixReply).
func (m *Module) getMix(ctx context.Context, r *api.Request) (*model.VCConfsMixsGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	mix, err := mixRunning(c, r.Path("mix_id"))
	if err != nil {
		return nil, err
	}
	v, err := m.mdLoad(ctx, c)
	if err != nil {
		return nil, err
	}
	return mixReply(mix, v.account), nil
}

// startMix starts mixing the members (20811 when a mix runs).
func (m *Module) startMix(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMixsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	return m.writeMix(ctx, r, func(c engine.Conference, v *mdView) (*engine.Mix, []string, error) {
		if c.Mix != nil {
			return nil, nil, wire.Errorf(CodeMixRunning, "conference %s is already mixing", c.ID())
		}
		ids, err := v.mdIDList(mixMemberIDs(q.Members), "members")
		if err != nil {
			return nil, nil, err
		}
		return &engine.Mix{Mode: q.Mode, MtIDs: ids}, ids, nil
	})
}

// addMixMembers adds members to the running mix (mixAdded).
func (m *Module) addMixMembers(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMixsMembersAddRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	return m.writeMix(ctx, r, func(c engine.Conference, v *mdView) (*engine.Mix, []string, error) {
		mix, err := mixRunning(c, r.Path("mix_id"))
		if err != nil {
			return nil, nil, err
		}
		ids, err := v.mdIDList(mixMemberIDs(q.Members), "members")
		if err != nil {
			return nil, nil, err
		}
		return mixKeep(mix, mixAdded(mix.MtIDs, ids), nil), ids, nil
	})
}

// removeMixMembers removes members from the running mix (mixRemoved).
// The mix runs on, also without members.
func (m *Module) removeMixMembers(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMixsMembersDeleteRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	return m.writeMix(ctx, r, func(c engine.Conference, v *mdView) (*engine.Mix, []string, error) {
		mix, err := mixRunning(c, r.Path("mix_id"))
		if err != nil {
			return nil, nil, err
		}
		kept, order, err := mixRemoved(c.ID(), mix.MtIDs, mixMemberIDs(q.Members), func(id string) bool { _, ok := v.byID[id]; return ok })
		if err != nil {
			return nil, nil, err
		}
		drop := map[string]bool{}
		for _, id := range order {
			drop[v.account(id)] = true
		}
		return mixKeep(mix, kept, drop), nil, nil
	})
}

// mixMemberIDs is the mt_id of each member of a mix request (the same
// member type for starting a mix, adding and removing members).
func mixMemberIDs(l []model.VCConfsMixsCreateRequestMember) []string {
	ids := make([]string, len(l))
	for i, e := range l {
		ids[i] = e.MtID.Value
	}
	return ids
}

// mixKeep is the running mix with the members ids; the accounts a mix
// started from the creation waits for (create_features.go) stay, but for
// those of the terminals an operator removed.
func mixKeep(mix *engine.Mix, ids []string, drop map[string]bool) *engine.Mix {
	out := &engine.Mix{Mode: mix.Mode, MtIDs: ids}
	if mix.Accounts != nil {
		out.Accounts = []string{} // stored, also when none is left
		for _, a := range mix.Accounts {
			if !drop[a] {
				out.Accounts = append(out.Accounts, a)
			}
		}
	}
	return out
}

func mixHas(ids []string, id string) bool {
	for _, s := range ids {
		if s == id {
			return true
		}
	}
	return false
}

// writeMix stores the mix that build makes of the running conference and
// sets the members' flags; the terminals build names must still be online
// after the write (see mediaStillOnline).
func (m *Module) writeMix(ctx context.Context, r *api.Request, build func(c engine.Conference, v *mdView) (*engine.Mix, []string, error)) error {
	return m.mediaUpdate(ctx, r, func(c *engine.Conference, v *mdView) ([]string, error) {
		mix, ids, err := build(*c, v)
		if err != nil {
			return nil, err
		}
		c.Mix = mix
		c.SetMixEnable(1)
		return ids, nil
	})
}

// stopMix stops the mix (20812 when none runs).
func (m *Module) stopMix(ctx context.Context, r *api.Request) error {
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		if _, err := mixRunning(*c, r.Path("mix_id")); err != nil {
			return err
		}
		c.Mix = nil
		c.SetMixEnable(0)
		return nil
	})
	if err != nil {
		return err
	}
	return m.mediaFlags(ctx, c)
}
