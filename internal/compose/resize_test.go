package compose

import (
	"fmt"
	"image"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
)

// layerSwitch forwards the packets of one source encoder at a time to an
// input with consecutive sequence numbers, as the SFU forwards the layer
// a receiver gets of a simulcast publisher.
type layerSwitch struct {
	mu  sync.Mutex
	in  *Input
	seq uint16
}

func (s *layerSwitch) WriteVideo(p *rtp.Packet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := p.Header
	h.SequenceNumber = s.seq
	s.seq++
	_, _ = s.in.WriteRTP(&h, p.Payload)
}

// TestSourceChangesResolution: a source sends 640×360 pictures of one
// colour, then from a key frame on 320×180 pictures of another (a camera
// reconfigured, a simulcast layer switch), into the input of a pane
// larger than the new size (its decoder does not scale) and into an
// input of no pane (target 0). Each input's decoded pictures are whole
// pictures of either colour at the source's size, the new one at last
// (one decoder throughout would scale them to its first picture's
// size), and the composed pane shows the new colour.
func TestSourceChangesResolution(t *testing.T) {
	needFFmpeg(t)
	for _, mime := range []string{"video/H264", "video/VP8"} {
		t.Run(mime, func(t *testing.T) {
			c := newCompositor(t, Config{})
			defer c.Close()
			ff, _ := FindFFmpeg("")
			pts := map[uint8]string{100: mime}
			var cur atomic.Pointer[Output]
			askKey := func() {
				if o := cur.Load(); o != nil {
					o.KeyFrame()
				}
			}
			paned := c.Input("a", pts, askKey)
			bare := NewInput(ff, pts, askKey) // no pane: target 0
			defer bare.Close()
			c.SetScene(Scene{Layout: 1, Panes: []Pane{{Input: "a"}}})
			rx := newReceiver(t, mime, 100)
			if _, err := c.Output(OutputSpec{MimeType: mime, Width: 640, Height: 360, Bitrate: 800_000, PayloadType: 100}, receiver{rx}); err != nil {
				t.Fatal(err)
			}
			sinks := []*layerSwitch{{in: paned}, {in: bare}}
			fanout := sinkFunc(func(p *rtp.Packet) {
				for _, s := range sinks {
					s.WriteVideo(p)
				}
			})

			// run encodes pictures of size×col into the inputs until stop.
			run := solidSource(t, ff, mime, fanout, &cur)
			big, small := image.Pt(640, 360), image.Pt(320, 180)
			colA, colB := palette[0], palette[2]

			stop := run(big, colA)
			for _, in := range []*Input{paned, bare} {
				waitInput(t, in, big, colA)
			}
			waitPicture(t, rx, panesShow(1, []YUV{colA}))
			stop()

			// The new size from a key frame on (the new encoder's first
			// frame), sequence numbers continuing.
			stop = run(small, colB)
			defer stop()
			for _, in := range []*Input{paned, bare} {
				waitInput(t, in, small, colB)
			}
			waitPicture(t, rx, panesShow(1, []YUV{colB}))
		})
	}
}

// waitInput waits, picture by picture, for in to decode a size picture of
// colour want; every picture before is a whole picture of a source's
// colour (palette[0] or palette[2]) at one of its sizes.
func waitInput(t *testing.T, in *Input, size image.Point, want YUV) {
	t.Helper()
	seen := uint64(0)
	var last *Frame
	for tries := 0; tries < 300; {
		n := in.Frames()
		if n == seen {
			if pastPatience(t) {
				t.Fatalf("no %v picture of colour %v: the input decoded nothing after %d pictures until the test's deadline", size, want, seen)
			}
			time.Sleep(5 * time.Millisecond)
			continue
		}
		seen, tries = n, tries+1
		f, _ := in.Latest()
		last = f
		if err := wholePicture(f); err != nil {
			t.Fatal(err)
		}
		if f.W == size.X && f.H == size.Y && near(at(f, image.Rect(0, 0, f.W, f.H)), want) {
			return
		}
	}
	t.Fatalf("no %v picture of colour %v after 300 pictures; the last %dx%d of colour %v", size, want, last.W, last.H, at(last, image.Rect(0, 0, last.W, last.H)))
}

// wholePicture checks that f is 640×360 or 320×180 and of one of the
// sources' colours at its centre and in its four corners.
func wholePicture(f *Frame) error {
	if s := image.Pt(f.W, f.H); s != image.Pt(640, 360) && s != image.Pt(320, 180) {
		return fmt.Errorf("a decoded picture of %v: not the source's size", s)
	}
	var first YUV
	for i, r := range []image.Rectangle{
		image.Rect(0, 0, f.W, f.H),
		image.Rect(0, 0, 16, 16), image.Rect(f.W-16, 0, f.W, 16),
		image.Rect(0, f.H-16, 16, f.H), image.Rect(f.W-16, f.H-16, f.W, f.H),
	} {
		got := at(f, r)
		if !near(got, palette[0]) && !near(got, palette[2]) {
			return fmt.Errorf("a decoded %dx%d picture shows %v at %v: a broken picture", f.W, f.H, got, r)
		}
		if i == 0 {
			first = got
		} else if !near(got, first) {
			return fmt.Errorf("a decoded %dx%d picture shows %v at its centre and %v at %v: a broken picture", f.W, f.H, first, got, r)
		}
	}
	return nil
}

