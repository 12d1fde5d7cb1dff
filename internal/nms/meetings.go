package nms

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
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

func (m *Module) meetings(ctx context.Context, r *api.Request) (*model.NMSServiceDomainsMeetingsListReply, error) {
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
				ip = x.Doc.IP
			}
		}
	}
	type item = model.NMSServiceDomainsMeetingsListReplyMeetingItem
	var reply model.NMSServiceDomainsMeetingsListReply
	for _, c := range confs {
		ts, err := m.online(ctx, c)
		if err != nil {
			return nil, err
		}
		var (
			mts           []model.NMSServiceDomainsMeetingsListReplyMeetingItemMeetingTerminal
			phones, other []string
			cascades      []model.NMSServiceDomainsMeetingsListReplyMeetingItemCascade
		)
		for _, t := range ts {
			tm := terminalOf(domain, t)
			switch t.Type() {
			case mtTelephone:
				phones = append(phones, tm.account)
			case mtSubordinate, mtSuperior:
				up := 0
				if t.Type() == mtSuperior {
					up = 1
				}
				cascades = append(cascades, model.NMSServiceDomainsMeetingsListReplyMeetingItemCascade{Name: tm.name, E164: tm.e164, Type: up})
			default:
				mts = append(mts, model.NMSServiceDomainsMeetingsListReplyMeetingItemMeetingTerminal{DomainMoid: domain, Name: tm.name,
					Type: tm.typ, Moid: tm.moid, E164: tm.e164, IP: tm.ip})
				if !managed[tm.account] {
					other = append(other, tm.account)
				}
			}
		}
		typ := 0
		if c.ConfType() == 1 {
			typ = 1
		}
		reply.Meeting = append(reply.Meeting, item{
			ConfType: typ, Name: c.Name(), E164: c.ID(), Bitrate: c.Bitrate(),
			DomainMoid: domain, StartTime: record.FormatTime(c.StartTime()), EndTime: c.EndTimeText(),
			MeetingTerminals: mts, TelephoneTerminals: phones, Cascades: cascades, IPE164: other,
			MeetingDevice: []model.NMSServiceDomainsMeetingsListReplyMeetingItemMeetingDeviceItem{{
				Type: NodeType, IP: ip, MixerCount: c.MixEnable(), VMPCount: c.VMPEnable(),
			}},
		})
	}
	return &reply, nil
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

type (
	videoChannel = model.NMSMeetingsTerminalDetailGetReplyTerminalPrimaryVideoItem
	dualChannel  = model.NMSMeetingsTerminalDetailGetReplyTerminalDualVideoItem
)

// channels are a terminal's video channels of a kind (v: main, dv: dual)
// as the terminal detail shows them: uplink what the terminal sends,
// downlink what it receives. The simulated media plane loses no packets
// and has no frame rate to measure.
func channels(t engine.Terminal, prefix string) []videoChannel {
	var out []videoChannel
	for _, dir := range []struct {
		key string
		up  int
	}{{prefix + "_snd_chn", 1}, {prefix + "_rcv_chn", 0}} {
		for _, ch := range t.Channels(dir.key) { // an element of another form reads as zeros
			rate := int(ch.Bitrate)
			c := videoChannel{ChanID: int(ch.ChnID), UpOrDown: dir.up, VideoFormat: videoFormats[int(ch.Format)]}
			if dir.up == 1 {
				c.VideoUpBitrate = rate
			} else {
				c.VideoDownBitrate = rate
			}
			out = append(out, c)
		}
	}
	return out
}

// dualChannels are the dual-stream channels: the video members of
// channels.
func dualChannels(l []videoChannel) []dualChannel {
	out := make([]dualChannel, len(l))
	for i, c := range l {
		out[i] = dualChannel{ChanID: c.ChanID, UpOrDown: c.UpOrDown, VideoFormat: c.VideoFormat, VideoFramerate: c.VideoFramerate,
			VideoUpBitrate: c.VideoUpBitrate, VideoDownBitrate: c.VideoDownBitrate, VideoPacketsLose: c.VideoPacketsLose,
			VideoPacketsLoserate: c.VideoPacketsLoserate}
	}
	return out
}

// terminalDetail answers the online terminals of a running conference of
// the caller's domain (12103 otherwise) with their channels.
func (m *Module) terminalDetail(ctx context.Context, r *api.Request) (*model.NMSMeetingsTerminalDetailGetReply, error) {
	domain := r.Principal.DomainMoid
	c, err := m.confs.Get(ctx, domain, r.Path("conf_id"), engine.StateRunning)
	if err != nil {
		return nil, err
	}
	ts, err := m.online(ctx, c)
	if err != nil {
		return nil, err
	}
	var reply model.NMSMeetingsTerminalDetailGetReply
	for _, t := range ts {
		tm := terminalOf(domain, t)
		// The carrier is unknown (isp 0), and no NAT is in between.
		reply.Terminals = append(reply.Terminals, model.NMSMeetingsTerminalDetailGetReplyTerminal{
			IP: tm.ip, Type: tm.typ, Name: tm.name, E164: tm.e164, Bitrate: t.Bitrate(),
			PrimaryVideo: channels(t, "v"), DualVideo: dualChannels(channels(t, "dv")),
		})
	}
	return &reply, nil
}
