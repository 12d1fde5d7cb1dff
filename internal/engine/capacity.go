package engine

import (
	"context"
	"strings"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Usage is what running conferences take, across every domain: capacity
// is the platform's.
type Usage struct {
	Confs    int                  // running conferences
	Ports    int                  // terminal ports they take (see Usage)
	BySize   map[int]int          // running conferences by max_join_mt
	ByDomain map[string]DomainUse // the same by user domain moid
}

// DomainUse is what one user domain's running conferences take.
type DomainUse struct {
	Confs, Ports int
}

// confPorts is what Usage keeps of a running conference: its size and
// whether it takes its ports from the start.
type confPorts struct {
	size      int
	preoccupy bool
}

// Usage counts the running conferences and their terminal ports (issue 38
// item 7; reference 04 preoccupy_resource): a conference with
// preoccupy_resource 1 takes its max_join_mt ports from the start, or as
// many as it has terminals in a call when more; any other takes a port
// per terminal in a call (calling or online), as they join. Each
// conference's size is kept by record version (memo.go), so a count reads
// the documents of changed conferences only, and the terminals' keys.
func (s *Conferences) Usage(ctx context.Context) (Usage, error) {
	confs, err := Scan(ctx, s.st, &s.ports, StateRunning, func(c Conference) confPorts {
		return confPorts{size: c.Ports(), preoccupy: c.PreoccupyResource() == 1}
	})
	if err != nil {
		return Usage{}, err
	}
	inCall, err := s.inCall(ctx)
	if err != nil {
		return Usage{}, err
	}
	u := Usage{BySize: map[int]int{}, ByDomain: map[string]DomainUse{}}
	for _, p := range confs {
		u.Confs++
		n := inCall[p.Key.ID]
		if p.Val.preoccupy {
			n = max(n, p.Val.size)
		}
		u.Ports += n
		u.BySize[p.Val.size]++
		d := u.ByDomain[p.Key.DomainMoid]
		d.Confs++
		d.Ports += n
		u.ByDomain[p.Key.DomainMoid] = d
	}
	return u, nil
}

// inCall counts the terminals in a call (calling or online) by
// conference number, from their record keys (conf_id/mt_id) where the
// store lists keys.
func (s *Conferences) inCall(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	states := []string{StateOnline, StateCalling}
	if kl, ok := s.st.(store.KeyLister); ok {
		for _, state := range states {
			keys, err := kl.RecordKeys(ctx, record.KindMT, state)
			if err != nil {
				return nil, err
			}
			for _, k := range keys {
				conf, _, _ := strings.Cut(k.ID, "/")
				out[conf]++
			}
		}
		return out, nil
	}
	recs, _, err := s.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, States: states})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		out[r.OwnerMoid]++
	}
	return out, nil
}

// Free returns how many more conferences of size ports could start now.
func (s *Conferences) Free(u Usage, ports int) int {
	byConfs := s.cfg.MaxConfs - u.Confs
	byPorts := (s.cfg.MaxPorts - u.Ports) / ports
	return max(0, min(byConfs, byPorts))
}

// admit checks that one more conference of domain, taking ports from
// the start, fits: in the platform, and in the domain's share of it.
func (s *Conferences) admit(ctx context.Context, domain string, ports int) error {
	u, err := s.Usage(ctx)
	if err != nil {
		return err
	}
	if err := s.over(u.Confs+1, u.Ports+ports); err != nil {
		return err
	}
	d := u.ByDomain[domain]
	return s.overShare(ctx, d.Confs+1, d.Ports+ports)
}

// over answers the capacity code when confs or ports exceed the limits.
func (s *Conferences) over(confs, ports int) error {
	if confs > s.cfg.MaxConfs {
		return failf(ErrMaxConfs, "the maximum number of conferences (%d) is reached", s.cfg.MaxConfs)
	}
	if ports > s.cfg.MaxPorts {
		return failf(ErrNoResource, "no idle conference resource: %d of %d terminal ports would be in use", ports, s.cfg.MaxPorts)
	}
	return nil
}

// recheck runs after a conference became running: when several nodes
// admitted conferences at once, the running set may exceed the limits,
// and the change just made must be undone. Whichever of two racing
// changes counts last sees both, so the limits never stay exceeded.
func (s *Conferences) recheck(ctx context.Context, domain string) error {
	u, err := s.Usage(ctx)
	if err != nil {
		return err
	}
	if err := s.over(u.Confs, u.Ports); err != nil {
		return err
	}
	d := u.ByDomain[domain]
	return s.overShare(ctx, d.Confs, d.Ports)
}
