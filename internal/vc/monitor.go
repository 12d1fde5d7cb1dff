package vc

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Monitors (reference 05 items 75 to 80): a source's RTP stream sent to a
// destination address, kept alive by heartbeats. A monitor whose last
// heartbeat (or start) is MonitorTimeout old is released: reads ignore it
// at once, and the due sweep (RunDueTimeline) deletes it. One monitor per
// destination: starting one to a destination in use replaces it.
//
// Stored as the conference's engine.Monitor list (vc_monitors): the monitor as the
// replies show it (mode, src with type, mt_id, mt_chn_idx, encrypt,
// payload_formats, media_formats and rtcp, dst), the video_format or
// audio_format asked for, and heartbeat_at (UNIX ms).

// MonitorTimeout is how long a monitor lives without a heartbeat
// (reference 05 "监控心跳保活": sent every 10 s; after 30 s without one
// the monitor stops).
const MonitorTimeout = 30 * time.Second

// Monitor sources and modes.
const (
	monSrcTerminal = 1
	monSrcContent  = 4
	monModeAudio   = 1
)

// With media (docs/live.md "Monitors"), a monitor is also a WHEP link
// that watches its source: whep_url in its replies (Confer's extension),
// ?mt_id=N for a terminal, ?dual=1 for the content stream, the broadcast
// for the composition and the mixer. The link's key (stored as "key",
// never shown otherwise) admits viewers while the monitor lives; once it
// is released (stopped, replaced, or MonitorTimeout without heartbeat)
// RunDueLive closes its viewers.

// monitor is a stored monitor (an element of engine.Conference's
// Monitors): the monitor as the replies show it, the video or audio
// format the request asked for (as sent), its last heartbeat (UNIX ms)
// and its WHEP link's key.
type monitor = engine.Monitor

// monitorsOf reads a copy of the stored monitors, which setMonitors
// writes back.
func monitorsOf(c *engine.Conference) []monitor { return slices.Clone(c.Monitors) }

// setMonitors stores the monitors (an empty list, never null).
func setMonitors(c *engine.Conference, mons []monitor) { c.Monitors = nonNil(mons) }

// nonNil is a list that is stored even when empty.
func nonNil[T any](l []T) []T {
	if l == nil {
		return []T{}
	}
	return l
}

// monitorReply is a stored monitor as replies show it, its WHEP link
// added when the node has media.
func (m *Module) monitorReply(r *api.Request, c engine.Conference, mon monitor) model.VCConfsMonitorsListReplyMonitor {
	out := model.VCConfsMonitorsListReplyMonitor{Mode: mon.Mode, Src: &mon.Src, Dst: &mon.Dst}
	if !m.liveOn() || mon.Key == "" {
		return out
	}
	q := url.Values{"monitor": {mon.Key}, "domain": {c.Rec.DomainMoid}}
	switch mon.Src.Type {
	case monSrcTerminal:
		q.Set("mt_id", mon.Src.MtID)
	case monSrcContent:
		q.Set("dual", "1")
	default: // the composition (and the mixer): the composed picture
		q.Set("composed", "1")
	}
	out.WhepURL = whepURL(r.BaseURL, c.ID(), q)
	return out
}

// monitorLive tells whether a stored monitor is alive at now.
func monitorLive(mon monitor, now time.Time) bool {
	return now.Before(time.UnixMilli(mon.HeartbeatAt).Add(MonitorTimeout))
}

// monitorDst is a destination's key.
func monitorDst(ip string, port int) string { return net.JoinHostPort(ip, strconv.Itoa(port)) }

// monitorDstOf is the monitor's destination key.
func monitorDstOf(mon monitor) string { return monitorDst(mon.Dst.IP, mon.Dst.Port) }

// monitorsLive returns the live monitors of a document.
func monitorsLive(c *engine.Conference, now time.Time) []monitor {
	var out []monitor
	for _, mon := range monitorsOf(c) {
		if monitorLive(mon, now) {
			out = append(out, mon)
		}
	}
	return out
}

// monitorsExcept returns the monitors that drop does not match.
func monitorsExcept(mons []monitor, drop func(monitor) bool) []monitor {
	var kept []monitor
	for _, mon := range mons {
		if !drop(mon) {
			kept = append(kept, mon)
		}
	}
	return kept
}

