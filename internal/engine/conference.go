package engine

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/media"
)

// ConfOf reads the call settings of a conference document (reference 04:
// call_mode, call_times, call_interval in seconds, max_join_mt, bitrate).
func ConfOf(c Conference) Conf {
	return Conf{
		DomainMoid:   c.Rec.DomainMoid,
		ConfID:       c.ID(),
		CallMode:     num(c.Doc["call_mode"]),
		CallTimes:    num(c.Doc["call_times"]),
		CallInterval: time.Duration(num(c.Doc["call_interval"])) * time.Second,
		MaxJoinMt:    num(c.Doc["max_join_mt"]),
		Bitrate:      num(c.Doc["bitrate"]),
		Version:      c.Rec.Version,
	}
}

// Invited returns the terminals a conference calls when it starts: its
// invite_members, each called once at the start and then retried by the
// conference's call mode (none in manual mode), and its
// keep_calling_members, called again whenever they are not online.
func Invited(c Conference) []Member {
	chase := map[string]bool{}
	for _, v := range list(c.Doc["keep_calling_members"]) {
		if m, ok := v.(map[string]any); ok {
			chase[str(m["account"])] = true
		}
	}
	var out []Member
	for _, v := range list(c.Doc["invite_members"]) {
		m, ok := v.(map[string]any)
		if !ok || str(m["account"]) == "" {
			continue
		}
		acct := str(m["account"])
		out = append(out, Member{
			Callee:   media.Callee{Account: acct, AccountType: num(m["account_type"]), Protocol: num(m["protocol"]), Bitrate: num(m["bitrate"])},
			CallMode: -1, Chase: chase[acct], Dial: true,
		})
	}
	return out
}

func list(v any) []any { l, _ := v.([]any); return l }

// started is the follow-up of a conference start (Conferences.Create,
// Approve, and booked starts in RunDue, after the record became running):
// the features its creation set and the calls to its invitees
// (followStart), then its start is marked done (Conferences.StartDone).
// Failures are logged, since the start itself has already happened. The
// follow-up may run again, on another node, when the node that started
// the conference stopped before marking it done (start_pending.go).
func (e *Engine) started(ctx context.Context, c Conference) {
	e.followStart(ctx, c)
	if err := e.confs.StartDone(ctx, c); err != nil {
		e.log.Error("marking a conference's start done", "conf_id", c.ID(), "err", err)
	}
}

// ended is the follow-up of a running conference's end: its terminals are
// hung up and removed, then Features.Ended keeps what must outlive it.
func (e *Engine) ended(ctx context.Context, c Conference) {
	if err := e.RemoveAll(ctx, ConfOf(c)); err != nil {
		e.log.Error("removing terminals of an ended conference", "conf_id", c.ID(), "err", err)
	}
	e.keepHistory(ctx, c) // history.go
	if err := e.features.Ended(ctx, c); err != nil {
		e.log.Error("closing the features of an ended conference", "conf_id", c.ID(), "err", err)
	}
	e.mu.Lock()
	delete(e.told, c.ID())
	e.mu.Unlock()
	if err := e.media.EndConference(ctx, c.ID()); err != nil {
		e.log.Error("ending a conference's media", "conf_id", c.ID(), "err", err)
	}
}

// RunDue performs the time-driven work due at the clock's now: the
// conferences' starts and ends (Conferences.RunDue), the media backend's
// own (the simulation's scripted answers, reported to CallOutcome), then
// the terminals' calls (RunDueCalls: retries).
func (e *Engine) RunDue(ctx context.Context) error {
	errs := []error{e.confs.RunDue(ctx)}
	if r, ok := e.media.(media.DueRunner); ok {
		errs = append(errs, r.RunDue(ctx))
	}
	return errors.Join(append(errs, e.RunDueCalls(ctx, e.lookup), e.runDueStale(ctx), e.runDueHistory(ctx))...)
}

// lookup finds a running conference's call settings for RunDueCalls.
func (e *Engine) lookup(ctx context.Context, domainMoid, confID string) (Conf, bool, error) {
	c, err := e.confs.Get(ctx, domainMoid, confID, StateRunning)
	if errors.Is(err, ErrConfNotFound) {
		return Conf{}, false, nil
	}
	if err != nil {
		return Conf{}, false, err
	}
	return ConfOf(c), true, nil
}

// Terminals returns the terminals of a conference (for the modules that
// report on conferences, internal/nms).
func (s *Conferences) Terminals(ctx context.Context, c Conference) ([]Terminal, error) {
	return s.eng.List(ctx, ConfOf(c))
}
