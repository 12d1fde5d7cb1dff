//go:build linux

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

// TestPicturesReadIntoTheCanvas: four H.264 sources of 640×360 in the
// four panes of a 1280×720 composition are read by their decoders
// straight into their panes of the canvas (no copy of their own). One
// source changes colour with every picture: every composed picture
// shows one colour from the top to the bottom of its pane (never parts
// of two pictures), each other pane its source's colour; the colour
// changes reach the receiver.
func TestPicturesReadIntoTheCanvas(t *testing.T) {
	needFFmpeg(t)
	c := newCompositor(t, Config{})
	defer c.Close()
	ff, _ := FindFFmpeg("")
	scene := Scene{Layout: 5}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	defer func() { close(stop); wg.Wait() }()
	for p := 0; p < 4; p++ {
		id := fmt.Sprint("mt", p)
		var cur atomic.Pointer[Output]
		in := c.Input(id, map[uint8]string{100: "video/H264"}, func() {
			if o := cur.Load(); o != nil {
				o.KeyFrame()
			}
		})
		scene.Panes = append(scene.Panes, Pane{Input: id})
		var mu sync.Mutex
		src, err := newOutput(ff, 30, OutputSpec{MimeType: "video/H264", Width: 640, Height: 360, Bitrate: 800_000, PayloadType: 100},
			sinkFunc(func(pk *rtp.Packet) { mu.Lock(); defer mu.Unlock(); _, _ = in.WriteRTP(&pk.Header, pk.Payload) }))
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		cur.Store(src)
		pics := []*Frame{solid(640, 360, palette[p+2]), solid(640, 360, palette[p+2])}
		if p == 0 {
			pics = []*Frame{solid(640, 360, palette[0]), solid(640, 360, palette[1])}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(33 * time.Millisecond):
					src.push(pics[i%2])
				}
			}
		}()
	}
	c.SetScene(scene)
	rx := newReceiver(t, "video/H264", 102)
	if _, err := c.Output(OutputSpec{MimeType: "video/H264", Width: 1280, Height: 720, Bitrate: 1_500_000, PayloadType: 102}, receiver{rx}); err != nil {
		t.Fatal(err)
	}
	pane := Panes(5)[0].Pixels(1280, 720)
	top, bottom := image.Rect(pane.Min.X, pane.Min.Y, pane.Max.X, pane.Min.Y+32), image.Rect(pane.Min.X, pane.Max.Y-32, pane.Max.X, pane.Max.Y)
	others := func(f *Frame) error {
		for i, r := range Panes(5)[1:] {
			if got, want := at(f, r.Pixels(f.W, f.H)), palette[i+3]; !near(got, want) {
				return fmt.Errorf("pane %d shows %v, want %v", i+1, got, want)
			}
		}
		return nil
	}
	seen, checked, changes := uint64(0), 0, 0
	var last YUV
	for checked < 60 {
		n := rx.Frames()
		if n == seen {
			if pastPatience(t) {
				t.Fatalf("%d pictures checked until the test's deadline", checked)
			}
			time.Sleep(2 * time.Millisecond)
			continue
		}
		seen = n
		f, _ := rx.Latest()
		a, b := at(f, top), at(f, bottom)
		if !near(a, palette[0]) && !near(a, palette[1]) || others(f) != nil {
			continue // not yet every source's picture
		}
		if !near(a, b) {
			t.Fatalf("pane 0 of a composed picture is %v at its top and %v at its bottom: two pictures in one pane", a, b)
		}
		if checked > 0 && !near(a, last) {
			changes++
		}
		last = a
		checked++
	}
	if changes < 5 {
		t.Fatalf("pane 0 changed colour %d times over %d pictures", changes, checked)
	}
	if n := c.directReads.Load(); n < 60 {
		t.Fatalf("%d pictures read straight into the canvas, want the panes' pictures", n)
	}
}

// BenchmarkDrawFourPanes: the composition's work per picture for four
// 640×360 panes of a 1280×720 canvas, their pictures in buffers of
// their own (copied into the canvas) and read straight into the canvas
// (nothing to copy once read).
func BenchmarkDrawFourPanes(b *testing.B) {
	for _, direct := range []bool{false, true} {
		b.Run(map[bool]string{false: "copied", true: "read-into-canvas"}[direct], func(b *testing.B) {
			c := &Compositor{cfg: Config{Stale: time.Hour}}
			scene := Scene{Layout: 5}
			var srcs []*Input
			for p := 0; p < 4; p++ {
				in := NewInput("", nil, nil)
				in.SetFrame(solid(640, 360, palette[p]))
				srcs = append(srcs, in)
				scene.Panes = append(scene.Panes, Pane{Input: fmt.Sprint(p)})
			}
			f := NewFrame(1280, 720)
			now := time.Now()
			b.SetBytes(int64(4 * 640 * 360 * 3 / 2))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if direct {
					c.assignDirect(scene, srcs, image.Pt(1280, 720), true)
					for _, in := range srcs {
						in.dir.fresh, in.dir.at = true, now // each read into the canvas since the last picture
					}
				}
				c.draw(f, scene, srcs, now, direct)
			}
		})
	}
}
