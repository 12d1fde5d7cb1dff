package vc

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Cascades (reference 05 items 3, 4 and 7: "获取会议级联信息", "获取级联会议
// 终端列表", "批量添加级联终端"; issue 13). cascade_id "0" is the local
// conference; a subordinate's cascade_id is the path of link terminals
// that reach it ("4", then "4.2" below it), which is also its mt_id in
// the tree. The reference's example writes the same paths under the local
// "0" ("0.4", "0.4.2"); both forms are accepted. cascade_link.go keeps the
// links; the engine resolves the paths.

// LocalCascade is the cascade_id, and the mt_id in the cascade tree, of
// the local conference (reference 05 "获取会议级联信息" example).
const LocalCascade = "0"

// listCascades answers the tree: the local conference and, nested, every
// subordinate that a link terminal reaches.
func (m *Module) listCascades(ctx context.Context, r *api.Request) (*model.VCConfsCascadesListReply, error) {
	c, _, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	node, err := m.cascadeNode(ctx, c, "", 0)
	if err != nil {
		return nil, err
	}
	return cascadesReply(node), nil
}

// cascadeConf is one conference of the cascade tree: its cascade_id
// (path, "" for the root) and the subordinates its links reach.
type cascadeConf struct {
	ConfID, Name, Path string
	Subs               []cascadeConf
}

// cascadeNode reads the conference c of the tree with its subordinates,
// down to 16 levels; path is its cascade_id ("" for the root).
func (m *Module) cascadeNode(ctx context.Context, c engine.Conference, path string, depth int) (cascadeConf, error) {
	node := cascadeConf{ConfID: c.ID(), Name: c.Name(), Path: path}
	for _, l := range c.Links {
		if depth >= 16 {
			break
		}
		sub, err := m.confs.Get(ctx, c.Rec.DomainMoid, l.ConfID, engine.StateRunning)
		if isConfNotFound(err) {
			continue
		}
		if err != nil {
			return node, err
		}
		if supID, _, _ := cascadeUp(sub); supID != c.ID() {
			continue
		}
		id := l.LinkID
		if path != "" {
			id = path + "." + id
		}
		n, err := m.cascadeNode(ctx, sub, id, depth+1)
		if err != nil {
			return node, err
		}
		node.Subs = append(node.Subs, n)
	}
	return node, nil
}

// cascadesReply is the tree as the reply shows it: the root is the local
// conference, cascade_id and mt_id "0"; every node has its cascade_id as
// its mt_id. The schema types two levels below the root; deeper ones are
// nested the same way, each encoded as the second level's type.
func cascadesReply(root cascadeConf) *model.VCConfsCascadesListReply {
	out := &model.VCConfsCascadesListReply{ConfID: root.ConfID, Name: root.Name, CascadeID: LocalCascade, MtID: LocalCascade,
		Cascades: make([]model.VCConfsCascadesListReplyCascade, len(root.Subs))}
	for i, s := range root.Subs {
		e := model.VCConfsCascadesListReplyCascade{ConfID: s.ConfID, Name: s.Name, CascadeID: s.Path, MtID: s.Path,
			Cascades: make([]model.VCConfsCascadesListReplyCascadeCascade, len(s.Subs))}
		for j, ss := range s.Subs {
			e.Cascades[j] = cascadeDeep(ss)
		}
		out.Cascades[i] = e
	}
	return out
}

// cascadeDeep is a node from the second level below the root on.
func cascadeDeep(n cascadeConf) model.VCConfsCascadesListReplyCascadeCascade {
	out := model.VCConfsCascadesListReplyCascadeCascade{ConfID: n.ConfID, Name: n.Name, CascadeID: n.Path, MtID: n.Path,
		Cascades: make([]any, len(n.Subs))}
	for i, s := range n.Subs {
		d := cascadeDeep(s)
		out.Cascades[i] = d.Wire()
	}
	return out
}

// cascadeTarget finds the conference of a cascade_id below the running
// conference c (itself for "0"): 20436 when no online link reaches one.
func (m *Module) cascadeTarget(ctx context.Context, c engine.Conference, ec engine.Conf, cascadeID string) (engine.Conference, engine.Conf, error) {
	if cascadeID == LocalCascade || cascadeID == "" {
		return c, ec, nil
	}
	sub, err := m.engine.ResolveConf(ctx, ec, cascadeID)
	if errors.Is(err, engine.ErrNotFound) {
		return c, ec, wire.Errorf(CodeNoCascade, "conference %s has no cascade %s", c.ID(), cascadeID)
	}
	if err != nil {
		return c, ec, err
	}
	sc, err := m.confs.Get(ctx, c.Rec.DomainMoid, sub.ConfID, engine.StateRunning)
	if isConfNotFound(err) {
		return c, ec, wire.Errorf(CodeNoCascade, "conference %s has no cascade %s", c.ID(), cascadeID)
	}
	if err != nil {
		return c, ec, err
	}
	return sc, mtEngineConf(sc), nil
}

// listCascadeMts lists the terminals of a cascade: the local ones for
// "0"; a subordinate's, with mt_ids under its cascade_id ("4.1"), without
// the terminal that stands for the superior.
func (m *Module) listCascadeMts(ctx context.Context, r *api.Request) (*model.VCConfsCascadesMtsListReply, error) {
	id := r.Path("cascade_id")
	if id == LocalCascade {
		ts, err := m.localMts(ctx, r)
		if err != nil {
			return nil, err
		}
		return cascadeItems(ts), nil
	}
	c, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	_, sec, err := m.cascadeTarget(ctx, c, ec, id)
	if err != nil {
		return nil, err
	}
	ts, err := m.engine.List(ctx, sec)
	if err != nil {
		return nil, err
	}
	ts = engine.Prefixed(ts, strings.TrimPrefix(id, "0.")+".")
	return cascadeItems(ts), nil
}

// addCascadeMts adds terminals to a conference of the cascade, each called
// by that conference's call mode. The reply entries carry cascades_id,
// "the MCU index of the terminal's conference": 0 for the local one, the
// mt_id of the link that reaches a subordinate in its own superior (the
// last component of the cascade_id).
func (m *Module) addCascadeMts(ctx context.Context, r *api.Request) (*model.VCConfsCascadesMtsAddReply, error) {
	id := r.Path("cascade_id")
	added, err := m.mtAdd(ctx, r, id)
	if err != nil {
		return nil, err
	}
	idx := 0
	if id != LocalCascade {
		last := id[strings.LastIndexByte(id, '.')+1:]
		idx, _ = strconv.Atoi(last)
	}
	reply := &model.VCConfsCascadesMtsAddReply{Mts: make([]model.VCConfsCascadesMtsAddReplyMt, len(added))}
	for i, a := range added {
		reply.Mts[i] = model.VCConfsCascadesMtsAddReplyMt{Account: a.Account, AccountType: a.AccountType,
			Protocol: a.Protocol, MtID: a.MtID, CascadesID: idx}
	}
	return reply, nil
}

// cascadeTree returns the terminals of c's subordinates at every level
// with their cascaded mt_ids; nothing is read for a conference without
// links.
func (m *Module) cascadeTree(ctx context.Context, c engine.Conference) ([]engine.Terminal, error) {
	if len(c.Links) == 0 {
		return nil, nil
	}
	return m.engine.Tree(ctx, engine.ConfOf(c))
}
