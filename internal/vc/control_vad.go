package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// Voice activation and the VIP list (reference 05 items 31, 32, 94, 95:
// "开启/关闭语音激励", "获取语音激励信息", "设置VIP列表", "获取VIP列表";
// seed 001: voice_activity_detection and vacinterval, renamed from
// voice_inspire_enable and interval in 5.1.0.1.0, which the compatibility
// rules handle).

// Limits of the reference: vacinterval at least 5 seconds, at most 8 VIP
// terminals.
const (
	vadMinInterval = 5
	vipMax         = 8
)

// vipLocalCascade is the cascade_id of the local conference (the cascade
// tree's root, "cascade_id 0"); the reference admits only local terminals
// as VIPs ("只能是本级终端").
const vipLocalCascade = "0"

// getVAD answers the conference's voice activation state and interval.
func (m *Module) getVAD(ctx context.Context, r *api.Request) (*model.VCConfsVADGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	reply := &model.VCConfsVADGetReply{
		VoiceActivityDetection: c.VoiceActivityDetection(),
		Vacinterval:            c.Vacinterval(),
	}
	return reply, nil
}

// setVAD turns voice activation on or off. Turning it on needs a
// vacinterval of at least 5 seconds; turning it off keeps the stored
// interval unless a valid one (5 or more) is sent.
func (m *Module) setVAD(ctx context.Context, r *api.Request) error {
	var q model.VCConfsVADUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	set, err := vadChange(q) // role_rules.go
	if err != nil {
		return err
	}
	_, err = m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		c.SetVoiceActivityDetection(set.State)
		if !set.Keep {
			c.SetVacinterval(set.Interval)
		}
		return nil
	})
	return err
}

// getVIPs answers the VIP list: {mt_id, cascade_id} in the order set.
func (m *Module) getVIPs(ctx context.Context, r *api.Request) (*model.VCConfsViplistGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	reply := &model.VCConfsViplistGetReply{}
	for _, v := range c.VIPs {
		reply.Mts = append(reply.Mts, model.VCConfsViplistGetReplyMt{MtID: v.MtID, CascadeID: v.CascadeID})
	}
	return reply, nil
}

// setVIPs replaces the VIP list: at most 8 online local terminals, each
// once (90400 for more, a missing mt_id, a repeated one or another
// cascade; 12104 unknown; 20401 not online). An empty list clears it.
func (m *Module) setVIPs(ctx context.Context, r *api.Request) error {
	var q model.VCConfsViplistUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	ids, err := vipIDs(q) // role_rules.go
	if err != nil {
		return err
	}
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		vips := make([]engine.VIP, 0, len(ids))
		for _, id := range ids {
			if _, err := m.ctlOnline(ctx, *c, id); err != nil {
				return err
			}
			vips = append(vips, engine.VIP{MtID: id, CascadeID: vipLocalCascade})
		}
		c.VIPs = vips
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := m.ctlStillOnline(ctx, c, id); err != nil {
			return err
		}
	}
	return nil
}
