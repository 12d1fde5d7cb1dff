package mixer

import "time"

// The mixer's clock is driven by arrivals (issue 36, lower latency): a
// frame is mixed as soon as every input expected in it has its packet
// there, and at the latest Slack after its time, without the late ones
// (concealed or silent). A frame is due frameTime after the one before
// it; it may be mixed up to early before that when every input is ready,
// so the clock's phase moves to the packets' arrival and a packet is mixed
// on arrival, not up to a tick later. With no input playing it runs every
// 20 ms. A busy machine that falls behind mixes the frames due at once,
// at most maxCatchUp of them.

// DefaultSlack is Config.Slack's default.
const DefaultSlack = 30 * time.Millisecond

const (
	frameTime    = 20 * time.Millisecond
	early        = 10 * time.Millisecond
	defaultSlack = DefaultSlack
	maxCatchUp   = 10 // frames
)

// clock is the schedule of the frames: sched is the time of the last one.
type clock struct {
	sched time.Time
	slack time.Duration
}

// due decides at now whether the next frame is mixed: mix, and the time
// it stands for (the schedule's next reference); else when to look again.
func (c *clock) due(now time.Time, expected, ready bool) (mix bool, at time.Time) {
	next := c.sched.Add(frameTime)
	switch {
	case expected && ready && !now.Before(next.Add(-early)):
		if now.Before(next) {
			return true, now // early: the phase moves to the arrivals
		}
		return true, next
	case expected && ready:
		return false, next.Add(-early)
	case !expected && !now.Before(next):
		return true, next
	case !expected:
		return false, next
	case !now.Before(next.Add(c.slack)):
		return true, next // a late packet's deadline: mixed without it
	default:
		return false, next.Add(c.slack)
	}
}

// advance records a frame mixed at the time at.
func (c *clock) advance(now, at time.Time) {
	c.sched = at
	if behind := now.Sub(c.sched); behind > maxCatchUp*frameTime {
		c.sched = now.Add(-maxCatchUp * frameTime) // too far behind: the older frames are dropped
	}
}

// readiness is whether some input is expected in the next frame and
// whether all the expected ones are ready.
func (m *Mixer) readiness() (expected, ready bool) {
	m.tickMu.Lock()
	defer m.tickMu.Unlock()
	m.mu.Lock()
	ins := m.ts.ins[:0]
	for _, in := range m.inputs {
		ins = append(ins, in)
	}
	m.ts.ins = ins
	m.mu.Unlock()
	ready = true
	for _, in := range ins {
		e, r := in.readiness()
		expected = expected || e
		ready = ready && (r || !e)
	}
	return expected, ready
}

// Start runs the mixer's clock until Close.
func (m *Mixer) Start() {
	m.mu.Lock()
	if m.stop != nil || m.closed {
		m.mu.Unlock()
		return
	}
	m.stop, m.done = make(chan struct{}), make(chan struct{})
	stop, done := m.stop, m.done
	m.mu.Unlock()
	running.Add(1)
	go func() {
		defer close(done)
		c := clock{sched: time.Now(), slack: m.cfg.Slack}
		t := time.NewTimer(frameTime)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-m.kick:
			case <-t.C:
			}
			for {
				now := time.Now()
				expected, ready := m.readiness()
				mix, at := c.due(now, expected, ready)
				if !mix {
					if !t.Stop() {
						select {
						case <-t.C:
						default:
						}
					}
					t.Reset(at.Sub(now))
					break
				}
				m.Tick()
				c.advance(now, at)
			}
		}
	}()
}
