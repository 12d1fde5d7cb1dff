package mixer

import (
	"fmt"
	"testing"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
)

type discard struct{}

func (discard) WriteRTP(h *rtp.Header, payload []byte) (int, error) { return len(payload), nil }

// BenchmarkRoom is one 20 ms frame of a room of n participants, all in
// Opus, talkers of them talking (the others send encoded silence, as a
// browser without DTX does), each hearing the mix in Opus: n decodes,
// talkers+1 encodes. With levels, the packets carry their RFC 6464 level
// as a browser's do (silence 127), and the silent ones are not decoded:
// talkers decodes. docs/benchmarks.md "Mixed audio" divides the time by n
// and by 20 ms for the CPU per mixed participant.
func BenchmarkRoom(b *testing.B) {
	for _, c := range []struct {
		n, talkers int
		levels     bool
	}{{50, 4, false}, {50, 4, true}, {20, 4, false}} {
		name := fmt.Sprintf("%dx%d", c.n, c.talkers)
		if c.levels {
			name += "/levels"
		}
		b.Run(name, func(b *testing.B) {
			m := New(Config{Prefill: 1})
			defer m.Close()
			m.SetSelection(Selection{Loudest: 4})
			enc, err := audio.NewEncoder("opus")
			if err != nil {
				b.Fatal(err)
			}
			defer enc.Close()
			const frames = 50
			packets := make([][][]byte, c.n) // per participant, a second of packets
			ins := make([]*Input, c.n)
			for i := range ins {
				id := fmt.Sprint(i)
				if ins[i], err = m.Input(id, "opus"); err != nil {
					b.Fatal(err)
				}
				if _, err := m.Output(id, Codec{MimeType: "opus", PayloadType: 111}, discard{}); err != nil {
					b.Fatal(err)
				}
				amp := 0.0
				if i < c.talkers {
					amp = 6000
				}
				if i <= c.talkers { // talkers and one silent participant (silence encodes alike)
					for f := 0; f < frames; f++ {
						p, _ := enc.Encode(nil, tone.Sine(300+float64(i)*110, amp, audio.Rate, f*audio.Frame, audio.Frame))
						packets[i] = append(packets[i], p)
					}
				} else {
					packets[i] = packets[c.talkers]
				}
			}
			b.ResetTimer()
			cpu := cpuNanos()
			for k := 0; k < b.N; k++ {
				for i, in := range ins {
					level := -1
					if c.levels {
						level = 127
						if i < c.talkers {
							level = 30
						}
					}
					in.PushLevel(uint16(k), packets[i][k%frames], level)
				}
				m.Tick()
			}
			if cpu > 0 { // CPU time, not wall time: the machine may be shared
				b.ReportMetric(float64(cpuNanos()-cpu)/float64(b.N)/float64(c.n)/20e6*100, "%core/participant")
			}
		})
	}
}
