package vc

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// Monitors (reference 05 items 75 to 80): a source's RTP stream sent to a
// destination address, kept alive by heartbeats. A monitor whose last
// heartbeat (or start) is MonitorTimeout old is released: reads ignore it
// at once, and the due sweep (RunDueTimeline) deletes it. One monitor per
// destination: starting one to a destination in use replaces it.
//
// Stored under vc_monitors of the conference document: the monitor as the
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

// monitorReply is a stored monitor as replies show it, its WHEP link
// added when the node has media.
func (m *Module) monitorReply(r *api.Request, c engine.Conference, mon map[string]any) map[string]any {
	if !m.liveOn() || tlStr(mon["key"]) == "" {
		return mon
	}
	out := make(map[string]any, len(mon)+1)
	for k, v := range mon {
		out[k] = v
	}
	q := url.Values{"monitor": {tlStr(mon["key"])}, "domain": {c.Rec.DomainMoid}}
	src := tlObj(mon["src"])
	switch tlInt(src["type"]) {
	case monSrcTerminal:
		q.Set("mt_id", tlStr(src["mt_id"]))
	case monSrcContent:
		q.Set("dual", "1")
	default: // the composition (and the mixer): the composed picture
		q.Set("composed", "1")
	}
	out["whep_url"] = whepURL(r.BaseURL, c.ID(), q)
	return out
}

// monitorLive tells whether a stored monitor is alive at now.
func monitorLive(mon map[string]any, now time.Time) bool {
	return now.Before(tlAt(mon["heartbeat_at"]).Add(MonitorTimeout))
}

// monitorDst is a destination's key.
func monitorDst(ip string, port int) string { return net.JoinHostPort(ip, strconv.Itoa(port)) }

func monitorKey(mon map[string]any) string {
	d := tlObj(mon["dst"])
	return monitorDst(tlStr(d["ip"]), tlInt(d["port"]))
}

// monitorsLive returns the live monitors of a document.
func monitorsLive(doc map[string]any, now time.Time) []map[string]any {
	var out []map[string]any
	for _, mon := range tlObjs(doc[tlKeyMonitors]) {
		if monitorLive(mon, now) {
			out = append(out, mon)
		}
	}
	return out
}

// monitorsExcept returns the monitors that drop does not match (never nil:
// the stored list stays an array).
func monitorsExcept(mons []map[string]any, drop func(map[string]any) bool) []map[string]any {
	kept := []map[string]any{}
	for _, mon := range mons {
		if !drop(mon) {
			kept = append(kept, mon)
		}
	}
	return kept
}

// monitorSettle deletes the monitors whose heartbeat stopped.
func monitorSettle(doc map[string]any, now time.Time) bool {
	all, live := tlObjs(doc[tlKeyMonitors]), monitorsLive(doc, now)
	if len(all) == len(live) {
		return false
	}
	doc[tlKeyMonitors] = tlAnys(live)
	return true
}

// monitorLeave releases the monitors of terminals that left.
func monitorLeave(doc map[string]any, gone leftSet) bool {
	all := tlObjs(doc[tlKeyMonitors])
	var kept []map[string]any
	for _, mon := range all {
		src := tlObj(mon["src"])
		if tlInt(src["type"]) == monSrcTerminal && gone.has(tlStr(src["mt_id"])) {
			continue
		}
		kept = append(kept, mon)
	}
	if len(kept) == len(all) {
		return false
	}
	doc[tlKeyMonitors] = tlAnys(kept)
	return true
}

