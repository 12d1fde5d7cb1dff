package rtc

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/compose"
	"github.com/confer-platform/confer/internal/sfu"
)

// Composer runs a compositor (internal/compose) for each conference of
// the node's SFU whose picture composition has receivers of the composed
// picture (sfu.Composer; docs/composition.md). It follows
// the composition as the SFU holds it: each pane's terminal is read
// through an invisible tap into a decoder, the layout, panes and names
// are the compositor's scene, and each codec the receivers need is one
// encoder whose packets the SFU forwards as the composed track.
type Composer struct {
	sfu *sfu.SFU
	log *slog.Logger
	cfg ComposerConfig

	mu      sync.Mutex
	running map[string]bool
	closed  bool
	wg      sync.WaitGroup
	stop    chan struct{}
}

// ComposerConfig sizes the composed picture.
type ComposerConfig struct {
	FFmpeg        string // "" ffmpeg on the PATH
	Width, Height int    // 1280×720
	Bitrate       int    // bits per second, 1.5 Mb/s
	FPS           int    // 30
}

// paneCodecs are the codecs a pane's tap accepts (its terminal's, without
// transcoding).
var paneCodecs = []sfu.LocalCodec{
	{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: 96},
	{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 102},
}

// composedPT is the payload type of each composed output (rewritten per
// receiver by the SFU).
var composedPT = map[string]uint8{"video/vp8": 96, "video/h264": 102}

// NewComposer returns the node's composer; compose.ErrNoFFmpeg when the
// node cannot compose.
func NewComposer(s *sfu.SFU, log *slog.Logger, cfg ComposerConfig) (*Composer, error) {
	ff, err := compose.FindFFmpeg(cfg.FFmpeg)
	if err != nil {
		return nil, err
	}
	cfg.FFmpeg = ff
	if cfg.Width <= 0 || cfg.Height <= 0 {
		cfg.Width, cfg.Height = 1280, 720
	}
	if cfg.Bitrate <= 0 {
		cfg.Bitrate = 1_500_000
	}
	if log == nil {
		log = slog.Default()
	}
	return &Composer{sfu: s, log: log, cfg: cfg, running: map[string]bool{}, stop: make(chan struct{})}, nil
}

// Wake starts following the conference's composition (sfu.Composer).
func (c *Composer) Wake(confID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.running[confID] {
		return
	}
	c.running[confID] = true
	c.wg.Add(1)
	go c.follow(confID)
}

// Close stops every compositor and waits for them.
func (c *Composer) Close() {
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		close(c.stop)
	}
	c.mu.Unlock()
	c.wg.Wait()
}

// Running is the number of conferences being composed now.
func (c *Composer) Running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.running)
}

// follow converges the conference's compositors on its compositions
// (the conference's, and the self compositions of its terminals and TV
// walls that have receivers) at every change, until the conference ends
// in the SFU or nothing needs composing.
func (c *Composer) follow(confID string) {
	defer c.wg.Done()
	comps := map[string]*composition{}
	closeAll := func() {
		for k, r := range comps {
			r.close()
			delete(comps, k)
		}
	}
	defer closeAll()
	for {
		list, changed, ok := c.sfu.Compositions(confID)
		if live := composing(list); ok && len(live) > 0 {
			seen := map[string]bool{}
			for _, st := range live {
				r := comps[st.Key]
				if r == nil {
					r = &composition{c: c, conf: confID, key: st.Key, taps: map[string]*paneTap{}, outs: map[string]*composedOut{}}
					comps[st.Key] = r
				}
				r.apply(st)
				seen[st.Key] = true
			}
			for k, r := range comps {
				if !seen[k] {
					r.close()
					delete(comps, k)
				}
			}
		} else {
			closeAll()
			c.mu.Lock()
			// A Wake after this reading finds the conference not running
			// and starts again.
			list2, _, ok2 := c.sfu.Compositions(confID)
			if !ok2 || len(composing(list2)) == 0 {
				delete(c.running, confID)
				c.mu.Unlock()
				return
			}
			c.mu.Unlock()
			continue
		}
		select {
		case <-changed:
		case <-c.stop:
			c.mu.Lock()
			delete(c.running, confID)
			c.mu.Unlock()
			return
		}
	}
}

// composing are the compositions that need a compositor: receivers of
// the composed picture while a composition runs, or of the speaker in a
// codec it does not send.
func composing(list []sfu.Composition) []sfu.Composition {
	var out []sfu.Composition
	for _, st := range list {
		if len(st.Codecs) > 0 && (st.Layout > 0 || st.Speaker != "") {
			out = append(out, st)
		}
	}
	return out
}

// composition is the compositor of one picture of a conference
// (sfu.Composition.Key) with its taps and outputs.
type composition struct {
	c      *Composer
	conf   string
	key    string
	comp   *compose.Compositor
	failed bool // compose.New failed: logged once
	taps   map[string]*paneTap
	outs   map[string]*composedOut
}

