//go:build linux

package compose

import (
	"fmt"
	"image"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
)

// The compositor's figures of issue 37 other than the CPU ratio
// (docs/benchmarks.md "Composed pictures"), gated by CONFER_COMPOSE_BENCH=1:
//
//	CONFER_COMPOSE_BENCH=1 go test -run '^$' -bench 'Compositions|Latency|LayoutChange' -benchtime 1x ./internal/compose

func needFigures(b *testing.B) string {
	if os.Getenv("CONFER_COMPOSE_BENCH") != "1" {
		b.Skip("set CONFER_COMPOSE_BENCH=1 to measure the compositor's figures")
	}
	ff, err := FindFFmpeg("")
	if err != nil {
		b.Skip(err)
	}
	return ff
}

// BenchmarkCompositions runs 1, 2, ... CONFER_BENCH_MAX (8) compositions
// of 4 H.264 panes of 640×360 into 1280×720 H.264 at 30 fps at once, for
// 10 s after a warm-up, and reports for each count the composed pictures
// sent a second per composition and the pictures dropped (an encoder
// behind) or not composed in time; it stops at the first count not
// sustained and reports the last one that was ("sustained").
func BenchmarkCompositions(b *testing.B) {
	ff := needFigures(b)
	most := 8 // about 30 % of a core each: 2 cores give out before
	if n, err := strconv.Atoi(os.Getenv("CONFER_BENCH_MAX")); err == nil && n > 0 {
		most = n
	}
	_, frames := h264Source(b, ff, benchWarm+benchSecs+1)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		sustained, stopped := 0, 0 // stopped: the first count not sustained, 0 none up to most
		var why string
		for count := 1; count <= most; count++ {
			var fps []*fourPanes
			for range count {
				fps = append(fps, newFourPanes(b, nil))
			}
			start := time.Now()
			sent0, drop0 := make([]uint64, count), make([]uint64, count)
			var comp0 []uint64
			var t0 time.Time
			for i, f := range frames {
				if d := time.Duration(i)*time.Second/30 - time.Since(start); d > 0 {
					time.Sleep(d)
				}
				if i == benchWarm*30 {
					t0 = time.Now()
					for k, fp := range fps {
						sent0[k], _, drop0[k] = fp.out.Stats()
						c, _ := fp.c.Composed()
						comp0 = append(comp0, c)
					}
				}
				for _, fp := range fps {
					fp.feed(f)
				}
			}
			wall := time.Since(t0)
			minFPS, dropped, late := 1e9, uint64(0), 0.0
			for k, fp := range fps {
				s, _, d := fp.out.Stats()
				c, _ := fp.c.Composed()
				minFPS = min(minFPS, float64(s-sent0[k])/wall.Seconds())
				dropped += d - drop0[k]
				late += 30 - float64(c-comp0[k])/wall.Seconds() // composition ticks missed
				fp.c.Close()
			}
			b.Logf("%d compositions: the slowest sent %.1f pictures/s; %d dropped by encoders; %.1f composition ticks/s missed",
				count, minFPS, dropped, late)
			b.ReportMetric(minFPS, fmt.Sprintf("fps-at-%d", count))
			b.ReportMetric(float64(dropped), fmt.Sprintf("dropped-at-%d", count))
			if minFPS < 29.5 || dropped > 0 || late >= 0.5 {
				stopped = count
				why = fmt.Sprintf("the slowest of %d sent %.1f pictures/s, %d dropped, %.1f ticks/s missed", count, minFPS, dropped, late)
				break // the next count would not be sustained either
			}
			sustained = count
		}
		if stopped > 0 {
			b.Logf("Compositions: %d sustained at 30 fps without a dropped picture (each sending at least 29.5 pictures/s, no composition tick missed); stopped at %d: %s",
				sustained, stopped, why)
		} else {
			b.Logf("Compositions: at least %d sustained at 30 fps without a dropped picture (every count up to %d, CONFER_BENCH_MAX, was; more not tried)",
				sustained, most)
		}
		b.ReportMetric(float64(stopped), "stopped-at")
		b.ReportMetric(float64(sustained), "sustained")
	}
}

