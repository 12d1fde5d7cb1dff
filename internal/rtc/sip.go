package rtc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/wire"
)

// SIPConferences finds the conference a SIP caller dials (sip.Conferences):
// a running conference by its number, with its password and closed_conf.
type SIPConferences struct {
	Engine func() *engine.Engine // the node's engine, made after the media plane
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
	if we := (*wire.Error)(nil); errors.As(err, &we) && we.Code == wire.CodeConfNotFound {
		return sip.Conference{}, sip.ErrNoConference
	}
	if err != nil {
		return sip.Conference{}, err
	}
	return sip.Conference{ID: number, Password: record.Str(conf.Doc, "password"),
		Closed: record.Int(conf.Doc, "closed_conf") == 1}, nil
}

// Online tells whether the engine has terminal mt of conf online (a
// dialled terminal that answered may still be refused: busy in another
// conference, or hung up meanwhile).
func (s SIPConferences) Online(ctx context.Context, conf, mt string) (bool, error) {
	e := s.Engine()
	if e == nil {
		return false, nil
	}
	c, ok, err := e.Running(ctx, conf)
	if err != nil || !ok {
		return false, err
	}
	st, err := e.State(ctx, c, mt)
	if errors.Is(err, engine.ErrNotFound) {
		return false, nil
	}
	return st == engine.StateOnline, err
}
