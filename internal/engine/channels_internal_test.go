package engine

import (
	"testing"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
)

// A media session's channels become the six lists: one entry per
// channel, numbered per list, video with format, resolution and bitrate,
// audio without; the stored video source index stays.
func TestLiveChannels(t *testing.T) {
	tm := Terminal{}
	tm.Doc.setChannels(1024)
	tm.Doc.VSndChn[0].CurVideoIdx = model.Some(2)
	liveChannels(&tm, []media.Channel{
		{Kind: media.ChannelAudio, Send: true, MimeType: "audio/opus", Bitrate: 32},
		{Kind: media.ChannelVideo, Send: true, MimeType: "video/H264", Fmtp: "packetization-mode=1;profile-level-id=640028", Width: 1920, Height: 1080, Bitrate: 2500},
		{Kind: media.ChannelVideo, Send: false, MimeType: "video/VP8", Width: 640, Height: 480, Bitrate: 800},
		{Kind: media.ChannelVideo, Send: false},
		{Kind: media.ChannelContent, Send: false, MimeType: "video/H264", Fmtp: "profile-level-id=42e01f", Width: 1276, Height: 718, Bitrate: 300},
	})
	b, _ := encodeTerminal(tm)
	want := `{"a_rcv_chn":[],"a_snd_chn":[{"chn_alias":"asndchn1","chn_id":1,"chn_label":0}],` +
		`"dv_rcv_chn":[{"bitrate":300,"chn_alias":"dvrcvchn1","chn_id":1,"chn_label":0,"format":5,"resolution":32}],"dv_snd_chn":[],` +
		`"v_rcv_chn":[{"bitrate":800,"chn_alias":"vrcvchn1","chn_id":1,"chn_label":0,"format":0,"resolution":11},` +
		`{"bitrate":0,"chn_alias":"vrcvchn2","chn_id":2,"chn_label":0,"format":0,"resolution":0}],` +
		`"v_snd_chn":[{"bitrate":2500,"chn_alias":"vsndchn1","chn_id":1,"chn_label":0,"cur_video_idx":2,"format":4,"resolution":35}]}`
	if string(b) != want {
		t.Errorf("channels\n got %s\nwant %s", b, want)
	}
}
