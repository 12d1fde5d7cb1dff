package vc

import (
	"context"
	"strconv"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/conference"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// The running conferences of the caller's domain (reference 05
// "获取视频会议列表", "获取视频会议信息"). Booked conferences appear once
// they start; ended ones are gone.
func init() {
	registrars = append(registrars, func(m *Module, reg api.Registry) {
		reg.Handle("vc.confs.list", m.listConfs)
		reg.Handle("vc.confs.get", m.getConf)
	})
}

// listConfs pages through the running conferences ordered by start time
// (start default 0; count default 10, 0 for all); own_conf=1 keeps those
// the caller created.
func (m *Module) listConfs(ctx context.Context, r *api.Request) (wire.Object, error) {
	q := r.Args.Query
	owner := ""
	if q.Get("own_conf") == "1" {
		owner = r.Principal.AccountMoid
	}
	confs, err := m.confs.List(ctx, r.Principal.DomainMoid, owner, conference.StateRunning)
	if err != nil {
		return nil, err
	}
	start, count := 0, 10
	if v := q.Get("start"); v != "" {
		start, _ = strconv.Atoi(v)
	}
	if v := q.Get("count"); v != "" {
		count, _ = strconv.Atoi(v)
	}
	total := len(confs)
	confs = confs[min(max(start, 0), total):]
	if count > 0 && count < len(confs) {
		confs = confs[:count]
	}
	fields := shape.Elem(r.Endpoint.Reply, "confs")
	out := make([]any, len(confs))
	for i, c := range confs {
		out[i] = shape.Project(c.Doc, fields)
	}
	return wire.Object{"total": total, "confs": out}, nil
}

// getConf shows one running conference of the caller's domain; 12103 for
// any other.
func (m *Module) getConf(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, err := m.confs.Get(ctx, r.Principal.DomainMoid, r.Path("conf_id"), conference.StateRunning)
	if err != nil {
		return nil, err
	}
	return shape.Project(c.Doc, r.Endpoint.Reply), nil
}
