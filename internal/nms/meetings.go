package nms

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// Conferences (reference 06 "请求服务域正在召开的会议信息", "请求会议终端信息
// 详情"): the running conferences of the caller's user domain in the
// service domain, from their records and the engine's terminals. A port
// conference (vc conf_type 1) is 1, every other conference traditional
// (0); Confer has no point-to-point calls outside conferences (2).

// Terminal types of the engine (reference 05 mt type).
const (
	mtTelephone   = 3
	mtSubordinate = 7
	mtSuperior    = 8
)

func (m *Module) meetings(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := serviceDomain(r, "service_moid"); err != nil {
		return nil, err
	}
	domain := r.Principal.DomainMoid
	confs, err := m.confs.List(ctx, domain, "", engine.StateRunning)
	if err != nil {
		return nil, err
	}
	dir, err := m.terminals(ctx, domain)
	if err != nil {
		return nil, err
	}
	managed := map[string]bool{}
	for _, t := range dir {
		managed[t.account] = t.managed
	}
	ip := ""
	if n, err := m.node.Nodes(ctx); err == nil {
		for _, x := range n {
			if x.Moid() == m.node.Moid() {
				ip = record.Str(x.Doc, "ip")
			}
		}
	}
	out := []any{}
	for _, c := range confs {
		ts, err := m.online(ctx, c)
		if err != nil {
			return nil, err
		}
		mts, phones, cascades, others := []any{}, []any{}, []any{}, []any{}
		for _, t := range ts {
			tm := terminalOf(domain, t.Doc)
			switch record.Int(t.Doc, "type") {
			case mtTelephone:
				phones = append(phones, tm.account)
			case mtSubordinate, mtSuperior:
				up := 0
				if record.Int(t.Doc, "type") == mtSuperior {
					up = 1
				}
				cascades = append(cascades, map[string]any{"name": tm.name, "e164": tm.e164, "type": up})
			default:
				mts = append(mts, map[string]any{"domain_moid": domain, "name": tm.name, "version": "", "type": tm.typ,
					"moid": tm.moid, "e164": tm.e164, "ip": tm.ip})
				if !managed[tm.account] {
					others = append(others, tm.account)
				}
			}
		}
		typ := 0
		if record.Int(c.Doc, "conf_type") == 1 {
			typ = 1
		}
		out = append(out, map[string]any{
			"conf_type": typ, "name": c.Doc["name"], "e164": c.ID(), "bitrate": record.Int(c.Doc, "bitrate"),
			"domain_moid": domain, "start_time": record.FormatTime(c.StartTime()), "end_time": record.Str(c.Doc, "end_time"),
			"meeting_terminals": mts, "telephone_terminals": phones, "cascades": cascades, "ip_e164": others,
			"meeting_device": []any{map[string]any{
				"type": NodeType, "ip": ip, "mixer_count": record.Int(c.Doc, "mix_enable"), "abas_count": 0,
				"vbas_count": 0, "vmp_count": record.Int(c.Doc, "vmp_enable"),
			}},
		})
	}
	return shape.Project(map[string]any{"meeting": out}, r.Endpoint.Reply), nil
}

// online returns a conference's terminals that are online.
func (m *Module) online(ctx context.Context, c engine.Conference) ([]engine.Terminal, error) {
	ts, err := m.confs.Terminals(ctx, c)
	if err != nil {
		return nil, err
	}
	out := ts[:0]
	for _, t := range ts {
		if t.Rec.State == engine.StateOnline {
			out = append(out, t)
		}
	}
	return out, nil
}

// videoFormats names the channel formats of reference 05 (1 MPEG, 2
// H.261, 3 H.263, 4 H.264 HP, 5 H.264 BP, 6 H.265, 7 H.263+) as reference
// 06's example writes them.
var videoFormats = map[int]string{1: "MPEG", 2: "H261", 3: "H263", 4: "H264", 5: "H264", 6: "H265", 7: "H263+"}

// channels are a terminal's video channels of a kind (v: main, dv: dual)
// as the terminal detail shows them: uplink what the terminal sends,
// downlink what it receives. The simulated media plane loses no packets
// and has no frame rate to measure.
func channels(doc map[string]any, prefix string, audio bool) []any {
	out := []any{}
	for _, dir := range []struct {
		key string
		up  int
	}{{prefix + "_snd_chn", 1}, {prefix + "_rcv_chn", 0}} {
		l, _ := doc[dir.key].([]any)
		for _, v := range l {
			ch, _ := v.(map[string]any)
			rate := record.Int(ch, "bitrate")
			c := map[string]any{"chan_id": record.Int(ch, "chn_id"), "up_or_down": dir.up,
				"video_format": videoFormats[record.Int(ch, "format")], "video_framerate": 0,
				"video_packets_lose": 0, "video_packets_loserate": 0}
			if dir.up == 1 {
				c["video_up_bitrate"] = rate
			} else {
				c["video_down_bitrate"] = rate
			}
			if audio {
				c["audio_format"], c["audio_packets_lose"], c["audio_packets_loserate"] = "", 0, 0
			}
			out = append(out, c)
		}
	}
	return out
}

// terminalDetail answers the online terminals of a running conference of
// the caller's domain (12103 otherwise) with their channels.
func (m *Module) terminalDetail(ctx context.Context, r *api.Request) (wire.Object, error) {
	domain := r.Principal.DomainMoid
	c, err := m.confs.Get(ctx, domain, r.Path("conf_id"), engine.StateRunning)
	if err != nil {
		return nil, err
	}
	ts, err := m.online(ctx, c)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, t := range ts {
		tm := terminalOf(domain, t.Doc)
		out = append(out, map[string]any{
			// the carrier is unknown, and no NAT is in between
			"isp": 0, "nat_ip": "", "ip": tm.ip, "version": "", "type": tm.typ, "name": tm.name, "e164": tm.e164,
			"bitrate": record.Int(t.Doc, "bitrate"), "primary_video": channels(t.Doc, "v", true),
			"dual_video": channels(t.Doc, "dv", false),
		})
	}
	return shape.Project(map[string]any{"terminals": out}, r.Endpoint.Reply), nil
}
