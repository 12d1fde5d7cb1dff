package engine

import (
	"context"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
)

// A terminal's channels (reference 05 "获取与会终端信息": v_snd_chn,
// v_rcv_chn, dv_snd_chn, dv_rcv_chn, a_snd_chn, a_rcv_chn; seed 001
// 5.2.0.2.0: bitrate, resolution, format, cur_video_idx). A call of the
// simulation stores one channel of each when it is answered; a terminal
// whose media a real backend carries (a WebRTC participant, a SIP call)
// shows the channels of its session instead, one entry per channel that
// exists, read when its details are (Detail).

// channelKeys are the six channel lists, in the reference's order.
var channelKeys = []string{"v_snd_chn", "v_rcv_chn", "dv_snd_chn", "dv_rcv_chn", "a_snd_chn", "a_rcv_chn"}

// simulated: H.264 baseline (format 5) at 1080p (resolution 35,
// reference A4).
const (
	simFormat     = 5
	simResolution = 35
)

// channel is one entry of a terminal's channel lists as its document
// holds it: a video channel has bitrate, resolution and format (0 when
// unknown), the video send channel cur_video_idx; an audio channel none
// of them.
type channel struct {
	ChnAlias    string         `json:"chn_alias"`
	ChnID       int            `json:"chn_id"`
	ChnLabel    int            `json:"chn_label"`
	Bitrate     model.Opt[int] `json:"bitrate,omitzero"`
	CurVideoIdx model.Opt[int] `json:"cur_video_idx,omitzero"`
	Format      model.Opt[int] `json:"format,omitzero"`
	Resolution  model.Opt[int] `json:"resolution,omitzero"`
}

// video is a video channel's picture: its bitrate, resolution and format.
func (ch channel) video(bitrate, resolution, format int) channel {
	ch.Bitrate, ch.Resolution, ch.Format = model.Some(bitrate), model.Some(resolution), model.Some(format)
	return ch
}

// simChannelSet is the media channels of a terminal of the simulation.
type simChannelSet struct {
	vSnd, vRcv, dvSnd, dvRcv, aSnd, aRcv []channel
}

// simChannels are an online terminal's channels in the simulation:
// H.264 at 1080p and the call bitrate.
func simChannels(bitrate int) simChannelSet {
	video := func(alias string, snd bool) []channel {
		ch := channel{ChnID: 1, ChnAlias: alias}.video(bitrate, simResolution, simFormat)
		if snd {
			ch.CurVideoIdx = model.Some(0)
		}
		return []channel{ch}
	}
	audio := func(alias string) []channel { return []channel{{ChnID: 1, ChnAlias: alias}} }
	return simChannelSet{vSnd: video("vsndchn1", true), vRcv: video("vrcvchn1", false),
		dvSnd: video("dvsndchn1", false), dvRcv: video("dvrcvchn1", false), aSnd: audio("asndchn1"), aRcv: audio("arcvchn1")}
}

// clearChannels removes the channels of a terminal that left the call.
func clearChannels(t *Terminal) {
	for _, k := range channelKeys {
		t.Doc.setChannelList(k, []channel{})
	}
}

// Detail reads a terminal as its details show it: the stored record, with
// the channels of its media session when the media plane carries one
// here (media.ChannelReader). Which backend carries the terminal is the
// media plane's business; a simulated call keeps the channels stored when
// it was answered.
func (e *Engine) Detail(ctx context.Context, c Conf, mtID string) (Terminal, error) {
	c, mtID, err := e.Resolve(ctx, c, mtID)
	if err != nil {
		return Terminal{}, err
	}
	t, err := e.getLocal(ctx, c, mtID)
	if err != nil || t.Rec.State != StateOnline {
		return t, err
	}
	if r, ok := e.media.(media.ChannelReader); ok {
		if chs, ok := r.Channels(ctx, c.ConfID, mtID); ok {
			liveChannels(&t, chs)
		}
	}
	return t, nil
}

