package engine

import (
	"context"
)

// followStart is a conference start's follow-up (started): the features
// set at creation (Features.Started), then the calls to the invitees. It may run
// twice for one start: when the node that started the conference stopped
// before marking its start done, another node runs it again once the
// start's lease is over (start_pending.go). So it does only
// what is left: Features.Started starts only the features that do not run
// yet, and an invitee is added only
// when no terminal of the conference has its account (each invitation
// counts once: an account invited twice has two terminals); a terminal
// added but never called (the node stopped between Add's two steps) is
// called.
func (e *Engine) followStart(ctx context.Context, c Conference) {
	if err := e.apply(ctx, ConfOf(c), e.features.Started(ctx, c)); err != nil {
		e.log.Error("starting the features set at creation", "conf_id", c.ID(), "err", err)
	}
	ms := Invited(c)
	if len(ms) == 0 {
		return
	}
	add, uncalled, err := e.uninvited(ctx, c, ms)
	if err != nil {
		e.log.Error("reading the terminals of a started conference", "conf_id", c.ID(), "err", err)
		return
	}
	cf := ConfOf(c)
	for _, t := range uncalled {
		if _, err := e.dial(ctx, cf, t); err != nil {
			e.log.Error("calling an invited terminal", "conf_id", c.ID(), "mt_id", t.MtID(), "err", err)
		}
	}
	if len(add) > 0 {
		if _, err := e.Add(ctx, cf, add); err != nil {
			e.log.Error("calling invited terminals", "conf_id", c.ID(), "err", err)
		}
	}
}

// uninvited splits the invitees ms of c into those without a terminal in
// the conference, to add, and the terminals of the others that are idle
// and were never called, to call.
func (e *Engine) uninvited(ctx context.Context, c Conference, ms []Member) ([]Member, []Terminal, error) {
	ts, err := e.List(ctx, ConfOf(c))
	if err != nil || len(ts) == 0 {
		return ms, nil, err
	}
	have := map[string][]Terminal{}
	for _, t := range ts {
		a := t.Account()
		have[a] = append(have[a], t)
	}
	var add []Member
	var uncalled []Terminal
	for _, m := range ms {
		l := have[m.Callee.Account]
		if len(l) == 0 {
			add = append(add, m)
			continue
		}
		have[m.Callee.Account] = l[1:]
		if t := l[0]; t.Rec.State == StateIdle && t.Own.Attempts.Value == 0 {
			uncalled = append(uncalled, t)
		}
	}
	return add, uncalled, nil
}
