package vc

import (
	"context"
	"fmt"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Short messages to terminals (reference 05 item 29, "发送短消息"; seed 001
// 5.1.0.4.0: roll_num 255 scrolls without end on newer terminals). The
// reply is success alone; the message last sent is kept in the conference
// document (engine.Conference's SMS, stored as sms: message, type,
// roll_num, roll_speed, mts, send_time), an
// empty message being the one that stops the scrolling.

// Limits of the reference: message at most 1500 bytes, roll_num 1 to 255
// (255 = unlimited).
const (
	smsMaxBytes = 1500
	smsMaxRoll  = 255
)

// sendSMS sends message to the terminals of mts, each of which must be an
// online terminal of the conference (12104, 20401); a terminal named
// twice receives it once.
func (m *Module) sendSMS(ctx context.Context, r *api.Request) error {
	var q model.VCConfsSMSSendRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	msg := q.Message
	if len(msg) > smsMaxBytes {
		return wire.InvalidParam("message", fmt.Sprintf("longer than %d bytes", smsMaxBytes))
	}
	roll := q.RollNum
	if err := ctlRange("roll_num", roll, 1, smsMaxRoll); err != nil {
		return err
	}
	speed, typ := q.RollSpeed, q.Type
	if len(q.Mts) == 0 {
		return wire.InvalidParam("mts", "names no terminal to receive the message")
	}
	var ids []string
	seen := map[string]bool{}
	for i, e := range q.Mts {
		id := e.MtID
		if id == "" {
			return wire.InvalidParam(fmt.Sprintf("mts[%d].mt_id", i), "must name a terminal")
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		to := make([]model.VCConfsSMSSendRequestMt, 0, len(ids))
		for _, id := range ids {
			if _, err := m.ctlOnline(ctx, *c, id); err != nil {
				return err
			}
			to = append(to, model.VCConfsSMSSendRequestMt{MtID: id})
		}
		c.SMS = &engine.SMS{Message: msg, Type: typ, RollNum: roll, RollSpeed: speed,
			Mts: to, SendTime: record.FormatTime(m.clk.Now())}
		return nil
	})
	return err
}
