package engine

import (
	"context"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Fair shares between user domains (issue 38 item 7: one ordinary account
// of one domain started 3 conferences of 192 ports and every other
// domain got 27506). With Config.DomainShare a percentage below 100, one
// user domain's running conferences may take at most that share of
// --max-confs (27505 beyond) and of --max-ports (27506 beyond), counted
// as Usage counts the platform's, so the rest stays for the others. The
// share applies only on a platform of more than one user domain
// (store.DomainCounter): a single tenant keeps the whole capacity.
// Terminals that join a conference on their own (Joined) count toward the
// domain's ports as they count toward the platform's.

// DefaultDomainShare is the share of a user domain, in percent of the
// platform's conferences and ports (conferd --domain-share).
const DefaultDomainShare = 50

// shareOf is a domain's part of limit: at least 1.
func (s *Conferences) shareOf(limit int) int {
	return max(1, limit*s.cfg.DomainShare/100)
}

// Sharing tells whether the domain share applies now: DomainShare is
// between 0 and 100 and the platform has more than one user domain.
func (s *Conferences) Sharing(ctx context.Context) (bool, error) { return s.sharing(ctx) }

// ShareOf is a user domain's share of limit (at least 1).
func (s *Conferences) ShareOf(limit int) int { return s.shareOf(limit) }

// RunningIDs returns the numbers of a user domain's running conferences.
func (s *Conferences) RunningIDs(ctx context.Context, domain string) ([]string, error) {
	var out []string
	if kl, ok := s.st.(store.KeyLister); ok {
		keys, err := kl.RecordKeys(ctx, record.KindConf, StateRunning)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if k.DomainMoid == domain {
				out = append(out, k.ID)
			}
		}
		return out, nil
	}
	recs, _, err := s.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, DomainMoid: domain, States: []string{StateRunning}})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out, nil
}

// sharing tells whether the domain share applies now.
func (s *Conferences) sharing(ctx context.Context) (bool, error) {
	if s.cfg.DomainShare <= 0 || s.cfg.DomainShare >= 100 {
		return false, nil
	}
	dc, ok := s.st.(store.DomainCounter)
	if !ok {
		return true, nil
	}
	n, err := dc.CountDomains(ctx)
	return n > 1, err
}

// overShare answers the capacity code when a domain's confs or ports
// exceed its share.
func (s *Conferences) overShare(ctx context.Context, confs, ports int) error {
	on, err := s.sharing(ctx)
	if err != nil || !on {
		return err
	}
	if limit := s.shareOf(s.cfg.MaxConfs); confs > limit {
		return failf(ErrMaxConfs, "the user domain's share of conferences (%d of %d, --domain-share %d%%) is reached", limit, s.cfg.MaxConfs, s.cfg.DomainShare)
	}
	if limit := s.shareOf(s.cfg.MaxPorts); ports > limit {
		return failf(ErrNoResource, "no idle conference resource for the user domain: %d terminal ports would be in use, its share is %d of %d (--domain-share %d%%)", ports, limit, s.cfg.MaxPorts, s.cfg.DomainShare)
	}
	return nil
}

// DomainPortsLeft returns how many more terminals of the user domain
// may join conference confID within the domain's share of the ports,
// counted as Usage counts them; ok is false when no share applies (share
// off, or confID holds preoccupied ports still free: its terminals take
// no new port). Joined and vc's POST .../mts check it.
func (s *Conferences) DomainPortsLeft(ctx context.Context, domain, confID string) (left int, ok bool, err error) {
	on, err := s.sharing(ctx)
	if err != nil || !on {
		return 0, false, err
	}
	confs, err := Scan(ctx, s.st, &s.ports, StateRunning, func(c Conference) confPorts {
		return confPorts{size: c.Ports(), preoccupy: c.PreoccupyResource() == 1}
	})
	if err != nil {
		return 0, false, err
	}
	inCall, err := s.inCall(ctx)
	if err != nil {
		return 0, false, err
	}
	used := 0
	for _, p := range confs {
		if p.Key.DomainMoid != domain {
			continue
		}
		n := inCall[p.Key.ID]
		if p.Val.preoccupy {
			if p.Key.ID == confID && n < p.Val.size {
				return 0, false, nil
			}
			n = max(n, p.Val.size)
		}
		used += n
	}
	return max(0, s.shareOf(s.cfg.MaxPorts)-used), true, nil
}
