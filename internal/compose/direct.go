package compose

import (
	"image"
	"time"
)

// Pictures read straight into the canvas (docs/composition.md "Pipes and
// sockets"). While the compositor has one canvas size and its layout
// tiles the canvas, an input shown in exactly one pane has its decoded
// pictures read from its decoder's socket straight into that pane's
// region of the canvas being filled (next), row by row, instead of into a
// buffer of its own that the composition would then copy: a copy of
// every decoded picture less. At each composition tick that canvas is
// handed to the encoders as it is (its panes' pictures already in it)
// and becomes prev; a pane whose input sent no picture since is copied
// from prev, which the encoder does not give back before the next picture
// is in its pipe. A picture of another size than its pane (a decoder
// being replaced after a resize) is read into a buffer and scaled into
// the region. Inputs of other panes, of several panes, or of
// compositions with several output sizes are read into buffers as before.

// directPane is an input's place in the canvas; guarded by the
// compositor's cmu.
type directPane struct {
	on     bool
	rect   image.Rectangle // its pane in the canvas
	fresh  bool            // a picture was read into next since the last tick
	inPrev bool            // prev shows the input's latest picture in rect
	shown  bool            // the canvas being composed shows it (draw)
	scaled bool            // its latest picture is the input's own (another size), drawn scaled
	at     time.Time       // when its latest picture came
}

// assignDirect gives each input its pane for reading straight into the
// canvas (or none); caller holds c.cmu. An input leaving its pane keeps
// its latest picture as a picture of its own.
func (c *Compositor) assignDirect(scene Scene, srcs []*Input, size image.Point, ok bool) {
	rects := map[*Input]image.Rectangle{}
	count := map[*Input]int{}
	if ok && covers(scene.Layout, size.X, size.Y) {
		for i, r := range Panes(scene.Layout) {
			if i < len(srcs) && srcs[i] != nil {
				rects[srcs[i]] = r.Pixels(size.X, size.Y)
				count[srcs[i]]++
			}
		}
	}
	for _, in := range c.directs {
		if r, keep := rects[in]; !keep || count[in] != 1 || r != in.dir.rect {
			c.undirect(in)
		}
	}
	c.directs = c.directs[:0]
	for in, r := range rects {
		if count[in] != 1 || r.Empty() {
			continue
		}
		if !in.dir.on {
			in.dir = directPane{on: true, rect: r}
		}
		c.directs = append(c.directs, in)
	}
}

// undirect ends in's reading into the canvas: its latest picture, which
// is in a canvas, becomes a picture of its own; caller holds c.cmu.
func (c *Compositor) undirect(in *Input) {
	d := in.dir
	in.dir = directPane{}
	var src *Frame
	switch {
	case !d.on, d.scaled:
		return // its latest picture is its own
	case d.fresh:
		src = c.next
	case d.inPrev:
		src = c.prev
	}
	if src == nil {
		return
	}
	f := in.pics.buffer(d.rect.Dx(), d.rect.Dy())
	copyRegion(f, image.Rect(0, 0, f.W, f.H), src, d.rect)
	in.pics.set(&picture{f: f, at: d.at, pooled: true})
}

// directPicture takes a picture in a buffer for in's pane when it reads
// into the canvas: scaled into the region, and kept as the input's
// latest picture (Latest gives the decoded picture, not its pane);
// false when in reads into its own pictures.
func (c *Compositor) directPicture(in *Input, f *Frame, pooled bool) bool {
	c.cmu.Lock()
	defer c.cmu.Unlock()
	if !in.dir.on || c.next == nil {
		return false
	}
	now := time.Now()
	c.next.Draw(in.dir.rect, f)
	in.dir.fresh, in.dir.at, in.dir.scaled = true, now, true
	in.pics.set(&picture{f: f, at: now, pooled: pooled})
	return true
}

// copyRegion copies r of src into dr of dst (same size).
func copyRegion(dst *Frame, dr image.Rectangle, src *Frame, r image.Rectangle) {
	w, h := r.Dx(), r.Dy()
	for y := 0; y < h; y++ {
		copy(dst.Y[(dr.Min.Y+y)*dst.W+dr.Min.X:][:w], src.Y[(r.Min.Y+y)*src.W+r.Min.X:][:w])
	}
	cw, sw, dw := w/2, src.W/2, dst.W/2
	for y := 0; y < h/2; y++ {
		so, do := (r.Min.Y/2+y)*sw+r.Min.X/2, (dr.Min.Y/2+y)*dw+dr.Min.X/2
		copy(dst.U[do:][:cw], src.U[so:][:cw])
		copy(dst.V[do:][:cw], src.V[so:][:cw])
	}
}

// region is r of canvas f as a frame of its own (for Latest).
func region(f *Frame, r image.Rectangle) *Frame {
	out := NewFrame(r.Dx(), r.Dy())
	copyRegion(out, image.Rect(0, 0, out.W, out.H), f, r)
	return out
}

// readDirect reads the picture of w×h that comes next from pr straight
// into in's pane of the canvas, when in reads into the canvas, the pane
// has that size and the whole picture is waiting (the read never waits
// holding the canvas); handled false leaves the picture to be read into
// a buffer.
func (c *Compositor) readDirect(in *Input, pr *pictureReader, w, h int) (handled bool, err error) {
	c.cmu.Lock()
	defer c.cmu.Unlock()
	d := &in.dir
	if !d.on || c.next == nil || d.rect.Dx() != w || d.rect.Dy() != h || pr.waiting() < w*h*3/2 {
		return false, nil
	}
	if err := pr.readRegion(c.next, d.rect); err != nil {
		return true, err
	}
	d.fresh, d.at, d.scaled = true, time.Now(), false
	c.directReads.Add(1)
	return true, nil
}