// paneTap is the tap that feeds one pane's terminal into its decoder.
type paneTap struct {
	local *sfu.Local
}

// composedOut is one encoded output and the SFU track it feeds.
type composedOut struct {
	spec  compose.OutputSpec
	track *sfu.ComposedTrack
}

func (r *composition) apply(st sfu.Composition) {
	if r.comp == nil {
		comp, err := compose.New(compose.Config{FFmpeg: r.c.cfg.FFmpeg, FPS: r.c.cfg.FPS})
		if err != nil {
			if !r.failed {
				r.c.log.Error("composition not composed", "conf_id", r.conf, "err", err)
				r.failed = true
			}
			return
		}
		r.comp = comp
	}
	// Panes: a tap per terminal shown.
	shown := map[string]bool{}
	scene := compose.Scene{Layout: st.Layout, ShowNames: st.ShowNames}
	panes := st.Panes
	if st.Layout == 0 { // transcoding the speaker: one pane, no name
		scene = compose.Scene{Layout: 1}
		panes = []string{st.Speaker}
	}
	for _, mt := range panes {
		scene.Panes = append(scene.Panes, compose.Pane{Input: mt, Name: st.Names[mt]})
		if mt != "" {
			shown[mt] = true
		}
	}
	for mt, t := range r.taps {
		if !shown[mt] {
			t.local.Close()
			r.comp.DropInput(mt)
			delete(r.taps, mt)
		}
	}
	for mt := range shown {
		if r.taps[mt] == nil {
			if t := r.openTap(mt); t != nil {
				r.taps[mt] = t
			}
		}
	}
	r.comp.SetScene(scene)
	// Outputs: one encoder per codec the receivers need.
	want := map[string]bool{}
	for _, m := range st.Codecs {
		want[m] = true
	}
	for m, o := range r.outs {
		if !want[m] {
			o.track.Close()
			r.comp.CloseOutput(o.spec)
			delete(r.outs, m)
		}
	}
	for m := range want {
		if r.outs[m] == nil {
			if o := r.openOutput(m); o != nil {
				r.outs[m] = o
			}
		}
	}
}

// A pane's input is told its source's codec parameters by the SFU (the
// sprop-parameter-sets of an H.264 terminal that sends its parameter sets
// only in its SDP).
var _ sfu.FormatWriter = (*compose.Input)(nil)

func (r *composition) openTap(mt string) *paneTap {
	pts := map[uint8]string{}
	for _, c := range paneCodecs {
		pts[c.PayloadType] = c.MimeType
	}
	var local atomic.Pointer[sfu.Local]
	in := r.comp.Input(mt, pts, func() {
		if l := local.Load(); l != nil {
			l.RequestKeyFrame()
		}
	})
	l, err := r.c.sfu.OpenLocal(context.Background(), r.conf, sfu.LocalOptions{Receive: sfu.SourceTerminal, Terminal: mt,
		VideoOut: in, VideoCodecs: paneCodecs})
	if err != nil {
		r.c.log.Warn("composition pane not tapped", "conf_id", r.conf, "mt_id", mt, "err", err)
		r.comp.DropInput(mt)
		return nil
	}
	local.Store(l)
	l.RequestKeyFrame()
	return &paneTap{local: l}
}

func (r *composition) openOutput(mime string) *composedOut {
	spec := compose.OutputSpec{MimeType: mime, Width: r.c.cfg.Width, Height: r.c.cfg.Height, Bitrate: r.c.cfg.Bitrate,
		PayloadType: composedPT[mime]}
	var out atomic.Pointer[compose.Output]
	codec := sfu.LocalCodec{MimeType: canonicalMime(mime), ClockRate: 90000, PayloadType: spec.PayloadType}
	track, err := r.c.sfu.PublishComposed(r.conf, r.key, codec, func() {
		if o := out.Load(); o != nil {
			o.KeyFrame()
		}
	})
	if err != nil {
		if !errors.Is(err, sfu.ErrNotFound) {
			r.c.log.Warn("composed picture not published", "conf_id", r.conf, "codec", mime, "err", err)
		}
		return nil
	}
	o, err := r.comp.Output(spec, track)
	if err != nil {
		track.Close()
		r.c.log.Error("composed picture not encoded", "conf_id", r.conf, "codec", mime, "err", err)
		return nil
	}
	out.Store(o)
	return &composedOut{spec: spec, track: track}
}

// close stops the compositor, its taps and its tracks.
func (r *composition) close() {
	for mt, t := range r.taps {
		t.local.Close()
		delete(r.taps, mt)
	}
	for m, o := range r.outs {
		o.track.Close()
		delete(r.outs, m)
	}
	if r.comp != nil {
		r.comp.Close()
		r.comp = nil
	}
}

// canonicalMime is a lower-case MIME type as webrtc names it.
func canonicalMime(m string) string {
	switch strings.ToLower(m) {
	case "video/vp8":
		return webrtc.MimeTypeVP8
	case "video/h264":
		return webrtc.MimeTypeH264
	}
	return m
}
