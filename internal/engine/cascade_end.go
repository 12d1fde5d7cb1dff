package engine

import (
	"context"
	"errors"
)

// The cascades of a conference that ends (Features.Ended) are dissolved
// by the engine from what conference control decided (Effects.Hangup,
// Effects.Detach): the superior's link terminal is hung up, and each
// subordinate forgets its superior and loses its uplink terminal, going on
// alone.

// Hangup is terminals of another running conference of the same user
// domain to hang up (Effects.Hangup): a superior's link to a subordinate
// that ended.
type Hangup struct {
	ConfID string
	MtIDs  []string
}

// Detach is a cascade to dissolve on the subordinate's side
// (Effects.Detach): the conference SubID forgets its superior SupID,
// reached through the link LinkID there, and removes its uplink terminal.
type Detach struct {
	SubID, SupID, LinkID string
}

// hangupIn hangs up terminals of another running conference of cf's user
// domain; a conference or terminal gone meanwhile is skipped.
func (e *Engine) hangupIn(ctx context.Context, cf Conf, h Hangup) error {
	ec, ok, err := e.runningConf(ctx, cf.DomainMoid, h.ConfID)
	if err != nil || !ok {
		return err
	}
	if err := e.Hangup(ctx, ec, h.MtIDs); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// Detach makes the conference d.SubID of the user domain forget its
// superior d.SupID (reached through d.LinkID) and removes its uplink
// terminal. A subordinate that ended, or that another superior holds
// meanwhile, is left as it is.
func (e *Engine) Detach(ctx context.Context, domain string, d Detach) error {
	uplink := ""
	c, err := e.changeConf(ctx, Conf{DomainMoid: domain, ConfID: d.SubID}, func(_ context.Context, c *Conference) (bool, error) {
		up := c.Superior
		if up == nil || up.ConfID != d.SupID || up.LinkID != d.LinkID {
			return false, nil
		}
		uplink = up.UplinkID
		c.Superior = nil
		c.SetSuperiorCascade(0)
		return true, nil
	})
	if errors.Is(err, ErrConfNotFound) || uplink == "" {
		return nil
	}
	if err != nil {
		return err
	}
	sub := ConfOf(c)
	sub.MaxJoinMt = c.Ports()
	if err := e.Remove(ctx, sub, []string{uplink}); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}
