package vc

import (
	"context"
	"errors"
	"fmt"
	"github.com/confer-platform/confer/internal/api"
	"strings"

	"github.com/confer-platform/confer/internal/engine"
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

func isConfNotFound(err error) bool {
	return errors.Is(err, engine.ErrConfNotFound)
}

// mtEngineConf is the engine view of a conference with its terminal
// limit, as mtConf builds it.
func mtEngineConf(c engine.Conference) engine.Conf {
	ec := engine.ConfOf(c)
	ec.MaxJoinMt = c.Ports()
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
		p, err := engine.LocalPeers{Confs: m.confs}.Find(ctx, c.Rec.DomainMoid, mb.Callee.Account)
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

// cascadeLeave decides how the cascades of conference c keep up with
// terminals mtIDs (gone) leaving it: a leaving uplink terminal hangs up
// the superior's link; any other terminal that leaves also leaves the
// superior's features, under its cascaded mt_id (Effects.Leave, the
// engine asks onLeave for the superior in turn). A leaving link terminal
// dissolves its cascade (leave.links, Effects.Detach).
func cascadeLeave(c engine.Conference, mtIDs []string, gone leftSet, eff *engine.Effects) {
	supID, linkID, uplinkID := cascadeUp(c)
	if supID == "" {
		return
	}
	if uplinkID != "" && gone[uplinkID] {
		eff.Hangup = append(eff.Hangup, engine.Hangup{ConfID: supID, MtIDs: []string{linkID}})
		return
	}
	up := make([]string, 0, len(mtIDs))
	for _, id := range mtIDs {
		up = append(up, linkID+"."+id)
	}
	eff.Leave = append(eff.Leave, engine.Leave{ConfID: supID, MtIDs: up})
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
