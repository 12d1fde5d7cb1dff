package engine

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/conference"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/wire"
)

// ConfOf reads the call settings of a conference document (reference 04:
// call_mode, call_times, call_interval in seconds, max_join_mt, bitrate).
func ConfOf(c conference.Conf) Conf {
	return Conf{
		DomainMoid:   c.Rec.DomainMoid,
		ConfID:       c.ID(),
		CallMode:     num(c.Doc["call_mode"]),
		CallTimes:    num(c.Doc["call_times"]),
		CallInterval: time.Duration(num(c.Doc["call_interval"])) * time.Second,
		MaxJoinMt:    num(c.Doc["max_join_mt"]),
		Bitrate:      num(c.Doc["bitrate"]),
	}
}

// Invited returns the terminals a conference calls when it starts: its
// invite_members, each called once at the start and then retried by the
// conference's call mode (none in manual mode), and its
// keep_calling_members, called again whenever they are not online.
func Invited(c conference.Conf) []Member {
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

// Attach makes the engine act on the conference lifecycle: a conference
// that starts has OnStart run, then calls its invited terminals, and its
// start is marked done (conference.StartDone); one that ends hangs up and
// removes all of its terminals. Failures are reported to logf, since the
// start or end itself has already happened. The start's follow-up may run
// again, on another node, when the node that started the conference
// stopped before marking it done (start_follow.go).
//
// ended, when given, runs after the terminals are gone (conference control
// keeps what must outlive a conference, such as recordings).
func (e *Engine) Attach(confs *conference.Service, logf func(msg string, args ...any), ended func(ctx context.Context, c conference.Conf) error) {
	confs.SetHooks(conference.Hooks{
		Started: func(ctx context.Context, c conference.Conf) {
			e.followStart(ctx, c, logf)
			if err := confs.StartDone(ctx, c); err != nil {
				logf("marking a conference's start done", "conf_id", c.ID(), "err", err)
			}
		},
		Ended: func(ctx context.Context, c conference.Conf) {
			if err := e.RemoveAll(ctx, ConfOf(c)); err != nil {
				logf("removing terminals of an ended conference", "conf_id", c.ID(), "err", err)
			}
			if ended != nil {
				if err := ended(ctx, c); err != nil {
					logf("closing the features of an ended conference", "conf_id", c.ID(), "err", err)
				}
			}
		},
	})
}

// Lookup finds a running conference's call settings for RunDue.
func Lookup(confs *conference.Service) ConfLookup {
	return func(ctx context.Context, domainMoid, confID string) (Conf, bool, error) {
		c, err := confs.Get(ctx, domainMoid, confID, conference.StateRunning)
		var we *wire.Error
		if errors.As(err, &we) && we.Code == wire.CodeConfNotFound {
			return Conf{}, false, nil
		}
		if err != nil {
			return Conf{}, false, err
		}
		return ConfOf(c), true, nil
	}
}