// stamp draws seq into f as 16 black or white blocks of 40×40 along the
// top (bit 15 first); readStamp reads it back from a decoded picture of
// pane r.
func stamp(f *Frame, seq uint16) {
	for k := 0; k < 16; k++ {
		c := Black
		if seq&(1<<(15-k)) != 0 {
			c = White
		}
		f.Fill(image.Rect(k*40, 0, k*40+40, 40), c)
	}
}

func readStamp(f *Frame, r image.Rectangle) uint16 {
	var seq uint16
	for k := 0; k < 16; k++ {
		x, y := r.Min.X+(k*40+20)*r.Dx()/640, r.Min.Y+20*r.Dy()/360
		if f.Y[y*f.W+x] > 128 {
			seq |= 1 << (15 - k)
		}
	}
	return seq
}

// BenchmarkLatency measures glass to glass on loopback: a source of
// 640×360 at 30 fps whose frames carry a sequence number is encoded in
// H.264 as a terminal sends it, its packets go to a receiver directly
// (the floor: encode and decode) and through a 4-pane 1280×720
// composition (decode, compose, encode again, decode); each receiver
// reads the number back from every picture it decodes. Reported: the
// p50 and p99 of both paths and of what composition adds (the composed
// path's figure less the direct one's).
func BenchmarkLatency(b *testing.B) {
	ff := needFigures(b)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		c, err := New(Config{})
		if err != nil {
			b.Fatal(err)
		}
		in := c.Input("src", map[uint8]string{102: "video/H264"}, nil)
		c.SetScene(Scene{Layout: 5, Panes: []Pane{{Input: "src"}}})
		direct := NewInput(ff, map[uint8]string{102: "video/H264"}, nil)
		composed := NewInput(ff, map[uint8]string{102: "video/H264"}, nil)
		if _, err := c.Output(OutputSpec{MimeType: "video/H264", Width: 1280, Height: 720, Bitrate: 1_500_000, PayloadType: 102}, receiver{composed}); err != nil {
			b.Fatal(err)
		}
		src, err := newOutput(ff, 30, OutputSpec{MimeType: "video/H264", Width: 640, Height: 360, Bitrate: 800_000, PayloadType: 102},
			sinkFunc(func(p *rtp.Packet) {
				_, _ = in.WriteRTP(&p.Header, p.Payload)
				_, _ = direct.WriteRTP(&p.Header, p.Payload)
			}))
		if err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		sentAt := map[uint16]time.Time{}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // the source, 30 fps
			defer wg.Done()
			f := NewFrame(640, 360)
			f.Fill(image.Rect(0, 0, 640, 360), RGB(90, 90, 160))
			start := time.Now()
			for i := 1; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(time.Duration(i)*time.Second/30 - time.Since(start)):
				}
				seq := uint16(i)
				stamp(f, seq)
				mu.Lock()
				sentAt[seq] = time.Now()
				mu.Unlock()
				src.push(f)
			}
		}()
		measure := func(rx *Input, r image.Rectangle, out *[]time.Duration, warmUntil time.Time) {
			defer wg.Done()
			seen, last := uint64(0), uint16(0)
			for {
				select {
				case <-stop:
					return
				default:
				}
				k := rx.Frames()
				if k == seen {
					time.Sleep(time.Millisecond)
					continue
				}
				seen = k
				p := rx.pics.acquire()
				seq := readStamp(p.f, r)
				rx.pics.release(p)
				now := time.Now()
				mu.Lock()
				at, ok := sentAt[seq]
				mu.Unlock()
				if ok && seq != last && now.After(warmUntil) {
					*out = append(*out, now.Sub(at))
				}
				last = seq
			}
		}
		var dLat, cLat []time.Duration
		warm := time.Now().Add(benchWarm * time.Second)
		wg.Add(2)
		go measure(direct, image.Rect(0, 0, 640, 360), &dLat, warm)
		go measure(composed, Panes(5)[0].Pixels(1280, 720), &cLat, warm)
		time.Sleep((benchWarm + benchSecs) * time.Second)
		close(stop)
		wg.Wait()
		src.Close()
		c.Close()
		direct.Close()
		composed.Close()
		if len(dLat) < 30 || len(cLat) < 30 {
			b.Fatalf("%d direct and %d composed pictures read: too few", len(dLat), len(cLat))
		}
		dp50, dp99 := pct(dLat, 50), pct(dLat, 99)
		cp50, cp99 := pct(cLat, 50), pct(cLat, 99)
		b.Logf("Latency: added by composition p50 %v p99 %v (target p99 ≤ 150 ms); direct (encode, decode) p50 %v p99 %v over %d pictures, composed p50 %v p99 %v over %d",
			(cp50 - dp50).Round(time.Millisecond), (cp99 - dp99).Round(time.Millisecond), dp50.Round(time.Millisecond), dp99.Round(time.Millisecond), len(dLat),
			cp50.Round(time.Millisecond), cp99.Round(time.Millisecond), len(cLat))
		b.ReportMetric(ms(dp99), "direct-p99-ms")
		b.ReportMetric(ms(cp99), "composed-p99-ms")
		b.ReportMetric(ms(cp50-dp50), "added-p50-ms")
		b.ReportMetric(ms(cp99-dp99), "added-p99-ms")
	}
}

