package mixer

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
)

// arrival is one packet reaching the mixer at a simulated time.
type arrival struct {
	at  time.Duration
	in  *Input
	seq uint16
	p   []byte
}

// simulate plays arrivals through the arrival-driven clock in simulated
// time (the same clock.due and Tick that Start runs, without the wall
// clock) and returns the times frames were mixed.
func simulate(m *Mixer, arrivals []arrival, end time.Duration) []time.Duration {
	slices.SortStableFunc(arrivals, func(a, b arrival) int { return int(a.at - b.at) })
	base := time.Unix(0, 0)
	c := clock{sched: base, slack: m.cfg.Slack}
	var mixed []time.Duration
	wake := base.Add(frameTime)
	for now := base; now.Sub(base) < end; {
		if len(arrivals) > 0 && !base.Add(arrivals[0].at).After(wake) {
			a := arrivals[0]
			arrivals = arrivals[1:]
			now = base.Add(a.at)
			a.in.Push(a.seq, a.p)
		} else {
			now = wake
		}
		for {
			e, r := m.readiness()
			mix, at := c.due(now, e, r)
			if !mix {
				wake = at
				break
			}
			m.Tick()
			mixed = append(mixed, now.Sub(base))
			c.advance(now, at)
		}
	}
	return mixed
}

// TestArrivalClockUnderJitter: two talkers at different phases send a
// tone whose packets arrive with up to 25 ms of jitter (so some arrive
// after their successor) and a few swapped pairs. The mix has no
// underrun, no concealed frame and no gap: every 20 ms frame of the
// output holds both tones, one packet per frame. While the packets come
// on time, a frame is mixed as soon as the later talker's packet arrives.
func TestArrivalClockUnderJitter(t *testing.T) {
	m := New(Config{})
	defer m.Close()
	dec, _ := audio.NewDecoder("opus")
	defer dec.Close()
	l := &listener{dec: dec}
	if _, err := m.Output("", Codec{MimeType: "opus"}, l); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(36, 1))
	const frames = 500
	var arrivals []arrival
	for k, tk := range []struct {
		id    string
		freq  float64
		phase time.Duration
	}{{"a", 440, 3 * time.Millisecond}, {"b", 660, 11 * time.Millisecond}} {
		in, err := m.Input(tk.id, "opus")
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := audio.NewEncoder("opus")
		defer enc.Close()
		for i := 0; i < frames; i++ {
			p, _ := enc.Encode(nil, tone.Sine(tk.freq, 6000, audio.Rate, i*audio.Frame, audio.Frame))
			jitter := time.Duration(rng.IntN(25000)) * time.Microsecond
			if i < 50 || k == 1 && i%2 == 0 {
				jitter = 0 // the first second on time; b's even packets on time
			}
			at := tk.phase + time.Duration(i)*frameTime + jitter
			if i > 50 && i%37 == 0 { // a swapped pair: i arrives after i+1
				at = tk.phase + time.Duration(i)*frameTime + 21*time.Millisecond
			}
			arrivals = append(arrivals, arrival{at: at, in: in, seq: uint16(i), p: p})
		}
	}
	mixed := simulate(m, arrivals, time.Duration(frames)*frameTime)
	st := m.Stats()
	if st.Underruns != 0 || st.Concealed != 0 {
		t.Errorf("underruns %d, concealed %d, want 0 and 0", st.Underruns, st.Concealed)
	}
	// Every frame from the first that holds both talkers to the last
	// before the end holds both tones.
	l.mu.Lock()
	pcm := slices.Clone(l.pcm)
	l.mu.Unlock()
	first := -1
	for f := 0; (f+1)*audio.Frame <= len(pcm); f++ {
		fr := pcm[f*audio.Frame : (f+1)*audio.Frame]
		both := tone.Level(fr, 440, audio.Rate) > 2000 && tone.Level(fr, 660, audio.Rate) > 2000
		switch {
		case first < 0 && both:
			first = f
		case first >= 0 && f > first+2 && f < first+frames-60 && !both:
			t.Fatalf("frame %d (of %d mixed) lacks a tone: 440 Hz %.0f, 660 Hz %.0f", f, len(mixed),
				tone.Level(fr, 440, audio.Rate), tone.Level(fr, 660, audio.Rate))
		}
	}
	if first < 0 || first > 5 {
		t.Fatalf("both tones first heard in frame %d", first)
	}
	// In the first second (no jitter) each frame is mixed when a packet
	// that completes it arrives (3 or 11 ms past a 20 ms boundary), not
	// on a tick of its own.
	for i, at := range mixed[5:45] {
		if off := at % frameTime; off != 3*time.Millisecond && off != 11*time.Millisecond {
			t.Fatalf("frame %d mixed at %v, %v past the boundary: want a packet's arrival (3 or 11 ms)", i+5, at, off)
		}
	}
}
