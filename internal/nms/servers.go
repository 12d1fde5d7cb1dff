package nms

import (
	"context"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/nms/node"
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

// physical is a node as the physical-server replies show it (the detail
// has every member of a list's entry); levels maps device moids to their
// highest alarm level.
func (m *Module) physical(n node.Node, levels map[string]string) model.NMSPhysicalsDetailGetReply {
	d := n.Doc
	out := model.NMSPhysicalsDetailGetReply{Moid: d.Moid, Guid: d.GUID, DomainName: PlatformName, MachineRoomMoid: d.MachineRoomMoid,
		MachineRoomName: d.MachineRoomName, DomainMoid: PlatformMoid, Name: d.Name, Type: NodeType, Location: d.Location, IP: d.IP}
	online := n.Online(m.clk.Now())
	out.Online = onlineText(online)
	figure := func(v int64) string {
		if !online {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	out.Cpu, out.Memory, out.Portin, out.Portout = figure(int64(d.CPU)), figure(int64(d.Memory)), figure(d.Portin), figure(d.Portout)
	if d.Disk >= 0 {
		out.Disk = figure(int64(d.Disk))
	}
	level := levels[n.Moid()]
	for _, s := range n.Services() {
		level = higher(level, levels[node.ServiceMoid(n.Moid(), s)])
	}
	out.WarningLevel = level
	return out
}

func onlineText(b bool) string {
	if b {
		return "online"
	}
	return "offline"
}

// logical is a service of a node as the logical-server replies show it.
func (m *Module) logical(n node.Node, service string, levels map[string]string) model.NMSPhysicalsLogicalsListReplyLogical {
	moid := node.ServiceMoid(n.Moid(), service)
	return model.NMSPhysicalsLogicalsListReplyLogical{
		Moid: moid, Guid: node.GUID(moid), MachineRoomMoid: n.Doc.MachineRoomMoid, PServerMoid: n.Moid(),
		DomainMoid: PlatformMoid, Name: service, Type: strings.ToUpper(service),
		IP: n.Doc.IP, WarningLevel: levels[moid], Online: onlineText(n.Online(m.clk.Now())),
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
		levels[a.DeviceMoid] = higher(levels[a.DeviceMoid], a.WarningLevel)
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

func (m *Module) physicals(ctx context.Context, r *api.Request) (*model.NMSPlatformDomainsPhysicalsListReply, error) {
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
	reply := model.NMSPlatformDomainsPhysicalsListReply{Physicals: make([]model.NMSPlatformDomainsPhysicalsListReplyPhysical, 0, len(ns))}
	for _, n := range ns {
		d := m.physical(n, levels)
		reply.Physicals = append(reply.Physicals, model.NMSPlatformDomainsPhysicalsListReplyPhysical{CardPos: d.CardPos, Moid: d.Moid,
			Guid: d.Guid, MachineRoomMoid: d.MachineRoomMoid, DomainMoid: d.DomainMoid, Name: d.Name, Type: d.Type, Location: d.Location,
			IP: d.IP, Cpu: d.Cpu, Portin: d.Portin, Portout: d.Portout, Disk: d.Disk, Memory: d.Memory, WarningLevel: d.WarningLevel,
			Online: d.Online})
	}
	return &reply, nil
}

func (m *Module) physicalDetail(ctx context.Context, r *api.Request) (*model.NMSPhysicalsDetailGetReply, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	n, levels, err := m.nodeOf(ctx, r.Path("p_server_moid"))
	if err != nil {
		return nil, err
	}
	reply := m.physical(n, levels)
	return &reply, nil
}

func (m *Module) logicalsOf(ctx context.Context, r *api.Request) (*model.NMSPhysicalsLogicalsListReply, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	n, levels, err := m.nodeOf(ctx, r.Path("p_server_moid"))
	if err != nil {
		return nil, err
	}
	var reply model.NMSPhysicalsLogicalsListReply
	for _, s := range n.Services() {
		reply.Logicals = append(reply.Logicals, m.logical(n, s, levels))
	}
	return &reply, nil
}

func (m *Module) logicals(ctx context.Context, r *api.Request) (*model.NMSPlatformDomainsLogicalsListReply, error) {
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
	var reply model.NMSPlatformDomainsLogicalsListReply
	for _, n := range ns {
		for _, s := range n.Services() {
			reply.Logicals = append(reply.Logicals, m.logical(n, s, levels))
		}
	}
	return &reply, nil
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
func (m *Module) portInfo(ctx context.Context, r *api.Request) (*model.NMSMediaresourcesPortinfoGetReply, error) {
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
			return &reply, nil
		}
	}
	return nil, wire.Errorf(CodeNoDevice, "media resource %s does not exist", moid)
}

func (m *Module) mediaResources(ctx context.Context, r *api.Request) (*model.NMSPlatformDomainsMediaresourcesGetReply, error) {
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
	return &reply, nil
}
