package vc

import (
	"context"
	"errors"
	"fmt"
	"github.com/confer-platform/confer/internal/api"
	"strings"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Cascade links (issue 13): a terminal whose account is the number of a
// live conference of the same user domain links the two when its call is
// answered. The engine resolves cascaded mt_ids ("4.1") through the
// links (internal/engine/cascade.go) and establishes a link under
// linkRule (internal/engine/cascade_link.go); the conferences' documents
// are kept in step:
//
//   - the superior's document lists its links (engine.Conference.Links,
//     the member cascade_links)
//     ({mt_id, conf_id}) and sets subordinate_cascade (reference 05 vc
//     info "是否有下级级联会议室");
//   - the subordinate's document names its superior (Superior, the
//     member cascade_up)
//     ({conf_id, mt_id of the link, uplink_mt_id of its own terminal of
//     type 8 standing for the superior}) and sets superior_cascade.
//
// A link ends when its terminal leaves the superior's call (hung up,
// removed, or its conference ended) or the subordinate's uplink terminal
// is removed, or when either conference ends; then both documents are
// cleared and the superior's roles, compositions, polls and other
// features drop every terminal of the subordinate (leftSet).

// peers finds this platform's conferences for the engine (engine.Peers).
type peers struct{ m *Module }

// Find: a running or booked conference of the domain with that number,
// or a number in the platform's conference number range, is a
// conference number; only a running one is live. A conference of another
// user domain is no conference of the caller's (never linked: no user
// sees another domain's terminals).
func (p peers) Find(ctx context.Context, domainMoid, account string) (engine.Peer, error) {
	if !isNumber(account) {
		return engine.Peer{}, engine.ErrNoPeer
	}
	c, err := p.m.confs.Get(ctx, domainMoid, account, engine.StateRunning)
	if err == nil {
		return engine.Peer{Conf: engine.ConfOf(c), Name: record.Str(c.Doc, "name"), Live: true}, nil
	}
	if !isConfNotFound(err) {
		return engine.Peer{}, err
	}
	cfg := p.m.confs.Config()
	if n, ok := number(account); ok && n >= cfg.NumberMin && n <= cfg.NumberMax {
		return engine.Peer{Conf: engine.Conf{DomainMoid: domainMoid, ConfID: account}}, nil
	}
	return engine.Peer{}, engine.ErrNoPeer
}

// Conf returns a running conference's engine view.
func (p peers) Conf(ctx context.Context, domainMoid, confID string) (engine.Conf, bool, error) {
	c, err := p.m.confs.Get(ctx, domainMoid, confID, engine.StateRunning)
	if isConfNotFound(err) {
		return engine.Conf{}, false, nil
	}
	if err != nil {
		return engine.Conf{}, false, err
	}
	return mtEngineConf(c), true, nil
}

func isConfNotFound(err error) bool {
	return errors.Is(err, engine.ErrConfNotFound)
}

func isNumber(s string) bool {
	_, ok := number(s)
	return ok
}

func number(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int64(r-'0')
	}
	return n, true
}

// mtEngineConf is the engine view of a conference with its terminal
// limit, as mtConf builds it.
func mtEngineConf(c engine.Conference) engine.Conf {
	ec := engine.ConfOf(c)
	ec.MaxJoinMt = engine.Ports(c.Doc)
	return ec
}

// cascadeUp reads a conference's superior: its conf_id, the link's mt_id
// there and the uplink terminal's mt_id here ("" when it has none).
func cascadeUp(c engine.Conference) (confID, linkID, uplinkID string) {
	if up := c.Superior; up != nil {
		return up.ConfID, up.LinkID, up.UplinkID
	}
	return "", "", ""
}

// cascadeCheck refuses, before anything is added, members that would
// link the conference c into a loop (itself or a conference above it:
// 20109) or to a conference that already has a superior or is linked
// twice (20166).
func (m *Module) cascadeCheck(ctx context.Context, c engine.Conference, members []engine.Member) error {
	seen := map[string]bool{}
	for i, mb := range members {
		p, err := peers{m}.Find(ctx, c.Rec.DomainMoid, mb.Callee.Account)
		if errors.Is(err, engine.ErrNoPeer) {
			continue
		}
		if err != nil {
			return err
		}
		if !p.Live {
			continue
		}
		field := fmt.Sprintf("mts[%d].account", i)
		if err := m.linkAllowed(ctx, c.Rec.DomainMoid, c.ID(), "", p.Conf.ConfID); err != nil {
			var we *wire.Error
			if !errors.As(api.Failure(err), &we) {
				return err
			}
			return wire.Errorf(we.Code, "%s: %s", field, we.Desc)
		}
		if seen[p.Conf.ConfID] {
			return wire.Errorf(CodeCascadeTaken, "%s: conference %s is named twice", field, p.Conf.ConfID)
		}
		seen[p.Conf.ConfID] = true
		for _, l := range c.Links {
			if l.ConfID == p.Conf.ConfID {
				return wire.Errorf(CodeCascadeTaken, "%s: conference %s is already a subordinate of conference %s", field, p.Conf.ConfID, c.ID())
			}
		}
	}
	return nil
}

