package vc

import (
	"context"
	"errors"
	"fmt"
	"net/netip"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/wire"
)

// A monitor's stream as plain RTP to its destination (reference 05
// "监控操作": the platform sends the monitored source to dst.ip:dst.port;
// docs/live.md "Monitors"). Each live monitor whose destination the node
// may send to has a sender on the node that started it, opened by the
// media side (Media.SendMonitor; rtc.LiveMedia: an invisible tap of the
// SFU receiving the monitor's source, one kind, mode 0 video or 1 audio,
// each packet written to one UDP socket connected to the destination,
// unencrypted, src.encrypt.mode 0). The media side keeps which sender is
// whose (rtc.LiveMedia, issue 40); vc decides which monitor is live. The
// sender ends with the monitor: stopped, replaced, left without
// heartbeat (RunDueLive) or its conference ended.

// DefaultMonitorNets are the destinations a node sends monitors' media to
// unless configured (--monitor-rtp-nets): loopback, private and
// link-local addresses, so that a client cannot aim a stream at any host
// of the internet (docs/live.md "Monitors").
var DefaultMonitorNets = []netip.Prefix{
	netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("fc00::/7"),
	netip.MustParsePrefix("169.254.0.0/16"), netip.MustParsePrefix("fe80::/10"),
}

// monitorAllowed tells whether the node sends media to ip, one of the
// networks nets (LiveConfig.MonitorNets), and the error that refuses the
// monitor otherwise.
func monitorAllowed(nets []netip.Prefix, ip string) error {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return wire.InvalidParam("dst.ip", "is not an IP address")
	}
	a = a.Unmap()
	for _, p := range nets {
		if p.Contains(a) {
			return nil
		}
	}
	return wire.InvalidParam("dst.ip", fmt.Sprintf("%s is outside the networks this node sends monitor media to (--monitor-rtp-nets)", ip))
}

// monitorSpec is the sender of a live monitor as the media side opens it.
func monitorSpec(mon monitor) media.MonitorSpec {
	dst := monitorDstOf(mon)
	spec := media.MonitorSpec{Name: "monitor " + dst, Dst: dst, Audio: mon.Mode == monModeAudio}
	switch mon.Src.Type {
	case monSrcTerminal:
		spec.Source, spec.MtID = media.MonitorTerminal, mon.Src.MtID
	case monSrcContent:
		spec.Source = media.MonitorDual
	}
	return spec
}

// ErrNoMonitor answers MonitorHere for a key no live monitor has.
var ErrNoMonitor = errors.New("vc: no live monitor with that key")

// monitorOpen gives a live monitor its sender: on the conference's media
// owner when another node owns it (LiveConfig.PassMonitor), else here;
// keyFrame asks its source for a key frame (a new sender asks anyway).
func (m *Module) monitorOpen(ctx context.Context, c engine.Conference, mon monitor, keyFrame bool) error {
	if !m.liveOn() {
		return nil
	}
	if pass := m.live.cfg.PassMonitor; pass != nil {
		passed, err := pass(ctx, c.Rec.DomainMoid, c.ID(), mon.Key, keyFrame)
		if passed || err != nil {
			return err
		}
	}
	return m.monitorEnsure(ctx, c, mon, keyFrame)
}

// monitorEnsure gives a live monitor its sender on this node, keeping the
// one it has (then asked for a key frame with keyFrame): the media side's
// (rtc.LiveMedia.SendMonitor).
func (m *Module) monitorEnsure(ctx context.Context, c engine.Conference, mon monitor, keyFrame bool) error {
	return m.live.cfg.Media.SendMonitor(ctx, c.Rec.DomainMoid, c.ID(), mon.Key, monitorSpec(mon), keyFrame)
}

// MonitorHere gives the live monitor with key its sender on this node:
// another node passed it here, the conference's media owner
// (rtc.MonitorHook); ErrNoMonitor when no live monitor has the key.
func (m *Module) MonitorHere(ctx context.Context, domain, confID, key string, keyFrame bool) error {
	if !m.liveOn() {
		return ErrNoMonitor
	}
	c, err := m.confs.Get(ctx, domain, confID, engine.StateRunning)
	if errors.Is(err, engine.ErrConfNotFound) {
		return ErrNoMonitor
	} else if err != nil {
		return err
	}
	mon, ok := monitorByKey(&c, key, m.clk.Now())
	if !ok || key == "" {
		return ErrNoMonitor
	}
	return m.monitorEnsure(ctx, c, mon, keyFrame)
}

// monitorResend gives the conference's live monitors to the destinations
// in want that have no sender on this node one (here, or passed to the
// media owner, which keeps the one it has): a heartbeat after conferd
// restarted (the senders are the node's, the monitors the store's) brings
// the stream back. A failure leaves the monitor as it is: the next
// heartbeat tries again.
func (m *Module) monitorResend(ctx context.Context, c engine.Conference, want map[string]bool) {
	if !m.liveOn() {
		return
	}
	for _, mon := range monitorsLive(&c, m.clk.Now()) {
		dst := monitorDstOf(mon)
		if !want[dst] || m.live.cfg.Media.MonitorSending(c.Rec.DomainMoid, c.ID(), dst) || monitorAllowed(m.live.cfg.MonitorNets, mon.Dst.IP) != nil {
			continue
		}
		_ = m.monitorOpen(ctx, c, mon, false)
	}
}
