package mixer

import (
	"sync/atomic"
	"time"
)

// Stats are a mixer's counters, or the process's (Totals), shown at
// /metrics as confer_mixer_* (docs/operations.md "Metrics").
type Stats struct {
	// Running is the mixers whose clock runs (Totals only).
	Running int64
	// Frames is the 20 ms frames mixed.
	Frames uint64
	// Underruns is the frames an input that was playing had no audio for
	// (a packet later than the clock's slack, or the end of a talk spurt:
	// the input then waits for its next packet).
	Underruns uint64
	// Concealed is the frames decoded by concealment (a lost or malformed
	// packet whose successor had arrived).
	Concealed uint64
	// Skipped is the quiet packets not decoded (Input.PushLevel).
	Skipped uint64
	// Decode and Encode are the wall time spent decoding inputs and
	// encoding outputs: on a machine short of CPU, mostly waiting for a
	// core (the process's CPU time is the measure of cost).
	Decode, Encode time.Duration
}

type counters struct {
	frames, underruns, concealed, skipped, decodeNs, encodeNs atomic.Uint64
}

func (c *counters) stats() Stats {
	return Stats{Frames: c.frames.Load(), Underruns: c.underruns.Load(), Concealed: c.concealed.Load(), Skipped: c.skipped.Load(),
		Decode: time.Duration(c.decodeNs.Load()), Encode: time.Duration(c.encodeNs.Load())}
}

// total is every mixer's counters; running the started mixers.
var (
	total   counters
	running atomic.Int64
)

// Totals is the counters of every mixer of the process.
func Totals() Stats {
	s := total.stats()
	s.Running = running.Load()
	return s
}

// Stats is this mixer's counters.
func (m *Mixer) Stats() Stats { return m.count.stats() }

func (m *Mixer) add(frames, underruns, concealed, skipped uint64, dec, enc time.Duration) {
	for _, c := range []*counters{&m.count, &total} {
		c.frames.Add(frames)
		c.underruns.Add(underruns)
		c.concealed.Add(concealed)
		c.skipped.Add(skipped)
		c.decodeNs.Add(uint64(dec))
		c.encodeNs.Add(uint64(enc))
	}
}
