package rtc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/sip"
)

// SIPConferences finds the conference a SIP caller dials (sip.Conferences):
// a running conference by its number, with its password and closed_conf.
type SIPConferences struct {
	Engine func() *engine.Engine // the node's engine, made after the media plane
	// Owners, when set, sends a caller to the node that owns the
	// conference's media (owner_sip.go); a conference no node owns
	// becomes this node's.
	Owners *Owners
	// Rooms, when set, starts the conference of the virtual meeting
	// room a caller dialled while none of it runs (mc.Module.StartRoom;
	// docs/sip.md "Calling in").
	Rooms func(ctx context.Context, number string, may func(password string) bool) (bool, error)
}

// StartRoom implements sip.Conferences.
func (s SIPConferences) StartRoom(ctx context.Context, number string, may func(password string) bool) (bool, error) {
	if s.Rooms == nil || s.Engine() == nil {
		return false, nil
	}
	return s.Rooms(ctx, number, may)
}

// Lookup implements sip.Conferences.
func (s SIPConferences) Lookup(ctx context.Context, number string) (sip.Conference, error) {
	e := s.Engine()
	if e == nil || number == "" {
		return sip.Conference{}, sip.ErrNoConference
	}
	c, ok, err := e.Running(ctx, number)
	if err != nil {
		return sip.Conference{}, err
	}
	if !ok {
		return sip.Conference{}, sip.ErrNoConference
	}
	conf, err := e.Conferences().Get(ctx, c.DomainMoid, number, engine.StateRunning)
	if errors.Is(err, engine.ErrConfNotFound) {
		return sip.Conference{}, sip.ErrNoConference
	}
	if err != nil {
		return sip.Conference{}, err
	}
	out := sip.Conference{ID: number, Password: conf.Password(),
		Closed: conf.ClosedConf() == 1}
	if s.Owners != nil && !out.Closed {
		d, self, err := s.Owners.Owner(ctx, number, true)
		if err != nil {
			return sip.Conference{}, err
		}
		if !self {
			out.Redirect = d.SIP
		}
	}
	return out, nil
}

// State returns the engine's state of terminal mt of conf (engine.StateIdle,
// StateCalling, StateOnline; "" when there is none): a dialled terminal
// that answered may still be refused (busy in another conference, or hung
// up meanwhile), and an answer reported while the call was being placed
// is applied a moment later (calling until then).
func (s SIPConferences) State(ctx context.Context, conf, mt string) (string, error) {
	e := s.Engine()
	if e == nil {
		return "", nil
	}
	c, ok, err := e.Running(ctx, conf)
	if err != nil || !ok {
		return "", err
	}
	st, err := e.State(ctx, c, mt)
	if errors.Is(err, engine.ErrNotFound) {
		return "", nil
	}
	return st, err
}
