package vc

import (
	"context"
	"errors"
	"slices"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Terminal self compositions (reference 05 items 57 to 61, "开启/获取/修改/
// 停止终端自主画面合成", "获取开启自主画面合成的终端列表"; seed 001:
// mt_chn_idx from 6.1.0.2.0, GET mtvmps/{mt_id}/{mt_chn_idx} in 6.1.0.2.0
// only, the mt_channel_vmps endpoints from 6.1.0.4.0). A self composition
// is the picture one video channel of a terminal receives; they are kept
// in the conference document (engine.Conference.SelfVMPs), one per terminal and channel
// (mt_id, mt_chn_idx). mt_chn_idx 0, the default, is the terminal's
// automatic channel. The mtvmps/{mt_id} endpoints address the terminal's
// composition on its lowest channel (normally its only one); the channel
// endpoints address one channel. The terminal must be online (12104,
// 20401), and its composition stops when it leaves the call.

// selfFind returns the index in selfs of the self composition of terminal
// mtID on channel chn, or on its lowest channel when chn < 0; -1 when it
// has none.
func selfFind(selfs []engine.SelfVMP, mtID string, chn int) int {
	found := -1
	for i, s := range selfs {
		if s.MtID != mtID {
			continue
		}
		c := s.MtChnIdx
		if c == chn || (chn < 0 && (found < 0 || c < selfs[found].MtChnIdx)) {
			found = i
		}
	}
	return found
}

// selfKey reads the terminal and channel of the request's path: the
// channel endpoints name the channel, the others its lowest one (-1).
func selfKey(r *api.Request, channel bool) (string, int, error) {
	if !channel {
		return r.Path("mt_id"), -1, nil
	}
	chn, err := mdPathInt("mt_chn_idx", r.Path("mt_chn_idx"))
	return r.Path("mt_id"), chn, err
}

// selfOf finds the self composition of terminal mtID on channel chn (its
// lowest when chn < 0) among selfs: 12104 for a terminal the conference
// lacks, 20823 when it has none.
func selfOf(s paneState, selfs []engine.SelfVMP, mtID string, chn int) (int, error) {
	if _, ok := s.Terms[mtID]; !ok {
		return -1, wire.Errorf(wire.CodeMTNotFound, "terminal %s does not exist in conference %s", mtID, s.ConfID)
	}
	i := selfFind(selfs, mtID, chn)
	switch {
	case i < 0 && chn >= 0:
		return -1, wire.Errorf(CodeVMPNotStarted, "terminal %s of conference %s runs no self composition on video channel %d", mtID, s.ConfID, chn)
	case i < 0:
		return -1, wire.Errorf(CodeVMPNotStarted, "terminal %s of conference %s runs no self composition", mtID, s.ConfID)
	}
	return i, nil
}

// selfStart is the rule of a start: the owner online (12104, 20401),
// its receive channel chn one it has (20054) and without a composition
// (20822); the compositions with the new one and the terminals it names.
func selfStart(s paneState, selfs []engine.SelfVMP, owner string, chn int, q selfRequest, mode int) ([]engine.SelfVMP, []string, error) {
	if err := s.member("mt_id", owner); err != nil {
		return nil, nil, err
	}
	if err := s.channel("mt_chn_idx", owner, chn, "v_rcv_chn"); err != nil {
		return nil, nil, err
	}
	if selfFind(selfs, owner, chn) >= 0 {
		return nil, nil, wire.Errorf(CodeVMPStarted, "terminal %s of conference %s already runs a self composition on video channel %d", owner, s.ConfID, chn)
	}
	cfg, named, err := selfConfig(q, mode, s)
	if err != nil {
		return nil, nil, err
	}
	cfg.MtID, cfg.MtChnIdx = owner, chn
	return append(selfs, cfg), named, nil
}

// selfModify is the rule of a change: the running composition of the
// owner's channel (selfOf) replaced, on the same channel.
func selfModify(s paneState, selfs []engine.SelfVMP, owner string, chn int, q selfRequest, mode int) ([]engine.SelfVMP, []string, error) {
	i, err := selfOf(s, selfs, owner, chn)
	if err != nil {
		return nil, nil, err
	}
	cfg, named, err := selfConfig(q, mode, s)
	if err != nil {
		return nil, nil, err
	}
	cfg.MtID, cfg.MtChnIdx = owner, selfs[i].MtChnIdx
	selfs[i] = cfg
	return selfs, named, nil
}

// selfStop is the rule of a stop: the compositions without the owner's
// channel's (selfOf).
func selfStop(s paneState, selfs []engine.SelfVMP, owner string, chn int) ([]engine.SelfVMP, error) {
	i, err := selfOf(s, selfs, owner, chn)
	if err != nil {
		return nil, err
	}
	return append(selfs[:i:i], selfs[i+1:]...), nil
}

// startSelfVMP starts the self composition of a terminal's channel
// (mt_chn_idx, default 0): decode, selfStart, write.
func (m *Module) startSelfVMP(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMtvmpsCreateRequest // mt_channel_vmps's has the same members (its mt_chn_idx required)
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	owner, chn := q.MtID, q.MtChnIdx.Or(0)
	req := selfRequestOf(q.Layout, q.VoiceHint, q.ShowMtName, q.Members)
	return m.writeSelf(ctx, r, owner, func(s paneState, selfs []engine.SelfVMP) ([]engine.SelfVMP, []string, error) {
		return selfStart(s, selfs, owner, chn, req, q.Mode)
	})
}

// modifySelfVMP replaces the settings of a running self composition:
// decode, selfModify, write.
func (m *Module) modifySelfVMP(channel bool) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error {
		owner, chn, err := selfKey(r, channel)
		if err != nil {
			return err
		}
		var q model.VCConfsMtvmpsUpdateRequest // the channel's (VCConfsMtChannelVMPsUpdateRequest) has the same members
		if err := q.Decode(r.Args); err != nil {
			return err
		}
		req := selfRequestOf(q.Layout, q.VoiceHint, q.ShowMtName, q.Members)
		return m.writeSelf(ctx, r, owner, func(s paneState, selfs []engine.SelfVMP) ([]engine.SelfVMP, []string, error) {
			return selfModify(s, selfs, owner, chn, req, q.Mode)
		})
	})
}