// monitorDstParam checks a destination object: an IP address and a port.
func monitorDstParam(field string, d map[string]any) (string, int, error) {
	ip, port := tlStr(d["ip"]), tlInt(d["port"])
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
func (m *Module) monitorList(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, err := m.tlRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	var out []any
	for _, mon := range monitorsLive(c.Doc, m.clk.Now()) {
		out = append(out, m.monitorReply(r, c, mon))
	}
	return shape.Project(map[string]any{"monitors": append([]any{}, out...)}, r.Endpoint.Reply), nil
}

// monitorGet answers the live monitor sending to a destination.
func (m *Module) monitorGet(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, err := m.tlRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	dst, err := monitorPath(r)
	if err != nil {
		return nil, err
	}
	for _, mon := range monitorsLive(c.Doc, m.clk.Now()) {
		if monitorKey(mon) == dst {
			return shape.Project(m.monitorReply(r, c, mon), r.Endpoint.Reply), nil
		}
	}
	return nil, monitorUnknown(c, dst)
}

// monitorStart sends a source to a destination. A terminal source must be
// a terminal of the conference (12104) in the call (20401); the stream
// parameters (payload, format, RTCP address) are the simulation's.
func (m *Module) monitorStart(ctx context.Context, r *api.Request) (wire.Object, error) {
	ps := r.Args.Params
	ip, port, err := monitorDstParam("dst", tlObj(ps["dst"]))
	if err != nil {
		return nil, err
	}
	mode, _ := tlParam(ps, "mode")
	src := tlObj(ps["src"])
	srcType := tlInt(src["type"])
	mtID := tlStr(src["mt_id"])
	chn, ok := tlParam(src, "mt_chn_idx")
	if !ok {
		chn = 1 // reference 05 "监控操作": default 1
	}
	if srcType == monSrcTerminal && mtID == "" {
		return nil, wire.InvalidParam("src.mt_id", "is required to monitor a terminal")
	}
	if srcType != monSrcTerminal {
		mtID, chn = "", 0
	}
	if err := m.monitorAllowed(ip); err != nil {
		return nil, err
	}
	var started map[string]any
	c, err := m.tlUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		now := m.clk.Now()
		var t engine.Terminal
		if srcType == monSrcTerminal {
			ts, err := m.tlTerminals(ctx, *c)
			if err != nil {
				return false, err
			}
			if err := tlMember(*c, ts, "src.mt_id", mtID, true); err != nil {
				return false, err
			}
			t = ts[mtID]
		}
		formats := map[string]any{"sampling": 0, "chn_num": 0, "bitrate": 0, "max_frame": 0}
		if mode == monModeAudio {
			formats["sampling"], formats["chn_num"] = 9, 1 // 48000 Hz
			if n := tlInt(tlObj(ps["audio_format"])["chn_num"]); n > 0 {
				formats["chn_num"] = n
			}
		} else {
			bitrate := record.Int(c.Doc, "bitrate")
			if t.Doc != nil && tlInt(t.Doc["bitrate"]) > 0 {
				bitrate = tlInt(t.Doc["bitrate"])
			}
			vf := tlObj(ps["video_format"])
			if n := tlInt(vf["bitrate"]); n > 0 {
				bitrate = n
			}
			formats["bitrate"], formats["max_frame"] = bitrate, 30
			if n := tlInt(vf["frame"]); n > 0 {
				formats["max_frame"] = n
			}
		}
		mon := map[string]any{
			"mode": mode,
			"src": map[string]any{"type": srcType, "mt_id": mtID, "mt_chn_idx": chn,
				"encrypt":         map[string]any{"mode": 0, "key": ""},
				"payload_formats": monitorPayloads(mode),
				"media_formats":   formats,
				"rtcp":            map[string]any{"ip": "127.0.0.1", "port": port + 1}},
			"dst":          map[string]any{"ip": ip, "port": port},
			"heartbeat_at": tlMs(now),
			"key":          newKey(),
		}
		for _, f := range []string{"video_format", "audio_format"} {
			if v := tlObj(ps[f]); v != nil {
				mon[f] = v
			}
		}
		kept := monitorsExcept(monitorsLive(c.Doc, now), func(old map[string]any) bool { return monitorKey(old) == monitorDst(ip, port) })
		c.Doc[tlKeyMonitors] = tlAnys(append(kept, mon))
		started = mon
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	// The stream to dst (monitor_rtp.go); a monitor the node cannot send
	// is taken back, so that no monitor stays without its media.
	if err := m.monitorOpen(ctx, c, started, false); err != nil {
		key := tlStr(started["key"])
		if _, uerr := m.tlUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
			live := monitorsLive(c.Doc, m.clk.Now())
			kept := monitorsExcept(live, func(mon map[string]any) bool { return tlStr(mon["key"]) == key })
			c.Doc[tlKeyMonitors] = tlAnys(kept)
			return len(kept) != len(live), nil
		}); uerr != nil {
			return nil, uerr
		}
		return nil, wire.Errorf(CodeMonitorMedia, "the monitor of conference %s cannot send to %s: %v", c.ID(), monitorDst(ip, port), err)
	}
	return nil, nil
}

