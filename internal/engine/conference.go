package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/media"
)

// ConfOf reads the call settings of a conference document (reference 04:
// call_mode, call_times, call_interval in seconds, max_join_mt, bitrate).
func ConfOf(c Conference) Conf {
	return Conf{
		DomainMoid:   c.Rec.DomainMoid,
		ConfID:       c.ID(),
		CallMode:     callInt(c.Doc.CallMode, c.Doc.Extra, "call_mode"),
		CallTimes:    callInt(c.Doc.CallTimes, c.Doc.Extra, "call_times"),
		CallInterval: time.Duration(callInt(c.Doc.CallInterval, c.Doc.Extra, "call_interval")) * time.Second,
		MaxJoinMt:    callInt(c.Doc.MaxJoinMt, c.Doc.Extra, "max_join_mt"),
		Bitrate:      callInt(c.Doc.Bitrate, c.Doc.Extra, "bitrate"),
		Version:      c.Rec.Version,
	}
}

// Invited returns the terminals a conference calls when it starts: its
// invite_members, each called once at the start and then retried by the
// conference's call mode (none in manual mode), and its
// keep_calling_members, called again whenever they are not online.
func Invited(c Conference) []Member {
	chase := map[string]bool{}
	for _, m := range invitees(c, "keep_calling_members") {
		chase[string(m.Account)] = true
	}
	var out []Member
	for _, m := range invitees(c, "invite_members") {
		if m.Account == "" {
			continue
		}
		acct := string(m.Account)
		out = append(out, Member{
			Callee:   media.Callee{Account: acct, AccountType: int(m.AccountType), Protocol: int(m.Protocol), Bitrate: int(m.Bitrate)},
			CallMode: -1, Chase: chase[acct], Dial: true,
		})
	}
	return out
}

// invitee is an element of a conference's invite_members or
// keep_calling_members (reference 04 "创建会议") as the engine reads it:
// the account called and the call's account type, protocol and bitrate.
type invitee struct {
	Account     docStr `json:"account"`
	AccountType docInt `json:"account_type"`
	Protocol    docInt `json:"protocol"`
	Bitrate     docInt `json:"bitrate"`
}

// invitees reads a list member of invitees; an element that is not an
// object is left out, as a member that is not a list gives none.
func invitees(c Conference, member string) []invitee {
	var l []json.RawMessage
	if !c.Member(member, &l) {
		return nil
	}
	out := make([]invitee, 0, len(l))
	for _, e := range l {
		var m invitee
		if json.Unmarshal(e, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// docStr is a string member of a conference document read as str reads
// the decoded document's value: a JSON string, "" for anything else.
type docStr string

func (s *docStr) UnmarshalJSON(b []byte) error {
	var v string
	if json.Unmarshal(b, &v) != nil {
		v = ""
	}
	*s = docStr(v)
	return nil
}

// docInt is an integer member of a conference document read as num reads
// the decoded document's value: a JSON number written as an integer
// (8, not 8.0), 0 for anything else.
type docInt int

func (n *docInt) UnmarshalJSON(b []byte) error {
	v, _ := strconv.Atoi(string(b))
	*n = docInt(v)
	return nil
}

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
	eff, err := e.features.Ended(ctx, c)
	if err := errors.Join(err, e.Apply(ctx, ConfOf(c), eff)); err != nil {
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
