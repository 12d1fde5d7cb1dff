package sfu

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
	"github.com/confer-platform/confer/internal/mixer"
)

// The soak of issue 36's figures (docs/benchmarks.md "Mixed audio"): 100
// participants in 5 rooms, each a mixed endpoint (a SIP leg) that
// publishes and hears the mix without itself, for CONFER_MIX_SOAK_DURATION
// (default 10m; CONFER_MIX_SOAK_ROOMS fewer rooms, default 5). In each room 4 talkers send distinct Opus tones and 16
// others send encoded silence continuously (no DTX), half in Opus and
// half in G.711 µ-law; a tap (a recording) hears each room's full mix in
// Opus. The Opus packets carry their RFC 6464 level (the extension every
// browser sends: 127 for silence), so the mixer does not decode the
// silent ones; CONFER_MIX_SOAK_LEVELS=0 sends them without it. It fails on any underrun, on any gap (a frame of a tap lacking a
// talker's tone, a break in any output's sequence numbers or
// timestamps), and on resident memory growing more than soakMemBound.
//
//	CONFER_MIX_SOAK=1 go test ./internal/sfu -run TestMixSoak -timeout 20m -v
const (
	soakPerRoom  = 20
	soakTalkers  = 4
	soakMemBound = 32 << 20 // bytes of resident memory the run may add after its first minute's warm-up
)

// soakTones are the talkers' tones: whole cycles in a frame and no
// harmonics of one pitch, so that a frame's detector (tone.Lacking) tells
// a talker from none (tone.Talkers; TestMixKeepsEveryTalker in
// internal/mixer is a room of this soak in simulated time).
var soakTones = tone.Talkers

// soakLevelExt is the RFC 6464 extension's id in the soak's Opus packets.
const soakLevelExt = 1