// monitorStop releases the monitor sending to a destination.
func (m *Module) monitorStop(ctx context.Context, r *api.Request) (wire.Object, error) {
	dst, err := monitorPath(r)
	if err != nil {
		return nil, err
	}
	_, err = m.tlUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		live := monitorsLive(c.Doc, m.clk.Now())
		kept := monitorsExcept(live, func(mon map[string]any) bool { return monitorKey(mon) == dst })
		if len(kept) == len(live) {
			return false, monitorUnknown(*c, dst)
		}
		c.Doc[tlKeyMonitors] = tlAnys(kept)
		return true, nil
	})
	if err == nil && m.liveOn() {
		m.monitorUnsend(senderID(r.Principal.DomainMoid, r.Path("conf_id"), dst)) // monitor_rtp.go
	}
	return nil, err
}

// monitorHeartbeat keeps the listed monitors alive. Destinations without a
// live monitor are ignored (a released monitor is not revived); 22008
// when none of them has one.
func (m *Module) monitorHeartbeat(ctx context.Context, r *api.Request) (wire.Object, error) {
	want := map[string]bool{}
	for i, d := range tlObjs(r.Args.Params["monitors"]) {
		ip, port, err := monitorDstParam(fmt.Sprintf("monitors[%d]", i), d)
		if err != nil {
			return nil, err
		}
		want[monitorDst(ip, port)] = true
	}
	c, err := m.tlUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		now := m.clk.Now()
		live := monitorsLive(c.Doc, now)
		kept := 0
		for _, mon := range live {
			if want[monitorKey(mon)] {
				mon["heartbeat_at"] = tlMs(now)
				kept++
			}
		}
		if kept == 0 {
			return false, wire.Errorf(CodeMonitorUnknown, "conference %s has no live monitor to the listed destinations", c.ID())
		}
		c.Doc[tlKeyMonitors] = tlAnys(live)
		return true, nil
	})
	if err == nil {
		m.monitorResend(ctx, c, want) // monitor_rtp.go
	}
	return nil, err
}

// monitorKeyFrame asks the source of a live monitor for a key frame
// (through its RTP sender on this node, monitor_rtp.go; without media
// there is nothing to ask).
func (m *Module) monitorKeyFrame(ctx context.Context, r *api.Request) (wire.Object, error) {
	ip, port, err := monitorDstParam("dst", tlObj(r.Args.Params["dst"]))
	if err != nil {
		return nil, err
	}
	c, err := m.tlRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	for _, mon := range monitorsLive(c.Doc, m.clk.Now()) {
		if monitorKey(mon) == monitorDst(ip, port) {
			// The sender, here or on the media owner, asks its source.
			if err := m.monitorOpen(ctx, c, mon, true); err != nil {
				return nil, wire.Errorf(CodeKeyFrame, "the monitor of conference %s to %s cannot ask a key frame: %v", c.ID(), monitorKey(mon), err)
			}
			return nil, nil
		}
	}
	return nil, wire.Errorf(CodeKeyFrame, "conference %s has no live monitor sending to %s", c.ID(), monitorDst(ip, port))
}

// monitorPayloads are the payload types a monitor's reply shows: for
// video the reference's (05 "监控操作": real 96, active 106, the H.264
// payload type the RTP sender uses); for audio the Opus payload type the
// sender uses (media.MonitorOpusPT), not the video's (issue 35 item 7).
func monitorPayloads(mode int) map[string]any {
	if mode == monModeAudio {
		pt := strconv.Itoa(media.MonitorOpusPT)
		return map[string]any{"real_payload": pt, "active_payload": pt}
	}
	return map[string]any{"real_payload": strconv.Itoa(media.MonitorVP8PT), "active_payload": strconv.Itoa(media.MonitorH264PT)}
}
