package engine

import (
	"context"

	"github.com/confer-platform/confer/internal/wire"
)

// Capacity codes of reference A3: 27505 the maximum number of conferences
// is reached, 27506 no idle conference resource (seed 000 "Errors").
const (
	CodeMaxConfs   = 27505
	CodeNoResource = wire.CodeNoConfResource
	CodeNumberUsed = 20106 // 会议号重复: the number a template or room binds is in use
)

// Usage is what running conferences take, across every domain: capacity
// is the platform's.
type Usage struct {
	Confs  int         // running conferences
	Ports  int         // terminal ports they take (max_join_mt each)
	BySize map[int]int // running conferences by max_join_mt
}

// Usage counts the running conferences.
// Each conference's ports are kept by record version (memo.go), so a
// count reads the documents of changed conferences only.
func (s *Conferences) Usage(ctx context.Context) (Usage, error) {
	ports, err := Scan(ctx, s.st, &s.ports, StateRunning, func(c Conference) int { return Ports(c.Doc) })
	if err != nil {
		return Usage{}, err
	}
	u := Usage{BySize: map[int]int{}}
	for _, p := range ports {
		u.Confs++
		u.Ports += p.Val
		u.BySize[p.Val]++
	}
	return u, nil
}

// Free returns how many more conferences of size ports could start now.
func (s *Conferences) Free(u Usage, ports int) int {
	byConfs := s.cfg.MaxConfs - u.Confs
	byPorts := (s.cfg.MaxPorts - u.Ports) / ports
	return max(0, min(byConfs, byPorts))
}

// admit checks that one more conference of size ports fits.
func (s *Conferences) admit(ctx context.Context, ports int) error {
	u, err := s.Usage(ctx)
	if err != nil {
		return err
	}
	return s.over(u.Confs+1, u.Ports+ports)
}

// over answers the capacity code when confs or ports exceed the limits.
func (s *Conferences) over(confs, ports int) error {
	if confs > s.cfg.MaxConfs {
		return wire.Errorf(CodeMaxConfs, "the maximum number of conferences (%d) is reached", s.cfg.MaxConfs)
	}
	if ports > s.cfg.MaxPorts {
		return wire.Errorf(CodeNoResource, "no idle conference resource: %d of %d terminal ports would be in use", ports, s.cfg.MaxPorts)
	}
	return nil
}

// recheck runs after a conference became running: when several nodes
// admitted conferences at once, the running set may exceed the limits,
// and the change just made must be undone. Whichever of two racing
// changes counts last sees both, so the limits never stay exceeded.
func (s *Conferences) recheck(ctx context.Context) error {
	u, err := s.Usage(ctx)
	if err != nil {
		return err
	}
	return s.over(u.Confs, u.Ports)
}
