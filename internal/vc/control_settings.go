package vc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Conference settings (reference 05 items 24, 27, 28, 30: "延长会议时间",
// "会议安全操作", "修改会议名称", "设置强制广播"; seed 001: name from
// 5.2.0.2.0, forcebroadcast from 5.1.0.2.0, dualmode from 6.1.0.4.0). Each
// is stored in the conference document under the info's field names, so
// vc.confs.get and vc.confs.list show it at once. The short message is in
// control_sms.go.

// delayMax is the longest extension of one request: a year, in minutes.
const delayMax = 366 * 24 * 60

// delayConf extends a conference by delay_time minutes (1 to delayMax):
// end_time, duration and the time the conference ends by itself move
// together. A permanent conference (duration 0, no end_time) never ends,
// so it stays permanent and the request succeeds without a change.
func (m *Module) delayConf(ctx context.Context, r *api.Request) error {
	var q model.VCConfsDelayUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	d := q.DelayTime
	if err := ctlRange("delay_time", d, 1, delayMax); err != nil {
		return err
	}
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		e := c.EndTimeText()
		if e == "" {
			return errCtlUnchanged
		}
		end, err := record.ParseTime(e)
		if err != nil {
			return err
		}
		end = end.Add(time.Duration(d) * time.Minute)
		c.SetEndTimeText(record.FormatTime(end))
		c.SetDuration(c.Duration() + d)
		c.Rec.DueAt = end
		return nil
	})
	if errors.Is(err, errCtlUnchanged) {
		err = nil
	}
	return err
}

// setSafety stores the conference's password (need_password follows it),
// hidden mode (safe_conf) and do-not-disturb (closed_conf). The password
// follows the creation rules: at most 16 bytes of letters, digits, _ and
// .; "" removes it.
func (m *Module) setSafety(ctx context.Context, r *api.Request) error {
	var q model.VCConfsSaftyUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	pw := q.Password
	if err := ctlCheckPassword(pw); err != nil {
		return err
	}
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		c.SetPassword(pw) // and need_password
		c.SetSafeConf(q.SafeConf)
		c.SetClosedConf(q.ClosedConf)
		return nil
	})
	return err
}

// renameConf changes the conference's name (value), checked as at
// creation (reference 05 "修改会议名称").
func (m *Module) renameConf(ctx context.Context, r *api.Request) error {
	var q model.VCConfsNameUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	name := q.Value
	if err := ctlCheckName(name); err != nil {
		return err
	}
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		c.SetName(name)
		return nil
	})
	return err
}

// setForceBroadcast stores the conference's forced broadcast.
func (m *Module) setForceBroadcast(ctx context.Context, r *api.Request) error {
	var q model.VCConfsForcebroadcastUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	v := q.ForceBroadcast
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		c.SetForceBroadcast(v)
		return nil
	})
	if err != nil {
		return err
	}
	return m.mediaSync(ctx, c) // media_sync.go
}

// setDualMode stores who may send the dual stream (dual_mode of the
// conference: 0 the speaker, 1 any terminal, 2 designated terminals). The
// sources name only the endpoint; its parameter is the conference field,
// required here since there is nothing else to set.
func (m *Module) setDualMode(ctx context.Context, r *api.Request) error {
	var q model.VCConfsDualmodeUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	v, ok := q.DualMode.Get()
	if !ok {
		return wire.InvalidParam("dual_mode", "required parameter is missing")
	}
	if err := ctlRange("dual_mode", v, 0, 2); err != nil {
		return err
	}
	_, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		c.SetDualMode(v)
		return nil
	})
	return err
}

// Name rules of reference 04/05 (conference name): at most 64 bytes, none
// of the forbidden characters, none of _ - . @ first or last.
const (
	ctlNameMax       = 64
	ctlNameForbidden = "%&*^~'\"?/\\<>|`$"
	ctlNameEdge      = "_-.@"
	ctlPasswordMax   = 16
)

func ctlCheckName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return wire.InvalidParam("value", "the conference name must not be empty")
	case len(name) > ctlNameMax:
		return wire.InvalidParam("value", fmt.Sprintf("longer than %d bytes", ctlNameMax))
	case strings.ContainsAny(name, ctlNameForbidden):
		return wire.InvalidParam("value", "must not contain % & * ^ ~ ' \" ? / \\ < > | ` $")
	case strings.ContainsAny(name[:1], ctlNameEdge) || strings.ContainsAny(name[len(name)-1:], ctlNameEdge):
		return wire.InvalidParam("value", "must not begin or end with _ - . @")
	}
	return nil
}

func ctlCheckPassword(pw string) error {
	if len(pw) > ctlPasswordMax {
		return wire.InvalidParam("password", fmt.Sprintf("longer than %d bytes", ctlPasswordMax))
	}
	for _, c := range pw {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return wire.InvalidParam("password", "may hold only letters, digits, _ and .")
		}
	}
	return nil
}
