package vc

import (
	"context"
	"errors"
	"strconv"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/compat"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// The running conferences of the caller's domain (reference 05
// "获取视频会议列表", "获取视频会议信息"). Booked conferences appear once
// they start; ended ones are gone.

// listConfs pages through the running conferences ordered by start time
// (start default 0; count default 10, 0 for all); own_conf=1 keeps those
// the caller created. The page is read in SQL (engine.Service.Page)
// and each conference's reply item is kept encoded by version and the
// caller's release (compat.Items), so a list decodes and encodes only
// what changed; the reply is written as bytes (confs_cache.go), the same
// bytes as the envelope of listConfsObject (confs_cache_test.go).
func (m *Module) listConfs(ctx context.Context, r *api.Request, lc *listCache) error {
	owner, start, count, err := listArgs(r)
	if err != nil {
		return err
	}
	keys, total, err := m.confs.Page(ctx, r.Principal.DomainMoid, owner, engine.StateRunning, start, count)
	if err != nil {
		return err
	}
	fields := shape.Elem(r.Endpoint.Reply, "confs")
	items := make([][]byte, 0, len(keys))
	refs := make([]compat.Ref, 0, len(keys))
	size := 0
	for _, k := range keys {
		b, ok := lc.items.Get(r, k.ID, k.Version)
		if !ok {
			c, err := m.confs.Get(ctx, r.Principal.DomainMoid, k.ID, engine.StateRunning)
			if err != nil && errors.Is(err, engine.ErrConfNotFound) {
				continue // ended between the page and this read
			}
			if err != nil {
				return err
			}
			if b, err = lc.items.Put(r, k.ID, c.Rec.Version, shape.Project(c.Document(), fields)); err != nil {
				return err
			}
			k.Version = c.Rec.Version
		}
		items = append(items, b)
		refs = append(refs, compat.Ref{ID: k.ID, Version: k.Version})
		size += len(b) + 1
	}
	page := r.Principal.DomainMoid + "\x00" + owner + "\x00" + strconv.Itoa(start) + "\x00" + strconv.Itoa(count)
	r.Raw = lc.body(r, page, refs, items, size, total)
	return nil
}

// listArgs reads own_conf, start (default 0) and count (default 10; 0:
// all).
func listArgs(r *api.Request) (owner string, start, count int, err error) {
	var q model.VCConfsListRequest
	if err := q.Decode(r.Args); err != nil {
		return "", 0, 0, err
	}
	if q.OwnConf.Or(0) == 1 {
		owner = r.Principal.AccountMoid
	}
	return owner, q.Start.Or(0), q.Count.Or(10), nil
}

// getConf shows one running conference of the caller's domain; 12103 for
// any other.
func (m *Module) getConf(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, err := m.confs.Get(ctx, r.Principal.DomainMoid, r.Path("conf_id"), engine.StateRunning)
	if err != nil {
		return nil, err
	}
	return shape.Project(c.Document(), r.Endpoint.Reply), nil
}
