package mixer

import (
	"strings"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/audio"
)

// encoderIdle is how many ticks an unused encoder is kept (a talker's own
// N−1 encoder between its talk spurts): 2 s.
const encoderIdle = 100

// tickState is the tick's scratch, reused across ticks (tickMu held).
type tickState struct {
	n     uint64
	sum   [audio.Frame]int32
	pcm   [audio.Frame]int16
	ins   []*Input
	jobs  []job
	encs  []encJob
	inMix map[string]*Input
}

type job struct {
	o *Output
	e *encoder
}

type encJob struct {
	e    *encoder
	self *Input // whose voice to take out; nil for the full mix
}

// Tick mixes and sends one 20 ms frame: every input gives a frame (or
// none), the selection is mixed, and each output receives its mix.
// Start's clock calls it once per frame when the frame's packets are
// there or its deadline passed (clock.go); tests and benchmarks call it
// directly.
func (m *Mixer) Tick() {
	m.writeMu.Lock()
	defer m.writeMu.Unlock()
	m.tickMu.Lock()
	t := &m.ts
	t.n++
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		m.tickMu.Unlock()
		return
	}
	t.ins = t.ins[:0]
	for _, in := range m.inputs {
		t.ins = append(t.ins, in)
	}
	prefill := m.cfg.Prefill
	m.mu.Unlock()

	t0 := time.Now()
	var concealed, skipped, underruns uint64
	for _, in := range t.ins { // decoding, without the mixer's lock
		c, s, u := in.pull(prefill)
		concealed += c
		skipped += s
		if u {
			underruns++
		}
	}
	t1 := time.Now()

	m.mu.Lock()
	mixed := m.selectMixed(t.ins)
	clear(t.sum[:])
	if t.inMix == nil {
		t.inMix = map[string]*Input{}
	}
	clear(t.inMix)
	for _, in := range mixed {
		t.inMix[in.id] = in
		for i, s := range in.frame {
			t.sum[i] += int32(s)
		}
	}
	t.jobs, t.encs = t.jobs[:0], t.encs[:0]
	for o := range m.outputs {
		if m.silenced[o.self] && o.self != "" {
			continue
		}
		k := encKey{mime: strings.ToLower(o.codec.MimeType)}
		self := t.inMix[o.self]
		if self != nil {
			k.self = o.self // mixed in: N−1, its own encoder
		}
		e := m.encs[k]
		if e == nil {
			enc, err := audio.NewEncoder(k.mime)
			if err != nil {
				continue // Output checked the codec; an instance that fails to start sends nothing
			}
			e = &encoder{enc: enc}
			m.encs[k] = e
		}
		if e.last != t.n {
			e.last = t.n
			t.encs = append(t.encs, encJob{e: e, self: self})
		}
		t.jobs = append(t.jobs, job{o, e})
	}
	for k, e := range m.encs {
		if t.n-e.last > encoderIdle {
			e.enc.Close()
			delete(m.encs, k)
		}
	}
	m.mu.Unlock()

	for _, j := range t.encs { // encoding once per distinct output
		for i, s := range t.sum {
			if j.self != nil {
				s -= int32(j.self.frame[i])
			}
			t.pcm[i] = int16(max(-32768, min(32767, s)))
		}
		var err error
		j.e.frame, err = j.e.enc.Encode(j.e.frame[:0], t.pcm[:])
		j.e.ok = err == nil
	}
	m.add(1, underruns, concealed, skipped, t1.Sub(t0), time.Since(t1))
	m.tickMu.Unlock()
	for _, j := range t.jobs { // writing, without the mixer's locks
		if !j.e.ok {
			continue
		}
		o := j.o
		h := rtp.Header{Version: 2, PayloadType: o.codec.PayloadType, SequenceNumber: o.seq, Timestamp: o.ts,
			SSRC: o.ssrc, Marker: o.first}
		o.first = false
		o.seq++
		o.ts += o.ticks
		_, _ = o.w.WriteRTP(&h, j.e.frame)
		o.bytes.Add(uint64(len(j.e.frame)))
	}
}
