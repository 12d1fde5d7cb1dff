package engine

import (
	"context"

	"github.com/confer-platform/confer/internal/media"
)

// TerminalQuality is an online terminal's channels as its media session
// carries them, with their call quality (issue 41; docs/media.md "Call
// quality").
type TerminalQuality struct {
	Terminal Terminal
	Channels []media.Channel
	// Measured is false when this node carries no media session of the
	// terminal (a simulated call, a conference another node owns).
	Measured bool
}

// Quality lists c's online terminals with the channels of their media
// sessions (media.ChannelReader), in the order they were added.
func (e *Engine) Quality(ctx context.Context, c Conf) ([]TerminalQuality, error) {
	ts, err := e.List(ctx, c)
	if err != nil {
		return nil, err
	}
	r, _ := e.media.(media.ChannelReader)
	var out []TerminalQuality
	for _, t := range ts {
		if t.Rec.State != StateOnline {
			continue
		}
		q := TerminalQuality{Terminal: t}
		if r != nil {
			q.Channels, q.Measured = r.Channels(ctx, c.ConfID, t.MtID())
		}
		out = append(out, q)
	}
	return out, nil
}
