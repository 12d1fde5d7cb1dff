package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/wire"
)

// Cascades (reference 05 items 3, 4 and 7: "获取会议级联信息", "获取级联会议
// 终端列表", "批量添加级联终端"; cascade_id "0" is the local conference).
// Until conferences cascade (issue 13) a conference's tree is the local
// conference alone, so the cascade endpoints serve the local terminals
// for cascade_id "0" and answer 20436 (A3 "指定MCU未与会", the MCU named
// is not in the conference) for any other.
func init() {
	registrars = append(registrars, func(m *Module, reg api.Registry) {
		reg.Handle("vc.confs.cascades.list", m.listCascades)
		reg.Handle("vc.confs.cascades.mts.list", m.listCascadeMts)
		reg.Handle("vc.confs.cascades.mts.add", m.addCascadeMts)
	})
}

// LocalCascade is the cascade_id, and the mt_id in the cascade tree, of
// the local conference (reference 05 "获取会议级联信息" example).
const LocalCascade = "0"

// CodeNoCascade is A3 "指定MCU未与会": no cascade of that id.
const CodeNoCascade = 20436

// listCascades answers the tree: the local conference, no subordinates.
func (m *Module) listCascades(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, _, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	name, _ := c.Doc["name"].(string)
	return wire.Object{"conf_id": c.ID(), "name": name, "cascade_id": LocalCascade, "mt_id": LocalCascade,
		"cascades": []any{}}, nil
}

// cascade checks the cascade_id of the path after the conference.
func (m *Module) cascade(ctx context.Context, r *api.Request) error {
	if _, _, err := m.mtConf(ctx, r); err != nil {
		return err
	}
	if id := r.Path("cascade_id"); id != LocalCascade {
		return wire.Errorf(CodeNoCascade, "conference %s has no cascade %s", r.Path("conf_id"), id)
	}
	return nil
}

// listCascadeMts lists the terminals of the cascade: the local ones.
func (m *Module) listCascadeMts(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.cascade(ctx, r); err != nil {
		return nil, err
	}
	return m.listMts(ctx, r)
}

// addCascadeMts adds terminals to the cascade: the local conference, each
// called by the conference's call mode. The reply entries carry
// cascades_id 0, the local MCU.
func (m *Module) addCascadeMts(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.cascade(ctx, r); err != nil {
		return nil, err
	}
	added, err := m.mtAdd(ctx, r)
	if err != nil {
		return nil, err
	}
	for _, a := range added {
		a["cascades_id"] = 0
	}
	return mtAddReply(r, added), nil
}
