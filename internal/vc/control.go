package vc

import (
	"context"
	"errors"
	"fmt"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Conference-wide controls (reference 05 items 17 to 32, 94 and 95; seed
// 001 "Conference control (vc)"). Each control is stored in the conference
// document, under the vc info reply's field names where that schema has
// the field (mute, silence, force_mute, force_broadcast,
// voice_activity_detection, vacinterval, dual_mode, safe_conf,
// closed_conf, name, end_time, duration) and under the names below where
// it has none. The control_*.go files hold the endpoints by topic; leave.go
// keeps them consistent when terminals leave the call.

// The last short message, a field the vc reply schemas lack, is the
// server's own member engine.Conference.SMS; the terminals (mt_id)
// holding a role and the VIP list are Roles and VIPs. The creation fields
// speaker, chairman and vips (mc, by account) are left alone.

// errCtlUnchanged, returned by the change of ctlUpdate, stores nothing:
// the request has nothing to change and succeeds.
var errCtlUnchanged = errors.New("vc: nothing to change")

// confRunning reads the running conference of the request's path in the
// caller's domain: 12103 for an unknown, booked, ended or other domain's
// conference.
func (m *Module) confRunning(ctx context.Context, r *api.Request) (engine.Conference, error) {
	return m.confs.Get(ctx, r.Principal.DomainMoid, r.Path("conf_id"), engine.StateRunning)
}

// confUpdate reads a running conference, lets change edit its document and
// stores it over the version read, reading again and retrying when another
// writer came first. change reports whether there is anything to write; an
// error of change is returned as it is and nothing is stored. A conference
// that is not running (or ended meanwhile) is 12103. It is the one
// conference write loop of vc: the controls (ctlUpdate) and the
// time-driven features (polls, recording, playback, monitors, selective
// viewing) write through it.
func (m *Module) confUpdate(ctx context.Context, domain, confID string, change func(c *engine.Conference) (bool, error)) (engine.Conference, error) {
	for {
		c, err := m.confs.Get(ctx, domain, confID, engine.StateRunning)
		if err != nil {
			return c, err
		}
		write, err := change(&c)
		if err != nil || !write {
			return c, err
		}
		err = m.confs.Update(ctx, c)
		switch {
		case errors.Is(err, store.ErrConflict):
			continue
		case errors.Is(err, store.ErrNotFound):
			return c, engine.ConfNotFound(confID)
		}
		return c, err
	}
}

// confUpdateReq is confUpdate on the conference of the request.
func (m *Module) confUpdateReq(ctx context.Context, r *api.Request, change func(c *engine.Conference) (bool, error)) (engine.Conference, error) {
	return m.confUpdate(ctx, r.Principal.DomainMoid, r.Path("conf_id"), change)
}

// ctlUpdate is confUpdateReq for a control: change always writes, and
// this node's controls of the conference queue for their turn instead of
// meeting as conflicts (conflock.go).
func (m *Module) ctlUpdate(ctx context.Context, r *api.Request, change func(c *engine.Conference) error) (engine.Conference, error) {
	defer m.ctlLocks.lock(r.Principal.DomainMoid + "/" + r.Path("conf_id"))()
	return m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		return true, change(c)
	})
}

// ctlTerminal reads a terminal of the conference: 12104 when it is not
// one of its terminals.
func (m *Module) ctlTerminal(ctx context.Context, c engine.Conference, mtID string) (engine.Terminal, error) {
	t, err := m.engine.Get(ctx, engine.ConfOf(c), mtID)
	if errors.Is(err, engine.ErrNotFound) {
		return t, mtPresence(c.ID(), mtID, false, "", false)
	}
	return t, err
}

// ctlOnline reads a terminal that must be in the call: 12104 when the
// conference has no such terminal, 20401 when it is not online.
func (m *Module) ctlOnline(ctx context.Context, c engine.Conference, mtID string) (engine.Terminal, error) {
	t, err := m.ctlTerminal(ctx, c, mtID)
	if err != nil {
		return t, err
	}
	return t, mtPresence(c.ID(), mtID, true, t.Rec.State, true)
}

// The roles, read from a conference (ctlGetRole's argument).
func chairmanOf(c engine.Conference) string { return c.Roles.Chairman }
func speakerOf(c engine.Conference) string  { return c.Roles.Speaker }
func dualOf(c engine.Conference) string     { return c.Roles.Dual }

// ctlRange is a 90400 for an integer outside [lo, hi].
func ctlRange(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return wire.InvalidParam(name, fmt.Sprintf("%d is outside %d to %d", v, lo, hi))
	}
	return nil
}
