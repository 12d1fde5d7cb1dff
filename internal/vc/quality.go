package vc

import (
	"context"
	"math"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// Per-participant call quality (Confer's extension, issue 41;
// docs/media.md "Call quality"): each online terminal's channels as its
// media session carries them, with loss and jitter.

var qualityKinds = map[media.ChannelKind]string{media.ChannelAudio: "audio", media.ChannelVideo: "video", media.ChannelContent: "content"}

// getQuality answers vc.confs.quality.get.
func (m *Module) getQuality(ctx context.Context, r *api.Request) (wire.Object, error) {
	_, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	qs, err := m.engine.Quality(ctx, ec)
	if err != nil {
		return nil, err
	}
	mts := make([]map[string]any, 0, len(qs))
	for _, q := range qs {
		chs := make([]any, 0, len(q.Channels))
		for _, c := range q.Channels {
			dir := "receive"
			if c.Send {
				dir = "send"
			}
			chs = append(chs, map[string]any{
				"kind": qualityKinds[c.Kind], "direction": dir, "codec": c.MimeType, "width": c.Width, "height": c.Height,
				"bitrate": c.Bitrate, "loss": round2(c.LossPct), "jitter": round2(c.JitterMs), "reported": boolInt(c.Reported),
			})
		}
		mts = append(mts, map[string]any{"mt_id": q.Terminal.MtID(), "alias": q.Terminal.Doc["alias"],
			"measured": boolInt(q.Measured), "channels": chs})
	}
	fields := shape.Elem(r.Endpoint.Reply, "mts")
	out := make([]any, len(mts))
	for i, d := range mts {
		out[i] = shape.Project(d, fields)
	}
	return wire.Object{"mts": out}, nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
