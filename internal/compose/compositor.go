// Package compose is the media plane's compositor (docs/composition.md): it decodes the video of a picture composition's
// panes, scales each into its pane of the layout (reference A2), draws the
// terminals' names when the composition shows them, shows a placeholder
// for a pane without a picture, and encodes the picture once per distinct
// output (codec, size, bitrate), whoever and however many receive it.
// It knows nothing of the SFU: internal/rtc connects its inputs and
// outputs to the conference's tracks.
package compose

import (
	"image"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Scene is what the composition shows: a layout style of reference A2 and
// its panes by channel index.
type Scene struct {
	Layout    int
	Panes     []Pane
	ShowNames bool // show_mt_name: each pane's name at its bottom left
}

// Pane is one pane: the input it shows ("" none) and the name drawn on it.
type Pane struct {
	Input string
	Name  string
}

// Config configures a compositor.
type Config struct {
	FFmpeg string // path of ffmpeg; "" looks it up on the PATH
	FPS    int    // composed pictures a second (30)
	// Stale is how long a pane keeps an input's last picture when no new
	// one comes; then it shows the placeholder (1 s).
	Stale time.Duration
}

// Compositor composes one picture composition.
type Compositor struct {
	cfg    Config
	ffmpeg string

	mu      sync.Mutex
	inputs  map[string]*Input
	scene   Scene
	version uint64 // scene changes
	outputs map[OutputSpec]*Output

	// Reading pictures straight into the canvas (direct.go): cmu guards
	// next (the canvas being filled), prev (the last handed to the
	// encoders), directs and every input's dir.
	cmu        sync.Mutex
	next, prev *Frame
	directs    []*Input
	// directReads counts the pictures read straight into the canvas.
	directReads atomic.Uint64

	composed atomic.Uint64 // pictures composed
	shown    atomic.Uint64 // the scene version the last picture showed
	wake     chan struct{} // closed and replaced after each picture
	stop     chan struct{}
	done     chan struct{}
}

// New returns a running compositor; ErrNoFFmpeg when ffmpeg is missing.
func New(cfg Config) (*Compositor, error) {
	ff, err := FindFFmpeg(cfg.FFmpeg)
	if err != nil {
		return nil, err
	}
	if cfg.FPS <= 0 {
		cfg.FPS = 30
	}
	if cfg.Stale <= 0 {
		cfg.Stale = time.Second
	}
	c := &Compositor{cfg: cfg, ffmpeg: ff, inputs: map[string]*Input{}, outputs: map[OutputSpec]*Output{},
		wake: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// Input returns the input named id, creating it for the payload types
// pts (MIME types by payload type); keyFrame asks its source for a key
// frame.
func (c *Compositor) Input(id string, pts map[uint8]string, keyFrame func()) *Input {
	c.mu.Lock()
	defer c.mu.Unlock()
	in := c.inputs[id]
	if in == nil {
		in = NewInput(c.ffmpeg, pts, keyFrame)
		in.comp = c
		c.inputs[id] = in
		c.retarget()
	}
	return in
}

// DropInput stops and forgets an input.
func (c *Compositor) DropInput(id string) {
	c.mu.Lock()
	in := c.inputs[id]
	delete(c.inputs, id)
	c.mu.Unlock()
	if in != nil {
		in.Close()
	}
}

// SetScene sets what the composition shows from the next picture on; it
// returns the scene's version (Shown reports when a picture showed it).
func (c *Compositor) SetScene(s Scene) uint64 {
	s.Panes = slices.Clone(s.Panes)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scene = s
	c.version++
	c.retarget()
	return c.version
}

// retarget gives each input the size of the largest pane it fills in the
// scene at the outputs' sizes; caller holds c.mu.
func (c *Compositor) retarget() {
	targets := map[string]image.Point{}
	for i, r := range Panes(c.scene.Layout) {
		if i >= len(c.scene.Panes) || c.scene.Panes[i].Input == "" {
			continue
		}
		id := c.scene.Panes[i].Input
		for spec := range c.outputs {
			px := r.Pixels(spec.Width, spec.Height)
			t := targets[id]
			if px.Dx()*px.Dy() > t.X*t.Y {
				targets[id] = image.Pt(px.Dx(), px.Dy())
			}
		}
	}
	for id, in := range c.inputs {
		in.setTarget(targets[id])
	}
}

// Shown is the version of the scene the last composed picture showed.
func (c *Compositor) Shown() uint64 { return c.shown.Load() }

// Composed is the number of pictures composed, and a channel closed when
// the next one is.
func (c *Compositor) Composed() (uint64, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.composed.Load(), c.wake
}

// Output returns the output of spec, starting its encoder when no
// receiver had it yet; sink receives its packets (the sink of the first
// call for a spec is kept).
func (c *Compositor) Output(spec OutputSpec, sink Sink) (*Output, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o := c.outputs[spec]; o != nil {
		return o, nil
	}
	o, err := newOutput(c.ffmpeg, c.cfg.FPS, spec, sink)
	if err != nil {
		return nil, err
	}
	c.outputs[spec] = o
	c.retarget()
	return o, nil
}

// CloseOutput stops the output of spec.
func (c *Compositor) CloseOutput(spec OutputSpec) {
	c.mu.Lock()
	o := c.outputs[spec]
	delete(c.outputs, spec)
	c.retarget()
	c.mu.Unlock()
	if o != nil {
		o.Close()
	}
}

// Close stops the compositor, its inputs and its outputs.
func (c *Compositor) Close() {
	select {
	case <-c.stop:
		return
	default:
		close(c.stop)
	}
	<-c.done
	c.mu.Lock()
	ins, outs := c.inputs, c.outputs
	c.inputs, c.outputs = map[string]*Input{}, map[OutputSpec]*Output{}
	c.mu.Unlock()
	for _, in := range ins {
		in.Close()
	}
	for _, o := range outs {
		o.Close()
	}
}

// run composes a picture per output size every 1/FPS second.
func (c *Compositor) run() {
	defer close(c.done)
	t := time.NewTicker(time.Second / time.Duration(c.cfg.FPS))
	defer t.Stop()
	canvases := map[image.Point]*Frame{}
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		c.mu.Lock()
		scene, version := c.scene, c.version
		var outs []*Output
		for _, o := range c.outputs {
			outs = append(outs, o)
		}
		srcs := make([]*Input, len(scene.Panes))
		for i, p := range scene.Panes {
			srcs[i] = c.inputs[p.Input]
		}
		c.mu.Unlock()
		now := time.Now()
		used := map[image.Point]bool{}
		lastOf := map[image.Point]int{} // the last output of each size takes the canvas itself
		ready := map[image.Point]bool{} // an encoder of the size can take a picture
		for i, o := range outs {
			size := image.Pt(o.spec.Width, o.spec.Height)
			lastOf[size] = i
			ready[size] = ready[size] || o.ready()
		}
		// One canvas size: pictures are read straight into its canvas.
		var dsize image.Point
		for size := range lastOf {
			dsize = size
		}
		direct := len(lastOf) == 1
		c.cmu.Lock()
		if !direct || c.next == nil || c.next.W != dsize.X || c.next.H != dsize.Y {
			c.assignDirect(scene, srcs, dsize, false)
			c.next, c.prev = nil, nil
			if direct {
				c.next = NewFrame(dsize.X, dsize.Y)
			}
		}
		c.assignDirect(scene, srcs, dsize, direct)
		var drawn *Frame // the direct canvas composed and handed over
		for i, o := range outs {
			size := image.Pt(o.spec.Width, o.spec.Height)
			if !ready[size] {
				// Every encoder of the size is still busy with the
				// last picture: this one would be dropped, so it is
				// not drawn (a machine short of CPU spends none on it).
				o.pushed.Add(1)
				o.dropped.Add(1)
				used[size] = true
				continue
			}
			f := canvases[size]
			if direct {
				f = c.next
			}
			if !used[size] {
				if f == nil {
					f = NewFrame(size.X, size.Y)
				}
				c.draw(f, scene, srcs, now, direct)
				used[size] = true
				drawn = f
			}
			o.give(&f, lastOf[size] == i)
			if direct {
				c.next = f // a buffer of the encoder's when it took the canvas
			} else {
				canvases[size] = f
			}
		}
		if drawn != nil {
			c.prev = drawn
			for _, in := range c.directs {
				in.dir.inPrev, in.dir.fresh, in.dir.shown = in.dir.shown, false, false
			}
		}
		c.cmu.Unlock()
		for size := range canvases {
			if !used[size] {
				delete(canvases, size)
			}
		}
		c.shown.Store(version)
		c.mu.Lock()
		c.composed.Add(1)
		close(c.wake)
		c.wake = make(chan struct{})
		c.mu.Unlock()
	}
}

// Draw composes scene onto f from the inputs' latest pictures; with
// direct, f is the canvas the inputs' pictures are read into (caller
// holds c.cmu).
func (c *Compositor) draw(f *Frame, scene Scene, srcs []*Input, now time.Time, direct bool) {
	if !covers(scene.Layout, f.W, f.H) {
		f.Fill(image.Rect(0, 0, f.W, f.H), Black)
	}
	for i, r := range Panes(scene.Layout) {
		px := r.Pixels(f.W, f.H)
		var pane Pane
		if i < len(scene.Panes) {
			pane = scene.Panes[i]
		}
		drawn := false
		var d *directPane // the pane's input reads into f
		if direct && i < len(srcs) && srcs[i] != nil && srcs[i].dir.on && srcs[i].dir.rect == px {
			d = &srcs[i].dir
		}
		switch {
		case d != nil && d.fresh && now.Sub(d.at) < c.cfg.Stale:
			drawn = true // read into f since the last picture
		case d != nil && d.inPrev && now.Sub(d.at) < c.cfg.Stale:
			if c.prev != nil && c.prev != f {
				copyRegion(f, px, c.prev, px)
			}
			drawn = true
		case i < len(srcs) && srcs[i] != nil:
			if p := srcs[i].pics.acquire(); p != nil {
				if now.Sub(p.at) < c.cfg.Stale {
					f.Draw(px, p.f)
					drawn = true
					if d != nil {
						d.at = p.at
					}
				}
				srcs[i].pics.release(p)
			}
		}
		if d != nil {
			d.shown = drawn
		}
		if !drawn {
			f.Fill(px, Placeholder)
		}
		if scene.ShowNames && pane.Name != "" {
			f.Label(px, pane.Name)
		}
	}
}