// monitorSettle deletes the monitors whose heartbeat stopped.
func monitorSettle(c *engine.Conference, now time.Time) bool {
	if len(c.Monitors) == len(monitorsLive(c, now)) {
		return false
	}
	setMonitors(c, monitorsLive(c, now))
	return true
}

// monitorLeave releases the monitors of terminals that left.
func monitorLeave(c *engine.Conference, gone leftSet) bool {
	all := monitorsOf(c)
	kept := monitorsExcept(all, func(mon monitor) bool {
		return mon.Src.Type == monSrcTerminal && gone.has(mon.Src.MtID)
	})
	if len(kept) == len(all) {
		return false
	}
	setMonitors(c, kept)
	return true
}

// monitorDstParam checks a destination: an IP address and a port.
func monitorDstParam(field string, d model.VCConfsMonitorsCreateRequestDst) (string, int, error) {
	ip, port := d.IP, d.Port
	if net.ParseIP(ip) == nil {
		return "", 0, wire.InvalidParam(field+".ip", fmt.Sprintf("%q is not an IP address", ip))
	}
	if port < 1 || port > 65535 {
		return "", 0, wire.InvalidParam(field+".port", fmt.Sprintf("%d is not a port", port))
	}
	return ip, port, nil
}

// monitorPath reads the destination of the request's path.
func monitorPath(r *api.Request) (string, error) {
	port, err := strconv.Atoi(r.Path("dst_port"))
	if err != nil {
		return "", wire.InvalidParam("dst_port", fmt.Sprintf("%q is not a port", r.Path("dst_port")))
	}
	return monitorDst(r.Path("dst_ip"), port), nil
}

func monitorUnknown(c engine.Conference, dst string) error {
	return wire.Errorf(CodeMonitorUnknown, "conference %s has no monitor sending to %s", c.ID(), dst)
}

// monitorList answers the live monitors.
func (m *Module) monitorList(ctx context.Context, r *api.Request) (*model.VCConfsMonitorsListReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	var out model.VCConfsMonitorsListReply
	for _, mon := range monitorsLive(&c, m.clk.Now()) {
		out.Monitors = append(out.Monitors, m.monitorReply(r, c, mon))
	}
	return &out, nil
}

// monitorGet answers the live monitor sending to a destination.
func (m *Module) monitorGet(ctx context.Context, r *api.Request) (*model.VCConfsMonitorsGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	dst, err := monitorPath(r)
	if err != nil {
		return nil, err
	}
	for _, mon := range monitorsLive(&c, m.clk.Now()) {
		if monitorDstOf(mon) == dst {
			reply := model.VCConfsMonitorsGetReply(m.monitorReply(r, c, mon))
			return &reply, nil
		}
	}
	return nil, monitorUnknown(c, dst)
}

// monitorStart sends a source to a destination. A terminal source must be
// a terminal of the conference (12104) in the call (20401); the stream
// parameters (payload, format, RTCP address) are the simulation's.
func (m *Module) monitorStart(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMonitorsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	ip, port, err := monitorDstParam("dst", q.Dst)
	if err != nil {
		return err
	}
	mtID, chn, err := monitorSourceOf(q)
	if err != nil {
		return err
	}
	if m.liveOn() { // without media (--no-rtc) a monitor is its record only
		if err := monitorAllowed(m.live.cfg.MonitorNets, ip); err != nil {
			return err
		}
	}
	var started monitor
	c, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		now := m.clk.Now()
		var t engine.Terminal
		if q.Src.Type == monSrcTerminal {
			ts, err := m.tlTerminals(ctx, *c)
			if err != nil {
				return false, err
			}
			if err := tlMember(*c, ts, "src.mt_id", mtID, true); err != nil {
				return false, err
			}
			t = ts[mtID]
		}
		formats := monitorFormats(q, c.Bitrate(), t.Bitrate())
		mon := monitorOf(q, ip, port, mtID, chn, formats, now, newKey(),
			asSent(r.Args.Params["video_format"]), asSent(r.Args.Params["audio_format"]))
		kept := monitorsExcept(monitorsLive(c, now), func(old monitor) bool { return monitorDstOf(old) == monitorDst(ip, port) })
		setMonitors(c, append(kept, mon))
		started = mon
		return true, nil
	})
	if err != nil {
		return err
	}
	// The stream to dst (monitor_rtp.go); a monitor the node cannot send
	// is taken back, so that no monitor stays without its media.
	if err := m.monitorOpen(ctx, c, started, false); err != nil {
		if _, uerr := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
			live := monitorsLive(c, m.clk.Now())
			kept := monitorsExcept(live, func(mon monitor) bool { return mon.Key == started.Key })
			setMonitors(c, kept)
			return len(kept) != len(live), nil
		}); uerr != nil {
			return uerr
		}
		return wire.Errorf(CodeMonitorMedia, "the monitor of conference %s cannot send to %s: %v", c.ID(), monitorDst(ip, port), err)
	}
	return nil
}

