package vc

import (
	"context"
	"math"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
)

// Per-participant call quality (Confer's extension, issue 41;
// docs/media.md "Call quality"): each online terminal's channels as its
// media session carries them, with loss and jitter.

var qualityKinds = map[media.ChannelKind]string{media.ChannelAudio: "audio", media.ChannelVideo: "video", media.ChannelContent: "content"}

// getQuality answers vc.confs.quality.get.
func (m *Module) getQuality(ctx context.Context, r *api.Request) (*model.VCConfsQualityGetReply, error) {
	_, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	qs, err := m.engine.Quality(ctx, ec)
	if err != nil {
		return nil, err
	}
	var out model.VCConfsQualityGetReply
	for _, q := range qs {
		chs := make([]model.VCConfsQualityGetReplyMtChannel, 0, len(q.Channels))
		for _, c := range q.Channels {
			dir := "receive"
			if c.Send {
				dir = "send"
			}
			chs = append(chs, model.VCConfsQualityGetReplyMtChannel{Kind: qualityKinds[c.Kind], Direction: dir, Codec: c.MimeType,
				Width: c.Width, Height: c.Height, Bitrate: c.Bitrate, Loss: round2(c.LossPct), Jitter: round2(c.JitterMs),
				Reported: boolInt(c.Reported)})
		}
		out.Mts = append(out.Mts, model.VCConfsQualityGetReplyMt{MtID: q.Terminal.MtID(), Alias: q.Terminal.Alias(),
			Measured: boolInt(q.Measured), Channels: chs})
	}
	return &out, nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
