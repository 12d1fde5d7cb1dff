package vc

import (
	"context"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Conference poll, upload-terminal poll and chairman poll (reference 05
// items 12 to 14 and 42 to 47; seed 001 "Polling"). A poll shows its
// members one after the other for keep_time seconds each, num rounds (0:
// forever), starting at poll_index. Members that are not online are
// skipped and take no time. The current member is derived from a stored
// anchor and the clock (engine.PollAt), so the poll advances without a
// timer; a poll whose rounds are done reads as stopped.
//
// A poll is a typed field of the conference, engine.Poll (Poll,
// UploadPoll, ChairmanPoll: the members vc_poll, vc_upload_poll and
// vc_chairman_poll of the conference document):
//
//	Mode, Num, KeepTime      as started
//	Members                  {MtID, Account} in poll order
//	Origin                   index (0-based) of the first polled member
//	State                    1 polling, 2 paused, 0 stopped (as last set)
//	Index, Rounds, TurnAt    the anchor: member whose turn began at TurnAt
//	                         (UNIX ms) and the rounds completed before it
//	PausedAt                 UNIX ms of the pause, 0 when not paused
//
// The terminals' poll flag is not maintained: the polled member changes
// with the clock alone, and terminal documents are written only by
// requests.

// Poll states, state values and the default interval.
const (
	pollStateStopped = 0
	pollStatePolling = 1
	pollStatePaused  = 2
	pollValueStop    = 0
	pollValuePause   = 1
	pollValueResume  = 2
)

// pollKind is one of the three polls.
type pollKind struct {
	name     string
	conf     bool // the conference poll: reflected in poll_enable; refused during playback
	chairman bool // the chairman poll: needs an online chairman
	// of is the kind's field of the conference (engine.Conference's Poll,
	// UploadPoll, ChairmanPoll).
	of func(c *engine.Conference) **engine.Poll
}

var pollKinds = []pollKind{
	{name: "conference poll", conf: true, of: func(c *engine.Conference) **engine.Poll { return &c.Poll }},
	{name: "upload poll", of: func(c *engine.Conference) **engine.Poll { return &c.UploadPoll }},
	{name: "chairman poll", chairman: true, of: func(c *engine.Conference) **engine.Poll { return &c.ChairmanPoll }},
}

// pollAnchor reads the stored anchor of a poll at now.
func pollAnchor(p *engine.Poll, now time.Time) engine.PollAnchor {
	eff := now
	if p.State == pollStatePaused && p.PausedAt > 0 {
		eff = time.UnixMilli(p.PausedAt)
	}
	return engine.PollAnchor{
		Members: len(p.Members), Origin: p.Origin, Num: p.Num,
		Keep:  time.Duration(p.KeepTime) * time.Second,
		Index: p.Index, Rounds: p.Rounds, Elapsed: eff.Sub(time.UnixMilli(p.TurnAt)),
	}
}

// pollPos computes where a poll stands; also tells the time the clock is
// at for it (the pause time while paused).
func pollPos(p *engine.Poll, ts map[string]engine.Terminal, now time.Time, extra map[string]bool) (engine.PollPosition, time.Time) {
	a := pollAnchor(p, now)
	pos := engine.PollAt(a, func(i int) bool {
		id := p.Members[i].MtID
		return tlOnline(ts, id) || extra[id]
	})
	return pos, time.UnixMilli(p.TurnAt).Add(a.Elapsed)
}

// pollRunning tells whether a poll is polling or paused at now.
func pollRunning(p *engine.Poll, ts map[string]engine.Terminal, now time.Time) bool {
	if p == nil || p.State == pollStateStopped {
		return false
	}
	pos, _ := pollPos(p, ts, now, nil)
	return !pos.Done
}

// pollsActive tells whether any poll of the conference was left running.
func pollsActive(c *engine.Conference) bool {
	for _, k := range pollKinds {
		if pollActive(c, k) != nil {
			return true
		}
	}
	return false
}

// pollStop marks a poll stopped.
func pollStop(c *engine.Conference, k pollKind) {
	p := *k.of(c)
	p.State, p.PausedAt = pollStateStopped, 0
	if k.conf {
		c.SetPollEnable(0)
	}
}

// pollSettle stops a poll whose rounds are done (the due sweep).
func pollSettle(c *engine.Conference, k pollKind, ts map[string]engine.Terminal, now time.Time) bool {
	p := pollActive(c, k)
	if p == nil || pollRunning(p, ts, now) {
		return false
	}
	pollStop(c, k)
	return true
}

// pollActive returns the poll of kind k when it runs (or is paused), nil
// when there is none or it stopped.
func pollActive(c *engine.Conference, k pollKind) *engine.Poll {
	p := *k.of(c)
	if p == nil || p.State == pollStateStopped {
		return nil
	}
	return p
}

// pollLeave takes a new anchor after terminals left: the rotation up to
// now counts them as they were; from now on they are skipped. A poll with
// no member left online stops (reference A3 20524).
func pollLeave(c *engine.Conference, k pollKind, ts map[string]engine.Terminal, gone leftSet, now time.Time) bool {
	p := pollActive(c, k)
	if p == nil {
		return false
	}
	pos, eff := pollPos(p, ts, now, gone)
	if pos.Done || pos.None {
		pollStop(c, k)
		return true
	}
	p.Index, p.Rounds, p.TurnAt = pos.Index, pos.Rounds, tlMs(eff.Add(-pos.InTurn))
	if gone.has(p.Members[pos.Index].MtID) {
		p.TurnAt = tlMs(eff) // the next member's turn begins now
	}
	after, _ := pollPos(p, ts, now, nil)
	if after.None || after.Done {
		pollStop(c, k)
	}
	return true
}

// pollGet answers a poll's state, current member and members (pollRead)
// in the reply type of its kind (as: pollAsConf, pollAsChairman,
// pollAsUpload).
func pollGet[R api.Reply](m *Module, k pollKind, as func(model.VCConfsPollGetReply) R) api.Handler {
	return api.Typed(func(ctx context.Context, r *api.Request) (R, error) {
		out, err := m.pollRead(ctx, r, k)
		if err != nil {
			var none R
			return none, err
		}
		return as(out), nil
	})
}

// pollRead reads the poll of kind k as its query answers it (pollReply).
func (m *Module) pollRead(ctx context.Context, r *api.Request, k pollKind) (model.VCConfsPollGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return model.VCConfsPollGetReply{}, err
	}
	ts, err := m.tlTerminals(ctx, c)
	if err != nil {
		return model.VCConfsPollGetReply{}, err
	}
	return pollReply(*k.of(&c), ts, m.clk.Now()), nil
}

// The poll query's reply of each kind: the conference poll's, the
// chairman poll's of the same members, or the upload poll's, which has no
// mode.
func pollAsConf(out model.VCConfsPollGetReply) *model.VCConfsPollGetReply { return &out }

func pollAsChairman(out model.VCConfsPollGetReply) *model.VCConfsChairmanPollGetReply {
	return (*model.VCConfsChairmanPollGetReply)(&out)
}

func pollAsUpload(out model.VCConfsPollGetReply) *model.VCConfsUploadPollGetReply {
	return &model.VCConfsUploadPollGetReply{State: out.State, Num: out.Num, KeepTime: out.KeepTime, PollIndex: out.PollIndex,
		CurPollMt: out.CurPollMt, Members: out.Members}
}

// pollStart starts (or restarts with new settings) a poll.
func (m *Module) pollStart(k pollKind) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error {
		// The three polls' starts (POST and PUT) have these members; the
		// upload poll's has no mode.
		var q model.VCConfsChairmanPollStartRequest
		if err := q.Decode(r.Args); err != nil {
			return err
		}
		ids, origin, err := pollStartOf(q) // poll_rules.go
		if err != nil {
			return err
		}
		c, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
			ts, err := m.tlTerminals(ctx, *c)
			if err != nil {
				return false, err
			}
			now := m.clk.Now()
			members := make([]engine.PollMember, len(ids))
			online := 0
			for i, id := range ids {
				if err := tlMember(*c, ts, fmt.Sprintf("members[%d].mt_id", i), id, false); err != nil {
					return false, err
				}
				if tlOnline(ts, id) {
					online++
				}
				// The terminal's account as it is: a terminal without one
				// is stored as null (NoAccount).
				acct, ok := ts[id].Doc.Account.Get()
				members[i] = engine.PollMember{MtID: id, Account: acct, NoAccount: !ok}
			}
			if online == 0 {
				return false, wire.Errorf(CodePollStopped, "no member of the %s is online", k.name)
			}
			if k.chairman {
				if ch := c.Roles.Chairman; ch == "" || !tlOnline(ts, ch) {
					return false, wire.Errorf(CodePollNoChairman, "conference %s has no online chairman", c.ID())
				}
			}
			if k.conf && playbackPlaying(c, now) {
				return false, wire.Errorf(CodePollInPlayback, "conference %s is playing back a recording", c.ID())
			}
			p := &engine.Poll{Num: q.Num, KeepTime: q.KeepTime, Members: members, Origin: origin,
				State: pollStatePolling, Index: origin, TurnAt: tlMs(now)}
			if v, ok := r.Args.Params["mode"]; ok && v != nil { // none before 5.1.0.1.0
				p.Mode = model.Some(q.Mode)
			}
			*k.of(c) = p
			if k.conf {
				c.SetPollEnable(1)
			}
			return true, nil
		})
		if err != nil || !k.conf {
			return err
		}
		return m.mediaSync(ctx, c) // the member the poll shows (media_sync.go)
	})
}

// pollState stops (0), pauses (1) or resumes (2) a poll that is polling or
// paused; 20527 for a poll that is not. The mode parameter of the
// conference and chairman polls is not checked against the running poll's.
func (m *Module) pollState(k pollKind) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error {
		var q model.VCConfsPollStateUpdateRequest // the three polls' have value
		if err := q.Decode(r.Args); err != nil {
			return err
		}
		value := q.Value
		c, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
			ts, err := m.tlTerminals(ctx, *c)
			if err != nil {
				return false, err
			}
			now := m.clk.Now()
			p := *k.of(c)
			if !pollRunning(p, ts, now) {
				return false, wire.Errorf(CodeNotPolling, "conference %s is not running a %s", c.ID(), k.name)
			}
			if value == pollValueStop {
				pollStop(c, k)
				return true, nil
			}
			pos, _ := pollPos(p, ts, now, nil)
			return pollStateChange(p, value, pos, now), nil // poll_rules.go
		})
		if err != nil || !k.conf {
			return err
		}
		return m.mediaSync(ctx, c) // the member the poll shows (media_sync.go)
	})
}