// linkAllowed tells whether conference supID may call subID through its
// link linkID ("" before the link exists): linkRule over the superiors
// read from supID up.
func (m *Module) linkAllowed(ctx context.Context, domain, supID, linkID, subID string) error {
	var chain []engine.Conference
	up := supID
	for depth := 0; up != "" && depth < 32; depth++ {
		c, err := m.confs.Get(ctx, domain, up, engine.StateRunning)
		if isConfNotFound(err) {
			break
		}
		if err != nil {
			return err
		}
		chain = append(chain, c)
		up, _, _ = cascadeUp(c)
	}
	sub, err := m.confs.Get(ctx, domain, subID, engine.StateRunning)
	if err != nil {
		return err
	}
	return linkRule(supID, chain, sub, linkID)
}

// linkRule tells whether conference supID, whose chain is itself and the
// conferences above it (nearest first), may call sub through its link
// linkID ("" before the link exists): never itself or a conference above
// it, never a conference that has another superior (engine.Features.Link).
func linkRule(supID string, chain []engine.Conference, sub engine.Conference, linkID string) error {
	subID := sub.ID()
	if subID == supID {
		return wire.Errorf(CodeCascadeSuperior, "conference %s cannot cascade to itself", supID)
	}
	for _, c := range chain {
		if up, _, _ := cascadeUp(c); up == subID {
			return wire.Errorf(CodeCascadeSuperior, "conference %s is above conference %s in its cascade: a link would make a loop", subID, supID)
		}
	}
	if have, link, _ := cascadeUp(sub); have != "" && (have != supID || linkID == "" || link != linkID) {
		return wire.Errorf(CodeCascadeTaken, "conference %s already has the superior conference %s", subID, have)
	}
	return nil
}

// cascadeLeave keeps the links when terminals leave conference ec: a
// leaving link terminal dissolves its cascade; a leaving uplink terminal
// hangs up the superior's link; any other terminal that leaves also
// leaves the superiors' features, under its cascaded mt_id.
func (m *Module) cascadeLeave(ctx context.Context, ec engine.Conf, mtIDs []string) error {
	c, err := m.confs.Get(ctx, ec.DomainMoid, ec.ConfID, engine.StateRunning)
	if isConfNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	gone := map[string]bool{}
	for _, id := range mtIDs {
		gone[id] = true
	}
	var errs []error
	for _, l := range c.Links {
		if gone[l.LinkID] {
			errs = append(errs, m.unlink(ctx, ec, l.LinkID, l.ConfID))
		}
	}
	supID, linkID, uplinkID := cascadeUp(c)
	if supID == "" {
		return errors.Join(errs...)
	}
	sup, ok, err := peers{m}.Conf(ctx, ec.DomainMoid, supID)
	if err != nil || !ok {
		return errors.Join(append(errs, err)...)
	}
	if uplinkID != "" && gone[uplinkID] {
		err := m.engine.Hangup(ctx, sup, []string{linkID})
		if errors.Is(err, engine.ErrNotFound) {
			err = nil
		}
		return errors.Join(append(errs, err)...)
	}
	up := make([]string, 0, len(mtIDs))
	for _, id := range mtIDs {
		up = append(up, linkID+"."+id)
	}
	errs = append(errs, m.featuresLeave(ctx, sup, up), m.cascadeLeave(ctx, sup, up))
	return errors.Join(errs...)
}

// unlink dissolves the cascade of the superior sup's link linkID to the
// conference subID: the superior forgets the link, the subordinate its
// superior and its uplink terminal.
func (m *Module) unlink(ctx context.Context, sup engine.Conf, linkID, subID string) error {
	_, err := m.tlUpdate(ctx, sup.DomainMoid, sup.ConfID, func(c *engine.Conference) (bool, error) {
		kept := make([]engine.CascadeLink, 0, len(c.Links))
		for _, l := range c.Links {
			if l.LinkID != linkID {
				kept = append(kept, l)
			}
		}
		if len(kept) == len(c.Links) {
			return false, nil
		}
		c.Links = kept
		c.Doc["subordinate_cascade"] = flagOf(len(kept) > 0)
		return true, nil
	})
	if err != nil && !isConfNotFound(err) {
		return err
	}
	return m.engine.Detach(ctx, sup.DomainMoid, engine.Detach{SubID: subID, SupID: sup.ConfID, LinkID: linkID})
}

// cascadeEnded decides how the cascades of a conference that ended are
// dissolved: its superior's link is hung up, its subordinates go on alone.
// The engine applies it (engine.Features.Ended), after the terminals are
// gone.
func cascadeEnded(c engine.Conference) engine.Effects {
	var eff engine.Effects
	if supID, linkID, _ := cascadeUp(c); supID != "" {
		eff.Hangup = []engine.Hangup{{ConfID: supID, MtIDs: []string{linkID}}}
	}
	for _, l := range c.Links {
		eff.Detach = append(eff.Detach, engine.Detach{SubID: l.ConfID, SupID: c.ID(), LinkID: l.LinkID})
	}
	return eff
}

func flagOf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// leftSet is the set of terminals leaving a conference. A link terminal
// that leaves takes its subordinate's terminals with it: has("4.1") holds
// when "4" left.
type leftSet map[string]bool

func (s leftSet) has(id string) bool {
	if s[id] {
		return true
	}
	for i := strings.IndexByte(id, '.'); i > 0; i = nextDot(id, i) {
		if s[id[:i]] {
			return true
		}
	}
	return false
}

func nextDot(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
