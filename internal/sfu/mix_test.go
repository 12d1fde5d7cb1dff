package sfu

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
)

// ear decodes what a mixed endpoint receives.
type ear struct {
	mu  sync.Mutex
	dec audio.Decoder
	pcm []int16
}

func newEar(t *testing.T, mime string) *ear {
	d, err := audio.NewDecoder(mime)
	if err != nil {
		t.Fatal(err)
	}
	e := &ear{dec: d}
	t.Cleanup(func() { // the mixer may still be writing: it stops after the test
		e.mu.Lock()
		defer e.mu.Unlock()
		d.Close()
		e.dec = nil
	})
	return e
}

func (e *ear) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dec == nil {
		return 0, errors.New("closed")
	}
	e.pcm, _ = e.dec.Decode(e.pcm, payload)
	if len(e.pcm) > 4*audio.Rate {
		e.pcm = append(e.pcm[:0], e.pcm[len(e.pcm)-audio.Rate:]...)
	}
	return len(payload), nil
}

// hears reports whether the last half second holds each tone (level
// above 1500) and lacks the others (below 300); undecided otherwise.
func (e *ear) hears(want map[float64]bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pcm) < audio.Rate/2 {
		return false
	}
	tail := e.pcm[len(e.pcm)-audio.Rate/2:]
	for f, in := range want {
		l := tone.Level(tail, f, audio.Rate)
		if in && l < 1500 || !in && l > 300 {
			return false
		}
	}
	return true
}

// speak publishes a tone from l, one 20 ms packet per tick, until the test
// ends.
func speak(t *testing.T, l *Local, mime string, freq float64) { speakAt(t, l, mime, freq, 6000) }

// speakAt is speak with the tone's amplitude.
func speakAt(t *testing.T, l *Local, mime string, freq, amp float64) {
	enc, err := audio.NewEncoder(mime)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done; enc.Close() })
	go func() {
		defer close(done)
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			p, _ := enc.Encode(nil, tone.Sine(freq, amp, audio.Rate, i*audio.Frame, audio.Frame))
			l.WriteAudio(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(i),
				Timestamp: uint32(i) * audio.FrameTicks(mime)}, Payload: p})
		}
	}()
}

// TestMixedEndpoints: three Opus publishers and a G.711 terminal talk at
// once with distinct tones. The terminal hears the three and not itself
// (N−1); a tap (a recording) hears all four; mute takes a tone out, and a
// custom mix of two members only those two.
func TestMixedEndpoints(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	ctx := context.Background()
	pcmu := LocalCodec{MimeType: webrtc.MimeTypePCMU, ClockRate: 8000, Channels: 1, PayloadType: 0}
	ids := map[float64]string{}
	for i, f := range []float64{440, 660, 880} {
		l, err := rg.sfu.OpenLocal(ctx, "c1", LocalOptions{Member: true, MtID: fmt.Sprint(i + 1), Name: "pub", Kind: KindPlayback,
			PublishAudio: &opusLocal})
		if err != nil {
			t.Fatal(err)
		}
		ids[f] = l.MtID()
		speak(t, l, "opus", f)
	}
	phoneEar, tapEar := newEar(t, "PCMU"), newEar(t, "opus")
	phone, err := rg.sfu.OpenLocal(ctx, "c1", LocalOptions{Member: true, MtID: "9", Name: "phone", Kind: KindSIP,
		PublishAudio: &pcmu, Receive: SourceBroadcast, MixedAudio: true, AudioOut: phoneEar, AudioCodecs: []LocalCodec{pcmu}})
	if err != nil {
		t.Fatal(err)
	}
	speak(t, phone, "PCMU", 330)
	if _, err := rg.sfu.OpenLocal(ctx, "c1", LocalOptions{Receive: SourceBroadcast, MixedAudio: true, AudioOut: tapEar,
		AudioCodecs: []LocalCodec{opusLocal}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the terminal hearing 440, 660 and 880 Hz and not its own 330 Hz", func() bool {
		return phoneEar.hears(map[float64]bool{440: true, 660: true, 880: true, 330: false})
	})
	waitFor(t, "the tap hearing all four tones", func() bool {
		return tapEar.hears(map[float64]bool{440: true, 660: true, 880: true, 330: true})
	})
	// The terminal's details show the mix it hears as its audio receive
	// channel, in its codec.
	chs, _ := rg.sfu.Channels("c1", phone.MtID())
	recv := 0
	for _, c := range chs {
		if c.Kind == ChannelAudio && !c.Send && c.MimeType == webrtc.MimeTypePCMU {
			recv++
		}
	}
	if recv != 1 {
		t.Errorf("the terminal's channels %+v, want one PCMU audio receive channel", chs)
	}

	if err := rg.sfu.SetMute("c1", ids[660], true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the terminal no longer hearing the muted 660 Hz", func() bool {
		return phoneEar.hears(map[float64]bool{440: true, 660: false, 880: true, 330: false})
	})
	if err := rg.sfu.SetMute("c1", ids[660], false); err != nil {
		t.Fatal(err)
	}
	if err := rg.sfu.SetMix("c1", []string{ids[440], ids[880]}, false); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tap hearing the custom mix of 440 and 880 Hz only", func() bool {
		return tapEar.hears(map[float64]bool{440: true, 660: false, 880: true, 330: false})
	})
	waitFor(t, "the terminal hearing the custom mix of 440 and 880 Hz only", func() bool {
		return phoneEar.hears(map[float64]bool{440: true, 660: false, 880: true, 330: false})
	})
}

