// Package conference owns conferences as records: creation (instant, from
// a template or a virtual meeting room, or booked for later), numbering,
// capacity, ending, and the time-driven starts and ends. The mc module
// creates and ends conferences through it; the vc module reads and
// controls them.
package conference

import (
	"context"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/store"
)

// Record kinds of the store (store.Record.Kind) used across modules.
const (
	KindConf             = "conf"
	KindPersonalTemplate = "personal_template"
	KindPublicTemplate   = "public_template"
	KindRoom             = "virtual_meeting_room"
	KindArea             = "meeting_room_area"
	KindFile             = "meeting_file"
)

// Conference states (store.Record.State of KindConf).
const (
	StateBooked  = "booked"
	StateRunning = "running"
	StateEnded   = "ended"
	StatePending = "pending" // awaiting approval (amc)
)

// Config sets numbering and capacity.
type Config struct {
	NumberMin, NumberMax int64 // conf_id range (E.164 style numeric strings)
	MaxConfs             int   // concurrent running conferences
	MaxPorts             int   // terminal ports across running conferences
}

// DefaultConfig: conference numbers 1110000 to 1119999, 100 conferences,
// 1000 terminal ports.
func DefaultConfig() Config {
	return Config{NumberMin: 1110000, NumberMax: 1119999, MaxConfs: 100, MaxPorts: 1000}
}

// Service creates, reads and ends conferences.
type Service struct {
	st  store.Store
	clk clock.Clock
	cfg Config
}

// New returns a Service.
func New(st store.Store, clk clock.Clock, cfg Config) *Service {
	return &Service{st: st, clk: clk, cfg: cfg}
}

// Config returns the service's settings.
func (s *Service) Config() Config { return s.cfg }

// RunDue performs the time-driven changes due at the clock's now: booked
// conferences start, conferences whose duration has run out end. Each
// change is a conditional state update, so it happens exactly once even
// when several nodes run it.
func (s *Service) RunDue(ctx context.Context) error {
	return nil // filled in by the conference lifecycle (issue 4)
}
