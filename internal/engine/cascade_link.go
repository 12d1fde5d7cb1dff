package engine

import (
	"context"
	"errors"
	"fmt"
)

// A link terminal that answers establishes its cascade here, from
// conference control's rule (Features.Link): the subordinate is claimed
// first (a conditional write, so that of two superiors calling it at once
// one wins), then it gains the uplink terminal, then the superior lists
// the link.

// maxChain bounds the superiors read above a conference (a loop check).
const maxChain = 32

// establish links the running conference sup, through its link terminal
// linkID, to the subordinate of p.
func (e *Engine) establish(ctx context.Context, sup Conf, linkID string, p Peer) error {
	subID := p.Conf.ConfID
	supConf, err := e.confs.Get(ctx, sup.DomainMoid, sup.ConfID, StateRunning)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	chain := []Conference{supConf}
	for up := supConf.Superior; up != nil && up.ConfID != "" && len(chain) < maxChain; {
		c, err := e.confs.Get(ctx, sup.DomainMoid, up.ConfID, StateRunning)
		if errors.Is(err, ErrConfNotFound) {
			break
		}
		if err != nil {
			return err
		}
		chain = append(chain, c)
		up = c.Superior
	}
	sub, err := e.confs.Get(ctx, sup.DomainMoid, subID, StateRunning)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	if err := e.features.Link(ctx, chain, sub, linkID); err != nil {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	subConf := Conf{DomainMoid: sup.DomainMoid, ConfID: subID}
	already := false
	_, err = e.changeConf(ctx, subConf, func(_ context.Context, c *Conference) (bool, error) {
		switch up := c.Superior; {
		case up != nil && up.ConfID == sup.ConfID && up.LinkID == linkID:
			already = true
			return false, nil
		case up != nil && up.ConfID != "":
			return false, fmt.Errorf("%w: conference %s already has the superior conference %s", ErrRefused, subID, up.ConfID)
		}
		c.Superior = &Superior{ConfID: sup.ConfID, LinkID: linkID}
		c.SetSuperiorCascade(1)
		return true, nil
	})
	if errors.Is(err, ErrConfNotFound) {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	if err != nil {
		return err
	}
	if !already {
		uplink, err := e.AddUplink(ctx, p.Conf, sup, supConf.Name())
		if err != nil {
			return err
		}
		_, err = e.changeConf(ctx, subConf, func(_ context.Context, c *Conference) (bool, error) {
			if up := c.Superior; up == nil || up.ConfID != sup.ConfID || up.LinkID != linkID {
				return false, nil
			}
			c.Superior = &Superior{ConfID: sup.ConfID, LinkID: linkID, UplinkID: uplink.MtID()}
			return true, nil
		})
		if err != nil && !errors.Is(err, ErrConfNotFound) {
			return err
		}
	}
	_, err = e.changeConf(ctx, sup, func(_ context.Context, c *Conference) (bool, error) {
		for _, l := range c.Links {
			if l.LinkID == linkID {
				return false, nil
			}
		}
		c.Links = append(c.Links, CascadeLink{LinkID: linkID, ConfID: subID})
		c.SetSubordinateCascade(1)
		return true, nil
	})
	if errors.Is(err, ErrConfNotFound) {
		return fmt.Errorf("%w: %w", ErrRefused, err)
	}
	return err
}
