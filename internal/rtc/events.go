package rtc

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
)

// Events passes the SFU's reports on to the engine (sfu.Events ->
// media.Events). The SFU reports from its own goroutines; each report gets
// a bounded context of its own.
type Events struct {
	Engine media.Events
	Log    *slog.Logger
}

var _ sfu.Events = (*Events)(nil)

// reportTimeout bounds one report's store work.
const reportTimeout = 10 * time.Second

func (e *Events) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), reportTimeout)
}

// Joined makes the participant a terminal of the conference.
func (e *Events) Joined(ctx context.Context, confID string, p sfu.Participant) (string, error) {
	mt, err := e.Engine.Joined(ctx, confID, media.Participant{Name: p.Name, Kind: string(p.Kind), Rejoin: p.Rejoin})
	switch {
	case errors.Is(err, media.ErrFull):
		return "", sfu.ErrFull
	case errors.Is(err, media.ErrEnded):
		return "", sfu.ErrNotFound
	case errors.Is(err, media.ErrRefused):
		return "", sfu.ErrForbidden
	}
	return mt, err
}

// Left makes the participant's terminal offline.
func (e *Events) Left(confID, mtID string, lost bool) {
	ctx, cancel := e.ctx()
	defer cancel()
	if err := e.Engine.Left(ctx, confID, mtID, lost); err != nil {
		e.Log.Warn("rtc: a participant's leave", "conf", confID, "mt", mtID, "err", err)
	}
}

// AudioLevels passes the levels on (voice activation reads them).
func (e *Events) AudioLevels(confID string, levels map[string]uint8) {
	ls := make([]media.AudioLevel, 0, len(levels))
	for mt, l := range levels {
		ls = append(ls, media.AudioLevel{MtID: mt, Level: int(l)})
	}
	ctx, cancel := e.ctx()
	defer cancel()
	if err := e.Engine.AudioLevels(ctx, confID, ls); err != nil {
		e.Log.Warn("rtc: audio levels", "conf", confID, "err", err)
	}
}

var (
	_ sfu.DualStopper = (*Events)(nil)
	_ sfu.SelfMuter   = (*Events)(nil)
)

// SelfMuted passes a participant's own mute button to the engine, which
// stores it as the terminal's mute and applies it; lifting the chair's
// mute is refused (403).
func (e *Events) SelfMuted(confID, mtID string, on bool) error {
	ctx, cancel := e.ctx()
	defer cancel()
	err := e.Engine.SelfMuted(ctx, confID, mtID, on)
	if errors.Is(err, media.ErrRefused) {
		return sfu.ErrForbidden
	}
	return err
}

// DualStarted asks the engine whether mtID's screen share may be the dual
// stream (vc's dual_mode); accepted, the conference's dual stream record
// names mtID (GET .../dualstream, its push).
func (e *Events) DualStarted(confID, mtID string) error {
	ctx, cancel := e.ctx()
	defer cancel()
	err := e.Engine.DualStarted(ctx, confID, mtID)
	if err != nil && !errors.Is(err, media.ErrRefused) {
		e.Log.Warn("rtc: a screen share", "conf", confID, "mt", mtID, "err", err)
	}
	return err
}

// DualStopped clears the dual stream record when mtID's share ends.
func (e *Events) DualStopped(confID, mtID string) {
	ctx, cancel := e.ctx()
	defer cancel()
	if err := e.Engine.DualStopped(ctx, confID, mtID); err != nil {
		e.Log.Warn("rtc: a screen share's end", "conf", confID, "mt", mtID, "err", err)
	}
}