// paramSets rewrites an H.264 source's packets as terminals that send
// their parameter sets apart do: the STAP-A of SPS and PPS that starts
// each key frame is sent as an access unit of its own (its marker set)
// when apart, and only the first of the whole run is sent when once (a
// later IDR comes without any: the parameters are unchanged).
type paramSets struct {
	next  Sink
	apart bool
	once  bool
	sent  bool
}

func (s *paramSets) WriteVideo(p *rtp.Packet) {
	if len(p.Payload) > 0 && p.Payload[0]&0x1f == 24 {
		if s.once && s.sent {
			return
		}
		s.sent = true
		if s.apart {
			q := *p
			q.Header.Marker = true
			p = &q
		}
	}
	s.next.WriteVideo(p)
}

// TestH264ParameterSetsApart: an H.264 source whose parameter sets do not
// come inside its IDR access units.
//   - apart: 640×360 pictures of one colour, then from a key frame on
//     320×180 of another, each IDR preceded by its SPS and PPS sent as an
//     access unit of their own; the input decodes the new size (a decoder
//     of the new stream, started with the SPS seen before the IDR), every
//     picture whole.
//   - restart: the SPS and PPS only once, in the first key frame; the
//     source then restarts (a new encoder, the same size and parameters,
//     another colour) and the pane shrinks (its decoder is replaced at the
//     next IDR): the new decoder gets the parameter sets seen before and
//     decodes the restarted stream at the pane's size.
func TestH264ParameterSetsApart(t *testing.T) {
	needFFmpeg(t)
	for _, tc := range []struct {
		name        string
		apart, once bool
		second      image.Point
	}{
		{"apart", true, false, image.Pt(320, 180)},
		{"restart", false, true, image.Pt(640, 360)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCompositor(t, Config{})
			defer c.Close()
			ff, _ := FindFFmpeg("")
			pts := map[uint8]string{100: "video/H264"}
			var cur atomic.Pointer[Output]
			askKey := func() {
				if o := cur.Load(); o != nil {
					o.KeyFrame()
				}
			}
			in := c.Input("a", pts, askKey)
			c.SetScene(Scene{Layout: 1, Panes: []Pane{{Input: "a"}}})
			if _, err := c.Output(OutputSpec{MimeType: "video/H264", Width: 640, Height: 360, Bitrate: 800_000, PayloadType: 100}, sinkFunc(func(*rtp.Packet) {})); err != nil {
				t.Fatal(err)
			}
			sw := &layerSwitch{in: in}
			var mu sync.Mutex
			rewrite := &paramSets{next: sw, apart: tc.apart, once: tc.once}
			sink := sinkFunc(func(p *rtp.Packet) {
				mu.Lock()
				defer mu.Unlock()
				rewrite.WriteVideo(p)
			})
			run := solidSource(t, ff, "video/H264", sink, &cur)
			colA, colB := palette[0], palette[2]
			stop := run(image.Pt(640, 360), colA)
			waitInput(t, in, image.Pt(640, 360), colA)
			stop()

			want := tc.second
			if tc.once {
				// The pane shrinks to a quarter: its decoder is replaced
				// (scaling to 320×180) at the restarted source's IDR.
				c.SetScene(Scene{Layout: 5, Panes: []Pane{{Input: "a"}}})
				want = image.Pt(320, 180)
			}
			stop = run(tc.second, colB)
			defer stop()
			waitInput(t, in, want, colB)
		})
	}
}

// solidSource returns run: it encodes pictures of size×col at 30 fps in
// mime into sink (the output in cur) until stop.
func solidSource(t *testing.T, ff, mime string, sink Sink, cur *atomic.Pointer[Output]) func(size image.Point, col YUV) (stop func()) {
	return func(size image.Point, col YUV) (stop func()) {
		o, err := newOutput(ff, 30, OutputSpec{MimeType: mime, Width: size.X, Height: size.Y, Bitrate: 500_000, PayloadType: 100}, sink)
		if err != nil {
			t.Fatal(err)
		}
		cur.Store(o)
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := solid(size.X, size.Y, col)
			for {
				select {
				case <-done:
					return
				case <-time.After(33 * time.Millisecond):
					o.push(f)
				}
			}
		}()
		return func() { close(done); wg.Wait(); o.Close() }
	}
}
