package nms

import (
	"context"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// Servers (reference 06 "请求指定平台域下的物理服务器设备列表" to "请求指定媒体
// 资源服务器上报的端口资源信息", "请求平台域端口资源统计信息"). A physical server
// is a conferd node (type CONFERD) with the figures it last reported; it
// is offline once it has been silent for three report intervals. Its
// logical servers are the services it runs: API, ENGINE, MEDIA (the media
// backend) and PUSH. The media resource of a node is its MEDIA service:
// every node admits conferences against the one configured capacity, so
// each reports the platform's ports (max-ports) and those that running
// conferences take now.

// NodeType is the type of a conferd node as a physical server.
const NodeType = "CONFERD"

// physical is a node as the physical-server replies show it; levels maps
// device moids to their highest alarm level.
func (m *Module) physical(n node.Node, levels map[string]string) map[string]any {
	now := m.clk.Now()
	out := shape.Merge(map[string]any{}, n.Doc)
	out["domain_moid"], out["domain_name"], out["type"], out["card_pos"] = PlatformMoid, PlatformName, NodeType, ""
	online := n.Online(now)
	out["online"] = onlineText(online)
	for _, k := range []string{"cpu", "memory", "disk", "portin", "portout"} {
		v := record.Int(n.Doc, k)
		switch {
		case !online || (k == "disk" && v < 0):
			out[k] = ""
		default:
			out[k] = strconv.Itoa(v)
		}
	}
	level := levels[n.Moid()]
	for _, s := range n.Services() {
		level = higher(level, levels[node.ServiceMoid(n.Moid(), s)])
	}
	out["warning_level"] = level
	return out
}

func onlineText(b bool) string {
	if b {
		return "online"
	}
	return "offline"
}

// logical is a service of a node as the logical-server replies show it.
func (m *Module) logical(n node.Node, service string, levels map[string]string) map[string]any {
	moid := node.ServiceMoid(n.Moid(), service)
	return map[string]any{
		"moid": moid, "guid": node.GUID(moid), "machine_room_moid": n.Doc["machine_room_moid"], "p_server_moid": n.Moid(),
		"domain_moid": PlatformMoid, "name": service, "type": strings.ToUpper(service), "backup_state": "",
		"ip": n.Doc["ip"], "warning_level": levels[moid], "online": onlineText(n.Online(m.clk.Now())),
	}
}

// nodes returns the registered nodes and the alarm level of every device.
func (m *Module) nodes(ctx context.Context) ([]node.Node, map[string]string, error) {
	ns, err := m.node.Nodes(ctx)
	if err != nil {
		return nil, nil, err
	}
	as, err := m.alarms(ctx)
	if err != nil {
		return nil, nil, err
	}
	levels := map[string]string{}
	for _, a := range as {
		d := record.Str(a, "device_moid")
		levels[d] = higher(levels[d], record.Str(a, "warning_level"))
	}
	return ns, levels, nil
}

// nodeOf finds a node by moid (22008 otherwise).
func (m *Module) nodeOf(ctx context.Context, moid string) (node.Node, map[string]string, error) {
	ns, levels, err := m.nodes(ctx)
	if err != nil {
		return node.Node{}, nil, err
	}
	for _, n := range ns {
		if n.Moid() == moid {
			return n, levels, nil
		}
	}
	return node.Node{}, nil, wire.Errorf(CodeNoDevice, "server %s does not exist", moid)
}

func (m *Module) physicals(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	if err := platformDomain(r); err != nil {
		return nil, err
	}
	ns, levels, err := m.nodes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(ns))
	for _, n := range ns {
		out = append(out, m.physical(n, levels))
	}
	return shape.Project(map[string]any{"physicals": out}, r.Endpoint.Reply), nil
}

func (m *Module) physicalDetail(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	n, levels, err := m.nodeOf(ctx, r.Path("p_server_moid"))
	if err != nil {
		return nil, err
	}
	return shape.Project(m.physical(n, levels), r.Endpoint.Reply), nil
}

func (m *Module) logicalsOf(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	n, levels, err := m.nodeOf(ctx, r.Path("p_server_moid"))
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, s := range n.Services() {
		out = append(out, m.logical(n, s, levels))
	}
	return shape.Project(map[string]any{"logicals": out}, r.Endpoint.Reply), nil
}

func (m *Module) logicals(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	if err := platformDomain(r); err != nil {
		return nil, err
	}
	ns, levels, err := m.nodes(ctx)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, n := range ns {
		for _, s := range n.Services() {
			out = append(out, m.logical(n, s, levels))
		}
	}
	return shape.Project(map[string]any{"logicals": out}, r.Endpoint.Reply), nil
}

// ports returns the platform's terminal ports and those in use.
func (m *Module) ports(ctx context.Context) (total, used int, err error) {
	u, err := m.confs.Usage(ctx)
	if err != nil {
		return 0, 0, err
	}
	return m.confs.Config().MaxPorts, u.Ports, nil
}

// portInfo answers the ports of a node's media service.
func (m *Module) portInfo(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	ns, err := m.node.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	moid := r.Path("mediaresource_moid")
	for _, n := range ns {
		if node.ServiceMoid(n.Moid(), "media") == moid {
			total, used, err := m.ports(ctx)
			if err != nil {
				return nil, err
			}
			reply := model.NMSMediaresourcesPortinfoGetReply{TotalPort: total, UsedPort: used}
			return reply.Wire(), nil
		}
	}
	return nil, wire.Errorf(CodeNoDevice, "media resource %s does not exist", moid)
}

func (m *Module) mediaResources(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	if err := platformDomain(r); err != nil {
		return nil, err
	}
	total, used, err := m.ports(ctx)
	if err != nil {
		return nil, err
	}
	reply := model.NMSPlatformDomainsMediaresourcesGetReply{TotalPort: total, UsedPort: used}
	return reply.Wire(), nil
}