// BenchmarkLayoutChange measures the time from a change of the scene
// (SetScene: two panes swapped, or one pane becoming two) to the first
// picture a receiver decodes that shows it, over 60 changes, at
// 1280×720 H.264.
func BenchmarkLayoutChange(b *testing.B) {
	ff := needFigures(b)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		c, err := New(Config{})
		if err != nil {
			b.Fatal(err)
		}
		cols := []YUV{RGB(220, 30, 30), RGB(30, 200, 30)}
		ids := []string{"a", "b"}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // raw sources, 30 fps
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(33 * time.Millisecond):
				}
				for i, id := range ids {
					c.Input(id, nil, nil).SetFrame(solidFrame(640, 360, cols[i]))
				}
			}
		}()
		rx := NewInput(ff, map[uint8]string{102: "video/H264"}, nil)
		if _, err := c.Output(OutputSpec{MimeType: "video/H264", Width: 1280, Height: 720, Bitrate: 1_500_000, PayloadType: 102}, receiver{rx}); err != nil {
			b.Fatal(err)
		}
		scenes := []struct {
			s    Scene
			want []YUV
		}{
			{Scene{Layout: 2, Panes: []Pane{{Input: "a"}, {Input: "b"}}}, []YUV{cols[0], cols[1]}},
			{Scene{Layout: 2, Panes: []Pane{{Input: "b"}, {Input: "a"}}}, []YUV{cols[1], cols[0]}},
			{Scene{Layout: 1, Panes: []Pane{{Input: "b"}}}, []YUV{cols[1]}},
		}
		var took []time.Duration
		for i := 0; i < 61; i++ {
			sc := scenes[i%len(scenes)]
			t0 := time.Now()
			c.SetScene(sc.s)
			seen := rx.Frames()
			for {
				k := rx.Frames()
				if k == seen {
					time.Sleep(time.Millisecond)
					continue
				}
				seen = k
				p := rx.pics.acquire()
				ok := showsAll(p.f, sc.s.Layout, sc.want)
				rx.pics.release(p)
				if ok {
					break
				}
			}
			if i > 0 { // the first waits for the encoder's start
				took = append(took, time.Since(t0))
			}
		}
		close(stop)
		wg.Wait()
		c.Close()
		rx.Close()
		b.Logf("LayoutChange: to the first decoded picture showing it p50 %v p99 %v (target p99 ≤ 500 ms), max %v, over %d changes",
			pct(took, 50).Round(time.Millisecond), pct(took, 99).Round(time.Millisecond), slices.Max(took).Round(time.Millisecond), len(took))
		b.ReportMetric(ms(pct(took, 50)), "p50-ms")
		b.ReportMetric(ms(pct(took, 99)), "p99-ms")
	}
}

func solidFrame(w, h int, c YUV) *Frame {
	f := NewFrame(w, h)
	f.Fill(image.Rect(0, 0, w, h), c)
	return f
}

func showsAll(f *Frame, layout int, want []YUV) bool {
	for i, r := range Panes(layout) {
		if !near(at(f, r.Pixels(f.W, f.H)), want[i]) {
			return false
		}
	}
	return true
}

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