// TestMixedEndpointRefused: a mixed endpoint in a codec the mixer cannot
// encode is refused with audio.ErrUnsupported, not given silence.
func TestMixedEndpointRefused(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	_, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Receive: SourceBroadcast, MixedAudio: true,
		AudioOut: newSink(), AudioCodecs: []LocalCodec{{MimeType: "audio/AMR", ClockRate: 8000, PayloadType: 97}}})
	if !errors.Is(err, audio.ErrUnsupported) {
		t.Fatalf("OpenLocal in AMR: %v, want audio.ErrUnsupported", err)
	}
}

// TestSmartMix: a smart mix of three members with Config.MixTalkers 2
// mixes the two loudest (660 and 880 Hz, louder than 440).
func TestSmartMix(t *testing.T) {
	t.Parallel()
	rg := newRig(t, func(c *Config) { c.MixTalkers = 2 })
	ctx := context.Background()
	var ids []string
	for i, k := range []struct{ freq, amp float64 }{{440, 3000}, {660, 6000}, {880, 8000}} {
		l, err := rg.sfu.OpenLocal(ctx, "c1", LocalOptions{Member: true, MtID: fmt.Sprint(i + 1), Name: "pub", Kind: KindPlayback,
			PublishAudio: &opusLocal})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, l.MtID())
		speakAt(t, l, "opus", k.freq, k.amp)
	}
	tapEar := newEar(t, "opus")
	if _, err := rg.sfu.OpenLocal(ctx, "c1", LocalOptions{Receive: SourceBroadcast, MixedAudio: true, AudioOut: tapEar,
		AudioCodecs: []LocalCodec{opusLocal}}); err != nil {
		t.Fatal(err)
	}
	if err := rg.sfu.SetMix("c1", ids, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tap hearing the two loudest, 660 and 880 Hz, and not 440 Hz", func() bool {
		return tapEar.hears(map[float64]bool{440: false, 660: true, 880: true})
	})
	// A custom mix of the same members: all three.
	if err := rg.sfu.SetMix("c1", ids, false); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tap hearing all three members of the custom mix", func() bool {
		return tapEar.hears(map[float64]bool{440: true, 660: true, 880: true})
	})
}

// BenchmarkMixLatency measures what the mix adds to the forwarded path on
// loopback: a local publisher sends silence, then a tone; the time from
// the tone's first packet to the first mixed packet that holds it (the
// forwarded path delivers that packet within the same call). Reports the
// median and 99th percentile in milliseconds.
func BenchmarkMixLatency(b *testing.B) {
	sf, err := New(Config{Loopback: true, TCPPort: -1}, &testAuth{confs: map[string]int{"c1": 0}}, newTestEvents())
	if err != nil {
		b.Fatal(err)
	}
	defer sf.Close()
	ctx := context.Background()
	pub, err := sf.OpenLocal(ctx, "c1", LocalOptions{Member: true, MtID: "1", Name: "pub", Kind: KindPlayback, PublishAudio: &opusLocal})
	if err != nil {
		b.Fatal(err)
	}
	heard := make(chan time.Time, 64)
	det := &onset{heard: heard}
	if det.dec, err = audio.NewDecoder("PCMU"); err != nil {
		b.Fatal(err)
	}
	if _, err := sf.OpenLocal(ctx, "c1", LocalOptions{Receive: SourceBroadcast, MixedAudio: true, AudioOut: det,
		AudioCodecs: []LocalCodec{{MimeType: webrtc.MimeTypePCMU, ClockRate: 8000, PayloadType: 0}}}); err != nil {
		b.Fatal(err)
	}
	enc, _ := audio.NewEncoder("opus")
	defer enc.Close()
	silence, _ := enc.Encode(nil, make([]int16, audio.Frame))
	var lat []float64
	seq := 0
	send := func(p []byte) {
		pub.WriteAudio(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(seq), Timestamp: uint32(seq) * 960}, Payload: p})
		seq++
	}
	tk := time.NewTicker(20 * time.Millisecond)
	defer tk.Stop()
	for i := 0; i < b.N; i++ {
		for k := 0; k < 15; k++ { // 300 ms of silence
			<-tk.C
			send(silence)
		}
		det.arm()
		var t0 time.Time
		for k := 0; k < 10; k++ { // 200 ms of tone
			<-tk.C
			p, _ := enc.Encode(nil, tone.Sine(440, 8000, audio.Rate, k*audio.Frame, audio.Frame))
			if k == 0 {
				t0 = time.Now()
			}
			send(p)
		}
		select {
		case at := <-heard:
			lat = append(lat, float64(at.Sub(t0).Microseconds())/1000)
		case <-time.After(5 * time.Second):
			b.Fatal("the tone never reached the mix")
		}
	}
	sort.Float64s(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[min(len(lat)-1, len(lat)*99/100)], "p99-ms")
}

// onset reports when a mixed stream first holds sound after arm.
type onset struct {
	mu    sync.Mutex
	dec   audio.Decoder
	armed bool
	heard chan time.Time
	pcm   []int16
}

func (o *onset) arm() {
	o.mu.Lock()
	o.armed = true
	o.mu.Unlock()
}

func (o *onset) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pcm, _ = o.dec.Decode(o.pcm[:0], payload)
	if o.armed && tone.Level(o.pcm, 440, audio.Rate) > 1000 {
		o.armed = false
		o.heard <- time.Now()
	}
	return len(payload), nil
}
