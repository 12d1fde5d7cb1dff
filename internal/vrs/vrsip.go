package vrs

import (
	"context"
	"net"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
)

// The recording server's addresses (reference 09 "获取VRS的IP组"): the
// recording system runs on every conferd node, so its addresses are the
// IPv4 addresses of the online nodes of the platform's registry (nms),
// with the port each node serves the API on. emisp is 7 (local) for a
// private, loopback or shared address and 0 (unknown carrier) otherwise.

type address struct {
	ip    int64
	port  int
	local bool
}

// addresses lists the online nodes' IPv4 addresses, loopback last.
func (m *Module) addresses(ctx context.Context) ([]address, error) {
	if m.nodes == nil {
		return nil, nil
	}
	ns, err := m.nodes.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	var out, loop []address
	for _, n := range ns {
		if !n.Online(now) {
			continue
		}
		for _, s := range n.Doc.Addresses {
			ip := net.ParseIP(s)
			if ip == nil || ip.To4() == nil {
				continue
			}
			a := address{ip: ipInt(s), port: n.Doc.Port, local: ip.IsPrivate() || ip.IsLoopback() || shared(ip)}
			if ip.IsLoopback() {
				loop = append(loop, a)
			} else {
				out = append(out, a)
			}
		}
	}
	return append(out, loop...), nil
}

// shared tells whether ip is in 100.64.0.0/10 (carrier-grade NAT).
func shared(ip net.IP) bool {
	v4 := ip.To4()
	return v4 != nil && v4[0] == 100 && v4[1]&0xc0 == 64
}

func (m *Module) vrsIP(ctx context.Context, r *api.Request) (*model.VRSVrsipGetReply, error) {
	as, err := m.addresses(ctx)
	if err != nil {
		return nil, err
	}
	var reply model.VRSVrsipGetReply
	for _, a := range as {
		isp := 0
		if a.local {
			isp = 7
		}
		reply.Ipinfo = append(reply.Ipinfo, model.VRSVrsipGetReplyIpinfoItem{Emisp: isp, IP: int(a.ip), Port: a.port})
	}
	return &reply, nil
}