// stopSelfVMP stops a self composition: selfStop, write.
func (m *Module) stopSelfVMP(channel bool) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error {
		owner, chn, err := selfKey(r, channel)
		if err != nil {
			return err
		}
		return m.writeSelf(ctx, r, "", func(s paneState, selfs []engine.SelfVMP) ([]engine.SelfVMP, []string, error) {
			kept, err := selfStop(s, selfs, owner, chn)
			return kept, nil, err
		})
	})
}

// writeSelf stores the self compositions that change makes of the running
// conference's, checked against its terminals (paneState); owner and the
// terminals change names must still be online after the write (see
// mediaStillOnline).
func (m *Module) writeSelf(ctx context.Context, r *api.Request, owner string,
	change func(s paneState, selfs []engine.SelfVMP) ([]engine.SelfVMP, []string, error)) error {
	var named []string
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		v, err := m.mdLoad(ctx, *c)
		if err != nil {
			return err
		}
		selfs, ids, err := change(v.panes(), slices.Clone(c.SelfVMPs))
		if err != nil {
			return err
		}
		c.SelfVMPs = append([]engine.SelfVMP{}, selfs...) // stored as a list, empty when the last stops
		named = ids
		if owner != "" {
			named = append(named, owner)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The terminal's composed picture follows (media_sync.go).
	return errors.Join(m.mediaStillOnline(ctx, c, named), m.mediaSync(ctx, c))
}

// selfGet shows a self composition as it is now, in the reply type of
// its route (as: mtvmpsReply for mtvmps.get, channelVMPReply for the
// channel's gets).
func selfGet[R api.Reply](m *Module, channel bool, as func(cfg engine.SelfVMP, members []model.VCConfsMtvmpsGetReplyMember) R) api.Handler {
	return api.Typed(func(ctx context.Context, r *api.Request) (R, error) {
		var none R
		owner, chn, err := selfKey(r, channel)
		if err != nil {
			return none, err
		}
		c, v, err := m.mdRunning(ctx, r)
		if err != nil {
			return none, err
		}
		i, err := selfOf(v.panes(), c.SelfVMPs, owner, chn)
		if err != nil {
			return none, err
		}
		return as(c.SelfVMPs[i], v.selfMembers(c.SelfVMPs[i])), nil
	})
}

// selfList lists the self compositions by terminal and channel
// (selfSorted), in the reply type of its route (as: mtvmpsList,
// channelVMPList). The terminal list (mtvmps) answers 20823 when there is
// none, as the reference says; the channel list (mt_channel_vmps) is then
// empty.
func selfList[R api.Reply](m *Module, channel bool, as func([]engine.SelfVMP) R) api.Handler {
	return api.Typed(func(ctx context.Context, r *api.Request) (R, error) {
		var none R
		c, err := m.confRunning(ctx, r)
		if err != nil {
			return none, err
		}
		if len(c.SelfVMPs) == 0 && !channel {
			return none, wire.Errorf(CodeVMPNotStarted, "no terminal of conference %s runs a self composition", c.ID())
		}
		return as(selfSorted(c.SelfVMPs)), nil
	})
}
