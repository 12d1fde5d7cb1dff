package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// Silence and mute the whole conference (reference 05 items 25 and 26,
// "会场静音操作", "会场哑音操作"; seed 001: mute_filter, and force_mute
// from 6.1.0.2.0). Both are synchronous: the conference's flag (silence,
// mute, force_mute of the info) and every online terminal's flag are
// applied and stored before the reply.

// setSilenceAll silences (value 1) or unsilences (0) the loudspeakers of
// every online terminal.
func (m *Module) setSilenceAll(ctx context.Context, r *api.Request) error {
	var q model.VCConfsSilenceUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	v := q.Value
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		c.SetSilence(v)
		return nil
	})
	if err != nil {
		return err
	}
	return m.ctlSetOnline(ctx, c, flagSilence, v, nil)
}

// setMuteAll mutes (value 1) or unmutes (0) the microphones of every
// online terminal. When the conference's mute_filter is 1 ("对发言方和
// 管理方例外", reference 04), muting spares the speaker and the chairman,
// whose state is left as it is; unmuting applies to every terminal.
// force_mute (terminals cannot unmute themselves) is stored as sent with
// a mute, 0 when not sent; unmuting clears it.
func (m *Module) setMuteAll(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMuteUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	var ch muteAll
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		ch = muteAllOf(q, c.MuteFilter(), c.Roles)
		c.SetMute(ch.Mute)
		c.SetForceMute(ch.ForceMute)
		return nil
	})
	if err != nil {
		return err
	}
	return m.ctlSetOnline(ctx, c, flagMute, ch.Mute, ch.Spare)
}

// ctlSetOnline sets field ("mute" or "silence") to v on every online
// terminal of the conference except those of spare, through the engine's
// media controls (applied by the media backend, then stored). A terminal
// that leaves the call meanwhile is skipped.
func (m *Module) ctlSetOnline(ctx context.Context, c engine.Conference, field string, v int, spare map[string]bool) error {
	ec := engine.ConfOf(c)
	ts, err := m.engine.List(ctx, ec)
	if err != nil {
		return err
	}
	set := m.engine.SetMute
	if field == flagSilence {
		set = m.engine.SetSilence
	}
	for _, id := range audioTargets(ts, field, v, spare) {
		_, err := set(ctx, ec, id, v == 1)
		if err != nil && !errors.Is(err, engine.ErrNotOnline) && !errors.Is(err, engine.ErrNotFound) {
			return err
		}
	}
	return nil
}