func TestMixSoak(t *testing.T) {
	if os.Getenv("CONFER_MIX_SOAK") != "1" {
		t.Skip("the mixed audio soak runs with CONFER_MIX_SOAK=1 (docs/benchmarks.md \"Mixed audio\")")
	}
	dur := 10 * time.Minute
	if v := os.Getenv("CONFER_MIX_SOAK_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("CONFER_MIX_SOAK_DURATION %q: %v", v, err)
		}
		dur = d
	}
	soakRooms := 5
	if v := os.Getenv("CONFER_MIX_SOAK_ROOMS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("CONFER_MIX_SOAK_ROOMS %q: want a number of rooms", v)
		}
		soakRooms = n
	}
	levels := os.Getenv("CONFER_MIX_SOAK_LEVELS") != "0"
	rg := newRig(t, nil)
	ctx := context.Background()
	pcmu := LocalCodec{MimeType: webrtc.MimeTypePCMU, ClockRate: 8000, Channels: 1, PayloadType: 0}

	// A second of packets of each sound, encoded once and sent in a loop.
	const loop = 50
	encode := func(mime string, freq, amp float64) [][]byte {
		enc, err := audio.NewEncoder(mime)
		if err != nil {
			t.Fatal(err)
		}
		defer enc.Close()
		var ps [][]byte
		for i := 0; i < loop; i++ {
			p, err := enc.Encode(nil, tone.Sine(freq, amp, audio.Rate, i*audio.Frame, audio.Frame))
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
		return ps
	}
	silence := map[string][][]byte{"opus": encode("opus", 440, 0), "PCMU": encode("PCMU", 440, 0)}
	var tones [soakTalkers][][]byte
	for i, f := range soakTones {
		tones[i] = encode("opus", f, tone.TalkerAmp)
	}

	type sender struct {
		l       *Local
		packets [][]byte
		ticks   uint32
		level   int // RFC 6464 level sent, -1 none
	}
	var senders []sender
	var outs []*seqCheck
	var taps []*gapCheck
	for r := 0; r < soakRooms; r++ {
		conf := fmt.Sprintf("soak%d", r)
		rg.auth.mu.Lock()
		rg.auth.confs[conf] = 0
		rg.auth.mu.Unlock()
		for p := 0; p < soakPerRoom; p++ {
			mime, c, packets, level := "opus", opusLocal, silence["opus"], 127
			switch {
			case p < soakTalkers:
				packets, level = tones[p], 30
			case p%2 == 1:
				mime, c, packets, level = "PCMU", pcmu, silence["PCMU"], -1
			}
			var ext uint8
			if !levels || level < 0 {
				level = -1
			} else {
				ext = soakLevelExt
			}
			out := &seqCheck{ticks: audio.FrameTicks(mime)}
			l, err := rg.sfu.OpenLocal(ctx, conf, LocalOptions{Member: true, MtID: strconv.Itoa(p + 1), Name: "soak", Kind: KindSIP,
				PublishAudio: &c, Receive: SourceBroadcast, MixedAudio: true, AudioOut: out, AudioCodecs: []LocalCodec{c},
				AudioLevelExtID: ext})
			if err != nil {
				t.Fatal(err)
			}
			senders = append(senders, sender{l, packets, audio.FrameTicks(mime), level})
			outs = append(outs, out)
		}
		tap, err := newGapCheck()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(tap.close)
		if _, err := rg.sfu.OpenLocal(ctx, conf, LocalOptions{Receive: SourceBroadcast, MixedAudio: true, AudioOut: tap,
			AudioCodecs: []LocalCodec{opusLocal}}); err != nil {
			t.Fatal(err)
		}
		taps = append(taps, tap)
	}

	// One sender a room, paced by the wall clock (the frames due are sent,
	// as a ticker drops the ticks of a late receiver). lateSends counts the
	// frames sent later than the mixer's slack after their time: on a
	// machine short of CPU the senders themselves are late, and the
	// underruns that follow are the machine's, not the mixer's.
	stop := make(chan struct{})
	var counting atomic.Bool
	var lateSends atomic.Uint64
	var wg sync.WaitGroup
	for r := 0; r < soakRooms; r++ {
		wg.Add(1)
		go func(ss []sender) {
			defer wg.Done()
			tk := time.NewTicker(20 * time.Millisecond)
			defer tk.Stop()
			start, i := time.Now(), 0
			for {
				select {
				case <-stop:
					return
				case <-tk.C:
				}
				now := time.Since(start)
				for due := int(now / (20 * time.Millisecond)); i < due; i++ {
					if late := now - time.Duration(i)*20*time.Millisecond; late > 20*time.Millisecond+mixer.DefaultSlack && counting.Load() {
						lateSends.Add(1)
					}
					for _, s := range ss {
						p := &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(i),
							Timestamp: uint32(i) * s.ticks}, Payload: s.packets[i%loop]}
						if s.level >= 0 {
							p.Header.Extension, p.Header.ExtensionProfile = true, 0xBEDE
							_ = p.Header.SetExtension(soakLevelExt, []byte{byte(s.level)})
						}
						s.l.WriteAudio(p)
					}
				}
			}
		}(senders[r*soakPerRoom : (r+1)*soakPerRoom])
	}
	defer func() { close(stop); wg.Wait() }()

	// Warm-up: every tap hears its four talkers; then the counting starts.
	waitFor(t, "every room's mix holding its four talkers", func() bool {
		for _, tap := range taps {
			if !tap.hearing.Load() {
				return false
			}
		}
		return true
	})
	// Encoders: each room's talkers' N−1 mixes in Opus, its full mix in
	// Opus (the silent Opus participants and the tap) and in G.711 (the
	// silent G.711 ones), never one a participant.
	for r := 0; r < soakRooms; r++ {
		x := &rg.sfu.room(fmt.Sprintf("soak%d", r), false).mix_
		x.mu.Lock()
		n, desc := x.mx.Encoders(), x.mx.String()
		x.mu.Unlock()
		if r == 0 {
			t.Logf("soak: room 0's %s", desc)
		}
		if n != soakTalkers+2 {
			t.Errorf("room %d: %d encoders, want %d (%d N−1 mixes, the full mix in Opus and in G.711)", r, n, soakTalkers+2, soakTalkers)
		}
	}
	for _, tap := range taps {
		tap.counting.Store(true)
	}
	for _, o := range outs {
		o.counting.Store(true)
	}
	counting.Store(true)
	before := mixer.Totals()
	cpu0, wall0 := cpuNanos(), time.Now()
	rss0, heap0 := memory()
	t.Logf("soak: %d rooms × %d participants (%d talking each) for %v; resident memory at start %.1f MiB (Go heap %.1f MiB)",
		soakRooms, soakPerRoom, soakTalkers, dur, mib(rss0), mib(heap0))
	end := time.Now().Add(dur)
	for next := time.Now().Add(time.Minute); time.Now().Before(end); next = next.Add(time.Minute) {
		time.Sleep(min(time.Until(next), time.Until(end))) // the soak's duration is its workload
		s := mixer.Totals()
		rss, _ := memory()
		t.Logf("soak: %v: frames %d, underruns %d, concealed %d, gaps %d, frames sent late %d, resident %.1f MiB",
			time.Until(end).Round(time.Second)*-1+dur, s.Frames-before.Frames, s.Underruns-before.Underruns,
			s.Concealed-before.Concealed, gaps(taps, outs), lateSends.Load(), mib(rss))
	}
	after := mixer.Totals()
	cpu := time.Duration(cpuNanos() - cpu0)
	wall := time.Since(wall0)
	counting.Store(false)
	for _, tap := range taps {
		tap.counting.Store(false)
	}
	for _, o := range outs {
		o.counting.Store(false)
	}
	rss1, heap1 := memory()
	frames, underruns, concealed := after.Frames-before.Frames, after.Underruns-before.Underruns, after.Concealed-before.Concealed
	var checked uint64
	for _, tap := range taps {
		checked += tap.frames.Load()
	}
	t.Logf("soak: %v: frames mixed %d, tap frames checked %d, underruns %d, concealed %d, gaps %d, frames sent late %d; resident memory %.1f → %.1f MiB (Go heap %.1f → %.1f MiB); quiet packets not decoded %d; decode %v, encode %v (wall time); the process's CPU %v in %v (%.0f %% of one core)",
		dur, frames, checked, underruns, concealed, gaps(taps, outs), lateSends.Load(), mib(rss0), mib(rss1), mib(heap0), mib(heap1),
		after.Skipped-before.Skipped, (after.Decode - before.Decode).Round(time.Millisecond), (after.Encode - before.Encode).Round(time.Millisecond),
		cpu.Round(time.Millisecond), wall.Round(time.Millisecond), 100*cpu.Seconds()/wall.Seconds())
	if underruns != 0 || gaps(taps, outs) != 0 {
		t.Errorf("underruns %d, gaps %d: want none (frames the senders sent more than the mixer's slack late: %d; more than none means the machine was short of CPU)",
			underruns, gaps(taps, outs), lateSends.Load())
		for i, tap := range taps {
			if g := tap.gaps.Load(); g > 0 {
				t.Logf("room %d: %d frames lacking a talker, first at frame %d", i, g, tap.firstGap.Load())
			}
		}
	}
	if checked < uint64(dur/(20*time.Millisecond))*uint64(soakRooms)*9/10 {
		t.Errorf("the taps received %d frames, want about %d", checked, uint64(dur/(20*time.Millisecond))*uint64(soakRooms))
	}
	if rss1 > rss0+soakMemBound {
		t.Errorf("resident memory grew from %.1f to %.1f MiB, more than %d MiB", mib(rss0), mib(rss1), soakMemBound>>20)
	}
}