// asSent is a request's object member as the request sent it (nil when
// it is not an object), stored with the monitor.
func asSent(v any) json.RawMessage {
	if _, ok := tlObject(v); !ok {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// monitorStop releases the monitor sending to a destination.
func (m *Module) monitorStop(ctx context.Context, r *api.Request) error {
	dst, err := monitorPath(r)
	if err != nil {
		return err
	}
	_, err = m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		live := monitorsLive(c, m.clk.Now())
		kept := monitorsExcept(live, func(mon monitor) bool { return monitorDstOf(mon) == dst })
		if len(kept) == len(live) {
			return false, monitorUnknown(*c, dst)
		}
		setMonitors(c, kept)
		return true, nil
	})
	if err == nil && m.liveOn() {
		m.live.cfg.Media.StopMonitor(r.Principal.DomainMoid, r.Path("conf_id"), dst) // the media side's sender (monitor_rtp.go)
	}
	return err
}

// monitorHeartbeat keeps the listed monitors alive. Destinations without a
// live monitor are ignored (a released monitor is not revived); 22008
// when none of them has one.
func (m *Module) monitorHeartbeat(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMonitorsHeartbeatSendRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	want := map[string]bool{}
	for i, d := range q.Monitors {
		ip, port, err := monitorDstParam(fmt.Sprintf("monitors[%d]", i), d)
		if err != nil {
			return err
		}
		want[monitorDst(ip, port)] = true
	}
	c, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		now := m.clk.Now()
		live := monitorsLive(c, now)
		if err := monitorBeat(c.ID(), live, want, now); err != nil {
			return false, err
		}
		setMonitors(c, live)
		return true, nil
	})
	if err == nil {
		m.monitorResend(ctx, c, want) // monitor_rtp.go
	}
	return err
}

// monitorKeyFrame asks the source of a live monitor for a key frame
// (through its RTP sender on this node, monitor_rtp.go; without media
// there is nothing to ask).
func (m *Module) monitorKeyFrame(ctx context.Context, r *api.Request) error {
	var q model.VCConfsNeediframeMonitorsRequestRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	ip, port, err := monitorDstParam("dst", q.Dst)
	if err != nil {
		return err
	}
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return err
	}
	for _, mon := range monitorsLive(&c, m.clk.Now()) {
		if monitorDstOf(mon) == monitorDst(ip, port) {
			// The sender, here or on the media owner, asks its source.
			if err := m.monitorOpen(ctx, c, mon, true); err != nil {
				return wire.Errorf(CodeKeyFrame, "the monitor of conference %s to %s cannot ask a key frame: %v", c.ID(), monitorDstOf(mon), err)
			}
			return nil
		}
	}
	return wire.Errorf(CodeKeyFrame, "conference %s has no live monitor sending to %s", c.ID(), monitorDst(ip, port))
}

// monitorPayloads are the payload types a monitor's reply shows: for
// video the reference's (05 "监控操作": real 96, active 106, the H.264
// payload type the RTP sender uses); for audio the Opus payload type the
// sender uses (media.MonitorOpusPT), not the video's (issue 35 item 7).
func monitorPayloads(mode int) model.VCConfsMonitorsListReplyMonitorSrcPayloadFormats {
	if mode == monModeAudio {
		pt := strconv.Itoa(media.MonitorOpusPT)
		return model.VCConfsMonitorsListReplyMonitorSrcPayloadFormats{RealPayload: pt, ActivePayload: pt}
	}
	return model.VCConfsMonitorsListReplyMonitorSrcPayloadFormats{RealPayload: strconv.Itoa(media.MonitorVP8PT), ActivePayload: strconv.Itoa(media.MonitorH264PT)}
}
