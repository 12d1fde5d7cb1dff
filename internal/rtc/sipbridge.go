package rtc

import (
	"context"
	"errors"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/sip"
)

// SIPBridge puts SIP calls into the SFU as local endpoints (sip.Bridge):
// members that publish the terminal's RTP as it comes and receive the
// conference's audio mix (everyone but themselves) and the composed
// picture while a composition runs, otherwise the broadcast's video (the
// speaker, else the most recently active publisher) in the terminal's
// codecs (docs/sip-media.md "Media", docs/mixing.md and "Composed
// pictures").
type SIPBridge struct{ SFU *sfu.SFU }

var _ sip.Bridge = SIPBridge{}

// Open implements sip.Bridge.
func (b SIPBridge) Open(ctx context.Context, conf string, o sip.BridgeOptions) (sip.Endpoint, error) {
	// A SIP terminal takes one picture: the composition while one runs
	// (docs/composition.md).
	lo := sfu.LocalOptions{Member: true, MtID: o.MtID, Name: o.Name, Kind: sfu.KindSIP, Receive: sfu.SourceBroadcast,
		Composed: true, OnKeyFrameRequest: o.OnKeyFrameRequest, OnBitrateRequest: o.OnBitrateRequest}
	if o.Audio != nil {
		c := localCodec("audio", o.Audio)
		lo.PublishAudio, lo.AudioCodecs = &c, []sfu.LocalCodec{c}
		if o.AudioOut != nil {
			// The terminal hears the conference's mix without itself, in
			// its codec (docs/mixing.md).
			lo.AudioOut, lo.MixedAudio = o.AudioOut, true
		}
	}
	if o.Video != nil {
		c := localCodec("video", o.Video)
		lo.PublishVideo, lo.VideoCodecs = &c, []sfu.LocalCodec{c}
		if o.VideoOut != nil {
			lo.VideoOut = o.VideoOut
		}
	}
	var content sfu.LocalCodec
	if o.Content != nil { // the content m-line: the dual stream both ways (docs/sip-media.md "Content")
		content = localCodec("video", o.Content)
		lo.ScreenCodecs = []sfu.LocalCodec{content}
		if o.ContentOut != nil {
			lo.ScreenOut = o.ContentOut
		}
		lo.OnScreenKeyFrameRequest, lo.OnScreenStopped = o.OnContentKeyFrameRequest, o.OnContentStopped
	}
	l, err := b.SFU.OpenLocal(ctx, conf, lo)
	switch {
	case errors.Is(err, sfu.ErrFull), errors.Is(err, sfu.ErrUnavailable):
		return nil, media.ErrFull
	case errors.Is(err, sfu.ErrNotFound), errors.Is(err, sfu.ErrClosed):
		return nil, media.ErrEnded
	case errors.Is(err, sfu.ErrForbidden):
		return nil, media.ErrRefused
	case err != nil:
		return nil, err
	}
	if o.Content != nil {
		return sipContent{l, content}, nil
	}
	return l, nil
}

// sipContent is a call's endpoint with a content m-line: its screen is
// the terminal's content.
type sipContent struct {
	*sfu.Local
	codec sfu.LocalCodec
}

var _ sip.ContentEndpoint = sipContent{}

func (e sipContent) StartContent() error        { return e.StartScreen(e.codec) }
func (e sipContent) StopContent()               { e.StopScreen() }
func (e sipContent) WriteContent(p *rtp.Packet) { e.WriteScreen(p) }
func (e sipContent) RequestContentKeyFrame()    { e.RequestScreenKeyFrame() }

// localCodec is a SIP codec as the SFU names it (webrtc.MimeType*); an
// H.264 terminal's sprop-parameter-sets go with the fmtp of what it
// publishes (the compositor's decoder of it needs them when the terminal
// sends its parameter sets only there).
func localCodec(kind string, c *sip.Codec) sfu.LocalCodec {
	fmtp := c.Fmtp
	if c.Sprop != "" {
		fmtp += ";sprop-parameter-sets=" + c.Sprop
	}
	return sfu.LocalCodec{MimeType: kind + "/" + c.Name, ClockRate: c.ClockRate, Channels: c.Channels, PayloadType: c.PT, Fmtp: fmtp}
}
