package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Chairman and speaker (reference 05 items 17 to 20, "获取/指定会议主席",
// "获取/指定会议发言人"; seed 001 6.1.0.2.0: force_broadcast on the
// speaker). Both are synchronous: the reply comes after the role is
// stored. mt_id "" cancels the role; any other mt_id must be an online
// terminal of the conference (12104, 20401).

// ctlGetRole answers the terminal holding a role as the endpoint's
// generated reply (reply): {mt_id}, "" when none.
func ctlGetRole[R api.Reply](m *Module, role func(engine.Conference) string, reply func(mtID string) R) api.Handler {
	return api.Typed(func(ctx context.Context, r *api.Request) (R, error) {
		c, err := m.confRunning(ctx, r)
		if err != nil {
			var none R
			return none, err
		}
		return reply(role(c)), nil
	})
}

// The replies of the three role queries, each {mt_id}.
func chairmanReply(id string) *model.VCConfsChairmanGetReply {
	return &model.VCConfsChairmanGetReply{MtID: id}
}
func speakerReply(id string) *model.VCConfsSpeakerGetReply {
	return &model.VCConfsSpeakerGetReply{MtID: id}
}
func dualReply(id string) *model.VCConfsDualstreamGetReply {
	return &model.VCConfsDualstreamGetReply{MtID: id}
}

// setChairman makes an online local terminal the chairman, or cancels the
// chairman (mt_id "").
func (m *Module) setChairman(ctx context.Context, r *api.Request) error {
	var q model.VCConfsChairmanUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	mtID := q.MtID
	c, err := m.ctlUpdateOnline(ctx, r, mtID, func(c *engine.Conference, online func() error) error {
		if mtID != "" {
			if err := online(); err != nil {
				return err
			}
		}
		c.Roles.Chairman = mtID
		return nil
	})
	if err != nil {
		return err
	}
	return m.mediaSync(ctx, c) // media_sync.go
}

// setSpeaker makes an online terminal the speaker, or cancels the speaker
// (mt_id ""). While voice activation is on, the voice picks the speaker:
// setting one answers 20346 and cancelling 20344 (A3). force_broadcast,
// when sent, sets the conference's forced broadcast with the speaker (the
// same flag as PUT forcebroadcast and the info's force_broadcast).
func (m *Module) setSpeaker(ctx context.Context, r *api.Request) error {
	var q model.VCConfsSpeakerUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	mtID := q.MtID
	c, err := m.ctlUpdateOnline(ctx, r, mtID, func(c *engine.Conference, online func() error) error {
		if err := speakerChange(c.ID(), c.VoiceActivityDetection(), mtID); err != nil { // role_rules.go
			return err
		}
		if mtID != "" {
			if err := online(); err != nil {
				return err
			}
		}
		c.Roles.Speaker = mtID
		if fb, ok := q.ForceBroadcast.Get(); ok {
			c.SetForceBroadcast(fb)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return m.mediaSync(ctx, c) // media_sync.go
}

// ctlUpdateOnline is ctlUpdate for a change that stores a role for the
// terminal mtID: change calls online to check that it is an online
// terminal of the conference (12104, 20401) before it stores anything.
// With a store that can (store.GuardedWriter) and a local mtID, the
// conference and the terminal's state are one read and the write holds
// only while the terminal is online, so a terminal that leaves meanwhile
// either finds the role stored (its leave clears it) or makes the write
// fail and the change read both again; otherwise the terminal is read
// before the write and again after it (ctlStillOnline).
func (m *Module) ctlUpdateOnline(ctx context.Context, r *api.Request, mtID string, change func(c *engine.Conference, online func() error) error) (engine.Conference, error) {
	if mtID != "" {
		if c, ok, err := m.ctlUpdateGuarded(ctx, r, mtID, change); ok {
			return c, err
		}
	}
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		return change(c, func() error { return m.ctlIsOnline(ctx, *c, mtID) })
	})
	if err != nil {
		return c, err
	}
	return c, m.ctlStillOnline(ctx, c, mtID)
}

// ctlUpdateGuarded is ctlUpdateOnline with a store.GuardedWriter; ok is
// false, and nothing was read, when the store or mtID does not allow it.
func (m *Module) ctlUpdateGuarded(ctx context.Context, r *api.Request, mtID string, change func(c *engine.Conference, online func() error) error) (c engine.Conference, ok bool, err error) {
	domain, confID := r.Principal.DomainMoid, r.Path("conf_id")
	defer m.ctlLocks.lock(domain + "/" + confID)() // conflock.go
	// The first try starts from the conference as this node last read or
	// wrote it, with the terminal taken as online, reading nothing: the
	// guarded write holds only if the stored conference is still that
	// version and the terminal is online, so a success is the change
	// applied to the committed state. Anything else (a conflict, a
	// missing record, an error of the change, which may come from a
	// stale document) reads both and tries again; the answer always
	// comes from a read or a committed write (docs/benchmarks.md
	// "Speaker changes, third pass").
	kept, optimistic := m.confs.Kept(domain, confID, mtID, engine.StateRunning)
	for {
		var c engine.Conference
		state := engine.StateOnline
		if optimistic {
			c = kept
		} else {
			var ok bool
			var err error
			c, state, ok, err = m.confs.GetWithTerminal(ctx, domain, confID, mtID, engine.StateRunning)
			if !ok || err != nil {
				return c, ok, err
			}
		}
		tried := optimistic
		optimistic = false
		checked := false
		online := func() error {
			checked = true
			return ctlStateErr(c, mtID, state)
		}
		if err := change(&c, online); err != nil {
			if tried {
				continue
			}
			return c, true, err
		}
		var err error
		if checked {
			err = m.confs.UpdateWhileOnline(ctx, c, mtID)
		} else {
			err = m.confs.Update(ctx, c)
		}
		switch {
		case errors.Is(err, store.ErrConflict):
			continue // changed, or the terminal left: read both again
		case errors.Is(err, store.ErrNotFound) && tried:
			continue
		case errors.Is(err, store.ErrNotFound):
			return c, true, engine.ConfNotFound(c.ID())
		}
		return c, true, err
	}
}

// ctlStillOnline runs after a role was stored for mtID: a terminal that
// left the call between the check and the write had its leave work run
// before the role existed, so its roles are cleared again (rolesLeft;
// the other features' leave steps have run) and the request answers
// 20401 (or 12104 when it was removed), leaving nothing behind.
func (m *Module) ctlStillOnline(ctx context.Context, c engine.Conference, mtID string) error {
	if mtID == "" {
		return nil
	}
	err := m.ctlIsOnline(ctx, c, mtID)
	var we *wire.Error
	if errors.As(err, &we) && (we.Code == CodeMtUnreachable || we.Code == wire.CodeMTNotFound) {
		if lerr := m.engine.Change(ctx, engine.ConfOf(c), m.rolesLeft([]string{mtID})); lerr != nil {
			return lerr
		}
	}
	return err
}

// ctlIsOnline is ctlOnline for checks that need only the terminal's
// state, not its document (12104, 20401).
func (m *Module) ctlIsOnline(ctx context.Context, c engine.Conference, mtID string) error {
	st, err := m.engine.State(ctx, engine.ConfOf(c), mtID)
	switch {
	case errors.Is(err, engine.ErrNotFound):
		st = ""
	case err != nil:
		return err
	}
	return ctlStateErr(c, mtID, st)
}

// ctlStateErr answers a terminal's record state ("" when the conference
// has no such terminal) for a check that it is online: 12104, 20401.
func ctlStateErr(c engine.Conference, mtID, state string) error {
	return mtPresence(c.ID(), mtID, state != "", state, true) // control_rules.go
}
