package mc

import (
	"context"
	"fmt"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Resource usage and platforms (reference 04 "获取资源占用情况",
// "获取当前用户域可以使用的会议平台").

// resourceSizes are the conference sizes (max_join_mt) of reference 04.
var resourceSizes = []int{8, 32, 64, 192}

// listResources reports the platform's capacity with resource_type 1
// (limited by participants only): one entry per conference size, with
// used the running conferences of that size and total used plus the
// conferences of that size that could still start now (the sizes share
// the conference count and terminal ports of engine.Config).
func (m *Module) listResources(ctx context.Context, r *api.Request) (*type1Resources, error) {
	u, err := m.confs.Usage(ctx)
	if err != nil {
		return nil, err
	}
	out := &type1Resources{model.MCResourcesListReply{ResourceType: 1, Resources: make([]model.MCResourcesListReplyResource, 0, len(resourceSizes))}}
	for _, size := range resourceSizes {
		used := u.BySize[size]
		out.Resources = append(out.Resources, model.MCResourcesListReplyResource{
			Name:      fmt.Sprintf("%d-party conference", size),
			MaxJoinMt: size,
			Total:     used + m.confs.Free(u, size),
			Used:      used,
		})
	}
	return out, nil
}

// type1Resources is the reply of resource_type 1. resolution is a member
// only when resource_type is 2 (reference 04): a type 1 entry has none,
// and the generated entry always writes it (its member is a plain int),
// so the reply's Wire leaves it out of each entry; the one wire object
// mc's handlers still touch.
type type1Resources struct{ model.MCResourcesListReply }

// Wire is the generated reply's object without each entry's resolution.
func (p *type1Resources) Wire() wire.Object {
	o := p.MCResourcesListReply.Wire()
	for _, e := range o["resources"].([]any) {
		delete(e.(wire.Object), "resolution")
	}
	return o
}

// listPlatforms lists Confer's one conference platform, a private cloud.
func (m *Module) listPlatforms(ctx context.Context, r *api.Request) (*model.MCPlatformsListReply, error) {
	return &model.MCPlatformsListReply{Platforms: []model.MCPlatformsListReplyPlatform{
		{Name: "private cloud", PlatformID: engine.PlatformID, Type: 1},
	}}, nil
}
