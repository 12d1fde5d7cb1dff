package sip

import (
	"context"
	"sync"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/media"
)

// RTPWriter sends packets to the terminal (the SFU's subscriber side).
type RTPWriter interface {
	WriteRTP(h *rtp.Header, payload []byte) (int, error)
}

// BridgeOptions are what a call brings into the conference's media.
type BridgeOptions struct {
	MtID string // a dialled terminal the engine placed; "" for a caller
	Name string // a caller's name (Events.Joined registers it, Kind "sip")
	// Audio and Video are the terminal's negotiated codecs (nil: none):
	// what it publishes and what it accepts.
	Audio, Video      *Codec
	AudioOut          RTPWriter
	VideoOut          RTPWriter
	OnKeyFrameRequest func() // a subscriber needs a key frame of the terminal's video
	// OnBitrateRequest: the least cap of the subscribers of the
	// terminal's video changed (bits a second, 0 none; bandwidth.go).
	OnBitrateRequest func(bps int)
	// Content is the terminal's content m-line codec (nil: none,
	// content.go): it may present (ContentEndpoint) and ContentOut
	// receives the conference's dual stream.
	Content                  *Codec
	ContentOut               RTPWriter
	OnContentKeyFrameRequest func() // a subscriber needs a key frame of the terminal's content
	OnContentStopped         func() // the platform ended the terminal's share
}

// Endpoint is a call's place in the conference's media.
type Endpoint interface {
	MtID() string
	WriteAudio(p *rtp.Packet)
	WriteVideo(p *rtp.Packet)
	RequestKeyFrame()      // ask the sources the terminal receives for a key frame
	Close()                // ended by the engine: no report
	Leave(lost bool)       // the terminal left: Events.Left
	Done() <-chan struct{} // closed when ended by anyone
}

// ContentEndpoint is an Endpoint opened with BridgeOptions.Content.
type ContentEndpoint interface {
	Endpoint
	// StartContent makes the terminal's content the conference's dual
	// stream; an error refuses it (dual_mode).
	StartContent() error
	StopContent()
	WriteContent(p *rtp.Packet)
	RequestContentKeyFrame() // ask the dual stream's source for a key frame
}

// Bridge opens endpoints in the node's SFU. Open fails with media.ErrFull,
// media.ErrEnded or media.ErrRefused like Events.Joined.
type Bridge interface {
	Open(ctx context.Context, conf string, o BridgeOptions) (Endpoint, error)
}

// signalOnly is the bridge without an SFU (conferd --no-rtc): calls are
// placed and reported, and carry no media.
type signalOnly struct{ ev func() media.Events }

func (b signalOnly) Open(ctx context.Context, conf string, o BridgeOptions) (Endpoint, error) {
	mt := o.MtID
	if mt == "" {
		var err error
		if mt, err = b.ev().Joined(ctx, conf, media.Participant{Name: o.Name, Kind: Kind}); err != nil {
			return nil, err
		}
	}
	return &bare{ev: b.ev, conf: conf, mt: mt, done: make(chan struct{})}, nil
}

// Kind is the participant kind of a SIP caller (Events.Joined).
const Kind = "sip"

type bare struct {
	ev       func() media.Events
	conf, mt string
	once     sync.Once
	done     chan struct{}
}

func (e *bare) MtID() string           { return e.mt }
func (e *bare) WriteAudio(*rtp.Packet) {}
func (e *bare) WriteVideo(*rtp.Packet) {}
func (e *bare) RequestKeyFrame()       {}
func (e *bare) Done() <-chan struct{}  { return e.done }
func (e *bare) Close()                 { e.once.Do(func() { close(e.done) }) }
func (e *bare) Leave(lost bool) {
	e.once.Do(func() {
		close(e.done)
		ctx, cancel := context.WithTimeout(context.Background(), reportTimeout)
		defer cancel()
		_ = e.ev().Left(ctx, e.conf, e.mt, lost)
	})
}
