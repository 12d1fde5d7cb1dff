package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// The conference picture composition (reference 05 items 38 to 41, "获取/
// 开启/修改/停止会议画面合成"; seed 001: modify listed as PUT in 5.1.0.1.0,
// served as both POST and PUT). A conference has one composition, its main
// one, vmp_id 1; any other vmp_id does not exist (20823). Starting or
// modifying stores the composition at once; vmp_enable of the conference
// and the vmp flag of the terminals involved follow it.

// vmpMain is the id of the conference's main composition.
const vmpMain = "1"

// getVMP shows the composition as it is now: the panes with the terminals
// they show, and the batch poll.
func (m *Module) getVMP(ctx context.Context, r *api.Request) (*model.VCConfsVMPsGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	cfg, err := vmpRunning(c, r.Path("vmp_id"))
	if err != nil {
		return nil, err
	}
	v, err := m.mdLoad(ctx, c)
	if err != nil {
		return nil, err
	}
	st := cfg.NameStyle
	out := model.VCConfsVMPsGetReply{Mode: cfg.Mode, Layout: cfg.Layout, Broadcast: cfg.Broadcast, VoiceHint: cfg.VoiceHint,
		ShowMtName: cfg.ShowMtName, ExceptSelf: cfg.ExceptSelf,
		MtNameStyle: &model.VCConfsVMPsGetReplyMtNameStyle{FontSize: st.FontSize, FontColor: st.FontColor, Position: st.Position}}
	for _, p := range v.vmpOf(cfg) {
		out.Members = append(out.Members, v.paneReply(p))
	}
	if bp := cfg.Poll; bp != nil {
		out.Poll = &model.VCConfsVMPsGetReplyPoll{Num: bp.Num, KeepTime: bp.KeepTime, Members: v.accountList(bp.MtIDs)}
	}
	return &out, nil
}

// startVMP starts the composition; 20822 when one runs.
func (m *Module) startVMP(ctx context.Context, r *api.Request) error {
	return m.writeVMP(ctx, r, func(c engine.Conference, v *mdView) (*engine.VMP, error) {
		if err := vmpStartable(c); err != nil { // vmp_rules.go
			return nil, err
		}
		q, err := vmpRequestOf(r.Args)
		if err != nil {
			return nil, err
		}
		return vmpConfig(q, nil, v.panes())
	})
}

// modifyVMP replaces the settings of the running composition (20823 when
// none runs); a batch poll starts again from its first page.
func (m *Module) modifyVMP(ctx context.Context, r *api.Request) error {
	return m.writeVMP(ctx, r, func(c engine.Conference, v *mdView) (*engine.VMP, error) {
		old, err := vmpRunning(c, r.Path("vmp_id"))
		if err != nil {
			return nil, err
		}
		q, err := vmpRequestOf(r.Args)
		if err != nil {
			return nil, err
		}
		return vmpConfig(q, old, v.panes())
	})
}

// writeVMP stores the composition that build makes of the running
// conference, then sets the terminals' flags. A terminal named in the
// request that left the call meanwhile is dropped again and answers 20401.
func (m *Module) writeVMP(ctx context.Context, r *api.Request, build func(c engine.Conference, v *mdView) (*engine.VMP, error)) error {
	return m.mediaUpdate(ctx, r, func(c *engine.Conference, v *mdView) ([]string, error) {
		cfg, err := build(*c, v)
		if err != nil {
			return nil, err
		}
		c.VMP = cfg
		c.SetVMPEnable(1)
		var named []string
		for id := range vmpNamed(cfg) {
			named = append(named, id)
		}
		return named, nil
	})
}

// stopVMP stops the composition (20823 when none runs).
func (m *Module) stopVMP(ctx context.Context, r *api.Request) error {
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		if _, err := vmpRunning(*c, r.Path("vmp_id")); err != nil {
			return err
		}
		c.VMP = nil
		c.SetVMPEnable(0)
		return nil
	})
	if err != nil {
		return err
	}
	return m.mediaFlags(ctx, c)
}
