package opus

import (
	"errors"
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/audio/tone"
)

// TestRoundTrip encodes a 440 Hz tone and decodes it: the tone comes back
// at its level, and no other tone appears.
func TestRoundTrip(t *testing.T) {
	enc, err := NewEncoder(48000, 1, AppVoIP)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	if err := enc.SetBitrate(32000); err != nil {
		t.Fatal(err)
	}
	dec, err := NewDecoder(48000, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var got []int16
	pkt := make([]byte, 1500)
	pcm := make([]int16, 960)
	for f := 0; f < 50; f++ {
		n, err := enc.Encode(tone.Sine(440, 8000, 48000, f*960, 960), pkt)
		if err != nil || n == 0 {
			t.Fatalf("frame %d: encode %d bytes, %v", f, n, err)
		}
		m, err := dec.Decode(pkt[:n], pcm)
		if err != nil || m != 960 {
			t.Fatalf("frame %d: decode %d samples, %v", f, m, err)
		}
		got = append(got, pcm[:m]...)
	}
	tail := got[len(got)/2:]
	if l := tone.Level(tail, 440, 48000); l < 6000 || l > 10000 {
		t.Errorf("440 Hz level %.0f after the round trip, want about 8000", l)
	}
	if l := tone.Level(tail, 880, 48000); l > 400 {
		t.Errorf("880 Hz level %.0f after the round trip, want about 0", l)
	}
	// Concealment fills a lost frame.
	if m, err := dec.Conceal(pcm); err != nil || m != 960 {
		t.Errorf("conceal: %d samples, %v", m, err)
	}
}

// TestBadInput: libopus's own error codes come back as errors.
func TestBadInput(t *testing.T) {
	if _, err := NewEncoder(44100, 1, AppVoIP); err == nil {
		t.Error("an encoder at 44.1 kHz was created")
	}
	dec, err := NewDecoder(48000, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	if _, err := dec.Decode([]byte{0xff, 0xff, 0xff}, make([]int16, 960)); err == nil {
		t.Error("a malformed packet decoded")
	}
}

// BenchmarkEncode20ms encodes 20 ms frames of a tone, 48 kHz mono, 32
// kbit/s with in-band FEC as the mixer does, at complexities from 10 (libopus's default) to 0 (the mixer's
// is audio.OpusComplexity);
// scripts/opus-wasm/bench-native.c does the same with native libopus.
func BenchmarkEncode20ms(b *testing.B) {
	for _, cx := range []int{10, 5, 3, 1, 0} {
		b.Run(fmt.Sprintf("complexity%d", cx), func(b *testing.B) {
			enc, err := NewEncoder(48000, 1, AppVoIP)
			if err != nil {
				b.Fatal(err)
			}
			defer enc.Close()
			if err := errors.Join(enc.SetBitrate(32000), enc.SetComplexity(cx), enc.SetInbandFEC(true), enc.SetPacketLossPerc(5)); err != nil {
				b.Fatal(err)
			}
			frames := make([][]int16, 50)
			for i := range frames {
				frames[i] = tone.Sine(440, 8000, 48000, i*960, 960)
			}
			pkt := make([]byte, 1500)
			b.ResetTimer()
			cpu := cpuNanos()
			for i := 0; i < b.N; i++ {
				if _, err := enc.Encode(frames[i%len(frames)], pkt); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// reportCPU reports the CPU time per operation since cpu (cpuNanos).
func reportCPU(b *testing.B, cpu int64) {
	if cpu > 0 {
		b.ReportMetric(float64(cpuNanos()-cpu)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkDecode20ms(b *testing.B) {
	enc, _ := NewEncoder(48000, 1, AppVoIP)
	defer enc.Close()
	enc.SetBitrate(32000)
	var pkts [][]byte
	buf := make([]byte, 1500)
	for i := 0; i < 50; i++ {
		n, _ := enc.Encode(tone.Sine(440, 8000, 48000, i*960, 960), buf)
		pkts = append(pkts, append([]byte(nil), buf[:n]...))
	}
	dec, err := NewDecoder(48000, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer dec.Close()
	pcm := make([]int16, 960)
	b.ResetTimer()
	cpu := cpuNanos()
	for i := 0; i < b.N; i++ {
		if _, err := dec.Decode(pkts[i%len(pkts)], pcm); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkInstance measures one codec's setup: a module instance and its
// state (the module itself is compiled once per process).
func BenchmarkInstance(b *testing.B) {
	if err := Available(); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		d, err := NewDecoder(48000, 1)
		if err != nil {
			b.Fatal(err)
		}
		d.Close()
	}
}

// BenchmarkDecodeSilence decodes the packets of digital silence, of a
// near-silence and of a tone: a silence costs nearly a voice's decoding,
// which is why the mixer does not decode the packets a sender marks as
// silent (mixer.Input.PushLevel).
func BenchmarkDecodeSilence(b *testing.B) {
	for _, amp := range []float64{0, 3, 8000} {
		b.Run(fmt.Sprint(amp), func(b *testing.B) {
			enc, _ := NewEncoder(48000, 1, AppVoIP)
			defer enc.Close()
			if err := errors.Join(enc.SetBitrate(32000), enc.SetComplexity(1), enc.SetInbandFEC(true), enc.SetPacketLossPerc(5)); err != nil {
				b.Fatal(err)
			}
			var pkts [][]byte
			buf := make([]byte, 1500)
			size := 0
			for i := 0; i < 50; i++ {
				n, _ := enc.Encode(tone.Sine(440, amp, 48000, i*960, 960), buf)
				pkts = append(pkts, append([]byte(nil), buf[:n]...))
				size += n
			}
			dec, _ := NewDecoder(48000, 1)
			defer dec.Close()
			pcm := make([]int16, 960)
			b.ResetTimer()
			cpu := cpuNanos()
			for i := 0; i < b.N; i++ {
				if _, err := dec.Decode(pkts[i%len(pkts)], pcm); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(size)/50, "bytes/pkt")
		})
	}
}