func gaps(taps []*gapCheck, outs []*seqCheck) uint64 {
	var n uint64
	for _, tap := range taps {
		n += tap.gaps.Load() + tap.breaks.Load()
	}
	for _, o := range outs {
		n += o.breaks.Load()
	}
	return n
}

// seqCheck counts the breaks in an output's sequence numbers and
// timestamps (each packet must follow the one before by one number and
// one frame).
type seqCheck struct {
	ticks    uint32
	counting atomic.Bool
	mu       sync.Mutex
	last     rtp.Header
	seen     bool
	breaks   atomic.Uint64
}

func (c *seqCheck) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen && c.counting.Load() && (h.SequenceNumber != c.last.SequenceNumber+1 || h.Timestamp != c.last.Timestamp+c.ticks) {
		c.breaks.Add(1)
	}
	c.last, c.seen = *h, true
	return len(payload), nil
}

// gapCheck decodes a room's full mix and counts the frames that lack one
// of the talkers' tones.
type gapCheck struct {
	seqCheck
	dec      audio.Decoder
	pcm      []int16
	hearing  atomic.Bool // the last frame held every tone
	frames   atomic.Uint64
	gaps     atomic.Uint64
	firstGap atomic.Uint64
}

func newGapCheck() (*gapCheck, error) {
	d, err := audio.NewDecoder("opus")
	if err != nil {
		return nil, err
	}
	return &gapCheck{seqCheck: seqCheck{ticks: 960}, dec: d}, nil
}

func (g *gapCheck) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.dec.Close()
	g.dec = nil
}

func (g *gapCheck) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	if _, err := g.seqCheck.WriteRTP(h, payload); err != nil {
		return 0, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.dec == nil {
		return len(payload), nil
	}
	var err error
	if g.pcm, err = g.dec.Decode(g.pcm[:0], payload); err != nil || len(g.pcm) < audio.Frame {
		g.pcm = g.pcm[:0]
	}
	all := len(g.pcm) >= audio.Frame && tone.Lacking(g.pcm[:audio.Frame], audio.Rate, soakTones[:]...) < 0
	g.hearing.Store(all)
	if g.counting.Load() {
		n := g.frames.Add(1)
		if !all && g.gaps.Add(1) == 1 {
			g.firstGap.Store(n)
		}
	}
	return len(payload), nil
}

// memory is the process's resident memory (Linux /proc/self/statm; 0
// elsewhere) and the Go heap in use, after a collection that returns the
// free memory to the system (what stays resident is in use).
func memory() (rss, heap uint64) {
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 1 {
			pages, _ := strconv.ParseUint(f[1], 10, 64)
			rss = pages * uint64(os.Getpagesize())
		}
	}
	return rss, ms.HeapInuse
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