// liveChannels replaces a terminal's channel lists with those of its
// media session: the codec as format, the picture size as resolution,
// the measured bitrate (kbit/s). The video source it sends
// (cur_video_idx) is the stored one.
func liveChannels(t *Terminal, chs []media.Channel) {
	curIdx := 0
	if l := t.Doc.channelsOf("v_snd_chn"); len(l) > 0 {
		curIdx = l[0].CurVideoIdx.Value
	}
	lists := map[string][]channel{}
	for _, c := range chs {
		key := channelKey(c)
		n := len(lists[key]) + 1
		ch := channel{ChnID: n, ChnAlias: strings.ReplaceAll(key, "_", "") + strconv.Itoa(n)}
		if c.Kind != media.ChannelAudio {
			ch = ch.video(c.Bitrate, resolutionOf(c.Width, c.Height), formatOf(c.MimeType, c.Fmtp))
			if key == "v_snd_chn" {
				ch.CurVideoIdx = model.Some(curIdx)
			}
		}
		lists[key] = append(lists[key], ch)
	}
	for _, k := range channelKeys {
		if lists[k] == nil {
			lists[k] = []channel{}
		}
		t.Doc.setChannelList(k, lists[k])
	}
}

// channelKey is the list a channel belongs in.
func channelKey(c media.Channel) string {
	dir := "rcv"
	if c.Send {
		dir = "snd"
	}
	switch c.Kind {
	case media.ChannelAudio:
		return "a_" + dir + "_chn"
	case media.ChannelContent:
		return "dv_" + dir + "_chn"
	}
	return "v_" + dir + "_chn"
}

// formatOf is the video format of a codec (reference 05: 1 MPEG-4, 2
// H.261, 3 H.263, 4 H.264 high profile, 5 H.264 baseline, 6 H.265); 0 for
// a codec the enumeration lacks (VP8, VP9, AV1) or none.
func formatOf(mime, fmtp string) int {
	switch strings.ToLower(mime) {
	case "video/mp4v-es":
		return 1
	case "video/h261":
		return 2
	case "video/h263", "video/h263-1998":
		return 3
	case "video/h264":
		if h264High(fmtp) {
			return 4
		}
		return 5
	case "video/h265":
		return 6
	}
	return 0
}

// h264High tells whether an H.264 fmtp line's profile-level-id (RFC 6184
// section 8.1) names the high profile or above (profile_idc 100 on).
func h264High(fmtp string) bool {
	for _, kv := range strings.Split(fmtp, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		if strings.EqualFold(k, "profile-level-id") && len(v) >= 2 {
			idc, err := strconv.ParseUint(v[:2], 16, 8)
			return err == nil && idc >= 100
		}
	}
	return false
}

// resolutions are the terminal resolution values of reference A4 that
// name one picture size.
var resolutions = []struct{ value, w, h int }{
	{1, 128, 96}, {2, 176, 144}, {3, 352, 288}, {4, 352, 576}, {5, 704, 576}, {6, 1408, 1152},
	{8, 352, 240}, {10, 704, 480}, {11, 640, 480}, {12, 800, 600}, {13, 1024, 768}, {14, 1280, 800},
	{15, 512, 288}, {21, 112, 96}, {22, 96, 80}, {31, 1024, 576}, {32, 1280, 720}, {33, 1280, 1024},
	{34, 1600, 1200}, {35, 1920, 1080}, {37, 1440, 900}, {38, 1280, 960}, {39, 1680, 1050},
	{41, 1440, 816}, {43, 960, 544}, {44, 640, 368}, {45, 480, 272}, {46, 384, 272}, {52, 864, 480},
	{54, 432, 240}, {55, 320, 192}, {56, 640, 544}, {57, 320, 272}, {61, 480, 352}, {62, 3840, 2160},
	{63, 1536, 864}, {64, 1536, 1080}, {65, 2304, 1296}, {66, 2560, 1440}, {67, 2880, 1620},
}

// resolutionOf is the A4 value of a picture size: the exact one, else the
// nearest; 0 when the size is unknown.
func resolutionOf(w, h int) int {
	if w <= 0 || h <= 0 {
		return 0
	}
	best, dist := 0, -1
	for _, r := range resolutions {
		d := abs(r.w-w) + abs(r.h-h)
		if dist < 0 || d < dist {
			best, dist = r.value, d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
