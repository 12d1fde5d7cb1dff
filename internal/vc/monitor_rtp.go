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
// media side (Media.OpenMonitor; rtc.LiveMedia: an invisible tap of the
// SFU receiving the monitor's source, one kind, mode 0 video or 1 audio,
// each packet written to one UDP socket connected to the destination,
// unencrypted, src.encrypt.mode 0). vc keeps which sender is whose. The
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

// monitorSender is one monitor's stream on its way to the destination.
type monitorSender struct {
	domain, confID, key string
	tap                 media.Tap
}

func (s *monitorSender) close() { s.tap.Close() }

// monitorAllowed tells whether the node sends media to ip, and the error
// that refuses the monitor otherwise.
func (m *Module) monitorAllowed(ip string) error {
	if !m.liveOn() {
		return nil // records only (--no-rtc)
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return wire.InvalidParam("dst.ip", "is not an IP address")
	}
	a = a.Unmap()
	for _, p := range m.live.cfg.MonitorNets {
		if p.Contains(a) {
			return nil
		}
	}
	return wire.InvalidParam("dst.ip", fmt.Sprintf("%s is outside the networks this node sends monitor media to (--monitor-rtp-nets)", ip))
}

// senderID is a sender's key in liveState.senders.
func senderID(domain, confID, dst string) string { return domain + "/" + confID + "/" + dst }

// monitorSend starts the sender of a live monitor on this node, replacing
// the one to the same destination.
func (m *Module) monitorSend(ctx context.Context, c engine.Conference, mon monitor) error {
	dst := mon.dst()
	id := senderID(c.Rec.DomainMoid, c.ID(), dst)
	m.monitorUnsend(id)
	spec := media.MonitorSpec{Name: "monitor " + dst, Dst: dst, Audio: mon.Mode == monModeAudio}
	switch mon.Src.Type {
	case monSrcTerminal:
		spec.Source, spec.MtID = media.MonitorTerminal, mon.Src.MtID
	case monSrcContent:
		spec.Source = media.MonitorDual
	}
	t, err := m.live.cfg.Media.OpenMonitor(ctx, c.ID(), spec)
	if err != nil {
		return err
	}
	s := &monitorSender{domain: c.Rec.DomainMoid, confID: c.ID(), key: mon.Key, tap: t}
	m.live.mu.Lock()
	m.live.senders[id] = s
	m.live.mu.Unlock()
	t.RequestKeyFrame()
	return nil
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
// one it has (then asked for a key frame with keyFrame).
func (m *Module) monitorEnsure(ctx context.Context, c engine.Conference, mon monitor, keyFrame bool) error {
	if s := m.monitorSenderFor(c, mon.dst()); s != nil && s.key == mon.Key {
		if keyFrame {
			s.tap.RequestKeyFrame()
		}
		return nil
	}
	return m.monitorSend(ctx, c, mon)
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
		dst := mon.dst()
		if !want[dst] || m.monitorSenderFor(c, dst) != nil || m.monitorAllowed(mon.Dst.IP) != nil {
			continue
		}
		_ = m.monitorOpen(ctx, c, mon, false)
	}
}

// monitorUnsend ends the sender with id (domain/conf_id/dst), if any.
func (m *Module) monitorUnsend(id string) {
	m.live.mu.Lock()
	s := m.live.senders[id]
	delete(m.live.senders, id)
	m.live.mu.Unlock()
	if s != nil {
		s.close()
	}
}

// monitorSenderFor is the sender of the conference's monitor to dst.
func (m *Module) monitorSenderFor(c engine.Conference, dst string) *monitorSender {
	m.live.mu.Lock()
	defer m.live.mu.Unlock()
	return m.live.senders[senderID(c.Rec.DomainMoid, c.ID(), dst)]
}

// runDueSenders ends the senders whose monitor is no longer live, whose
// conference ended, or whose tap the SFU closed (RunDueLive).
func (m *Module) runDueSenders(ctx context.Context) error {
	m.live.mu.Lock()
	all := make(map[string]*monitorSender, len(m.live.senders))
	for id, s := range m.live.senders {
		all[id] = s
	}
	m.live.mu.Unlock()
	now := m.clk.Now()
	keys := map[string]map[string]bool{} // the live monitors' keys of each conference, read once a tick; none: not running
	for id, s := range all {
		select {
		case <-s.tap.Done():
			m.monitorUnsendIf(id, s)
			continue
		default:
		}
		ck := s.domain + "/" + s.confID
		live, read := keys[ck]
		if !read {
			c, err := m.confs.Get(ctx, s.domain, s.confID, engine.StateRunning)
			if err != nil && !errors.Is(err, engine.ErrConfNotFound) {
				return err
			}
			live = map[string]bool{}
			if err == nil {
				for _, mon := range monitorsLive(&c, now) {
					live[mon.Key] = mon.Key != ""
				}
			}
			keys[ck] = live
		}
		if !live[s.key] {
			m.monitorUnsendIf(id, s)
		}
	}
	return nil
}

// monitorUnsendIf ends s if it is still id's sender (not a replacement).
func (m *Module) monitorUnsendIf(id string, s *monitorSender) {
	m.live.mu.Lock()
	cur := m.live.senders[id]
	if cur == s {
		delete(m.live.senders, id)
	}
	m.live.mu.Unlock()
	if cur == s { // a replacement closed s already
		s.close()
	}
}
