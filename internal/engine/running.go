package engine

import "context"

// Running finds a running conference by its number alone, for the media
// plane that knows no user domain (a SIP caller dialling a conference
// number, docs/sip.md): ok false when no conference runs with it.
func (e *Engine) Running(ctx context.Context, confID string) (c Conf, ok bool, err error) {
	return e.running(ctx, confID)
}
