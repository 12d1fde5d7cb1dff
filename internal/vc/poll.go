package vc

import (
	"context"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/shape"
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
// Stored under the kind's key of the conference document:
//
//	mode, num, keep_time   as started
//	members                [{mt_id, account}] in poll order
//	origin                 index (0-based) of the first polled member
//	state                  1 polling, 2 paused, 0 stopped (as last set)
//	index, rounds, turn_at the anchor: member whose turn began at turn_at
//	                       (UNIX ms) and the rounds completed before it
//	paused_at              UNIX ms of the pause, 0 when not paused
//
// The terminals' poll flag is not maintained: the polled member changes
// with the clock alone, and terminal documents are written only by
// requests.

// Poll states, state values and the default interval.
const (
	pollStateStopped    = 0
	pollStatePolling    = 1
	pollStatePaused     = 2
	pollValueStop       = 0
	pollValuePause      = 1
	pollValueResume     = 2
	pollDefaultKeepTime = 5
)

// pollKind is one of the three polls.
type pollKind struct {
	key      string
	name     string
	conf     bool // the conference poll: reflected in poll_enable; refused during playback
	chairman bool // the chairman poll: needs an online chairman
}

var pollKinds = []pollKind{
	{key: tlKeyPoll, name: "conference poll", conf: true},
	{key: tlKeyUploadPoll, name: "upload poll"},
	{key: tlKeyChairmanPoll, name: "chairman poll", chairman: true},
}

// pollAnchor reads the stored anchor of a poll at now.
func pollAnchor(p map[string]any, now time.Time) engine.PollAnchor {
	eff := now
	if tlInt(p["state"]) == pollStatePaused && tlInt64(p["paused_at"]) > 0 {
		eff = tlAt(p["paused_at"])
	}
	return engine.PollAnchor{
		Members: len(tlObjs(p["members"])), Origin: tlInt(p["origin"]), Num: tlInt(p["num"]),
		Keep:  time.Duration(tlInt(p["keep_time"])) * time.Second,
		Index: tlInt(p["index"]), Rounds: tlInt(p["rounds"]), Elapsed: eff.Sub(tlAt(p["turn_at"])),
	}
}

// pollPos computes where a poll stands; also tells the time the clock is
// at for it (the pause time while paused).
func pollPos(p map[string]any, ts map[string]engine.Terminal, now time.Time, extra map[string]bool) (engine.PollPosition, time.Time) {
	members := tlObjs(p["members"])
	a := pollAnchor(p, now)
	pos := engine.PollAt(a, func(i int) bool {
		id := tlStr(members[i]["mt_id"])
		return tlOnline(ts, id) || extra[id]
	})
	return pos, tlAt(p["turn_at"]).Add(a.Elapsed)
}

// pollRunning tells whether a poll is polling or paused at now.
func pollRunning(p map[string]any, ts map[string]engine.Terminal, now time.Time) bool {
	if p == nil || tlInt(p["state"]) == pollStateStopped {
		return false
	}
	pos, _ := pollPos(p, ts, now, nil)
	return !pos.Done
}

// pollsActive tells whether any poll of the document was left running.
func pollsActive(doc map[string]any) bool {
	for _, k := range pollKinds {
		if p := tlObj(doc[k.key]); p != nil && tlInt(p["state"]) != pollStateStopped {
			return true
		}
	}
	return false
}

// pollStop marks a poll stopped.
func pollStop(doc map[string]any, k pollKind) {
	p := tlObj(doc[k.key])
	p["state"], p["paused_at"] = pollStateStopped, 0
	if k.conf {
		doc["poll_enable"] = 0
	}
}

// pollSettle stops a poll whose rounds are done (the due sweep).
func pollSettle(doc map[string]any, k pollKind, ts map[string]engine.Terminal, now time.Time) bool {
	p := tlObj(doc[k.key])
	if p == nil || tlInt(p["state"]) == pollStateStopped || pollRunning(p, ts, now) {
		return false
	}
	pollStop(doc, k)
	return true
}

// pollActive returns the poll of kind k when it runs (or is paused), nil
// when there is none or it stopped.
func pollActive(doc map[string]any, k pollKind) map[string]any {
	p := tlObj(doc[k.key])
	if p == nil || tlInt(p["state"]) == pollStateStopped {
		return nil
	}
	return p
}

// pollsRunning tells whether any poll of the conference runs.
func pollsRunning(doc map[string]any) bool {
	for _, k := range pollKinds {
		if pollActive(doc, k) != nil {
			return true
		}
	}
	return false
}

// pollLeave takes a new anchor after terminals left: the rotation up to
// now counts them as they were; from now on they are skipped. A poll with
// no member left online stops (reference A3 20524).
func pollLeave(doc map[string]any, k pollKind, ts map[string]engine.Terminal, gone leftSet, now time.Time) bool {
	p := pollActive(doc, k)
	if p == nil {
		return false
	}
	pos, eff := pollPos(p, ts, now, gone)
	if pos.Done || pos.None {
		pollStop(doc, k)
		return true
	}
	p["index"], p["rounds"], p["turn_at"] = pos.Index, pos.Rounds, tlMs(eff.Add(-pos.InTurn))
	if gone.has(tlStr(tlObjs(p["members"])[pos.Index]["mt_id"])) {
		p["turn_at"] = tlMs(eff) // the next member's turn begins now
	}
	after, _ := pollPos(p, ts, now, nil)
	if after.None || after.Done {
		pollStop(doc, k)
	}
	return true
}

// pollGet answers the poll's state, current member and members.
func (m *Module) pollGet(k pollKind) api.Handler {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) {
		c, err := m.tlRunning(ctx, r)
		if err != nil {
			return nil, err
		}
		ts, err := m.tlTerminals(ctx, c)
		if err != nil {
			return nil, err
		}
		p := tlObj(c.Doc[k.key])
		// mode is 0 while no poll runs (issue 42: the 5.0.0.4.1 platform's
		// reply); the settings of the last poll stay.
		out := map[string]any{"mode": 0, "state": pollStateStopped, "poll_index": 0, "cur_poll_mt": map[string]any{"mt_id": ""}, "members": []any{}}
		if p == nil {
			return shape.Project(out, r.Endpoint.Reply), nil
		}
		members := []any{}
		for _, mb := range tlObjs(p["members"]) {
			id := tlStr(mb["mt_id"])
			if _, ok := ts[id]; !ok {
				id = "" // no longer a terminal of the conference
			}
			members = append(members, map[string]any{"account": mb["account"], "mt_id": id})
		}
		out["num"], out["keep_time"], out["members"] = p["num"], p["keep_time"], members
		if state := tlInt(p["state"]); state != pollStateStopped {
			pos, _ := pollPos(p, ts, m.clk.Now(), nil)
			if !pos.Done {
				out["state"], out["mode"] = state, p["mode"]
				if !pos.None {
					out["poll_index"] = pos.Index + 1
					out["cur_poll_mt"] = map[string]any{"mt_id": tlStr(tlObjs(p["members"])[pos.Index]["mt_id"])}
				}
			}
		}
		return shape.Project(out, r.Endpoint.Reply), nil
	}
}

// pollStart starts (or restarts with new settings) a poll.
func (m *Module) pollStart(k pollKind) api.Handler {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) {
		ps := r.Args.Params
		num, _ := tlParam(ps, "num")
		keep, ok := tlParam(ps, "keep_time")
		if !ok {
			keep = pollDefaultKeepTime
		}
		if num < 0 {
			return nil, wire.InvalidParam("num", "must be 0 (forever) or a number of rounds")
		}
		if keep < 1 {
			return nil, wire.InvalidParam("keep_time", "must be at least 1 second")
		}
		ids := tlMtIDs(ps["members"])
		if len(ids) == 0 {
			return nil, wire.InvalidParam("members", "names no terminal")
		}
		seen := map[string]bool{}
		for i, id := range ids {
			if seen[id] {
				return nil, wire.InvalidParam(fmt.Sprintf("members[%d].mt_id", i), "terminal "+id+" is listed twice")
			}
			seen[id] = true
		}
		first, ok := tlParam(ps, "poll_index")
		if !ok {
			first = 1
		}
		if first < 1 || first > len(ids) {
			return nil, wire.InvalidParam("poll_index", fmt.Sprintf("%d is outside 1 to %d (the members)", first, len(ids)))
		}
		c, err := m.tlUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
			ts, err := m.tlTerminals(ctx, *c)
			if err != nil {
				return false, err
			}
			now := m.clk.Now()
			members := make([]any, len(ids))
			online := 0
			for i, id := range ids {
				if err := tlMember(*c, ts, fmt.Sprintf("members[%d].mt_id", i), id, false); err != nil {
					return false, err
				}
				if tlOnline(ts, id) {
					online++
				}
				members[i] = map[string]any{"mt_id": id, "account": ts[id].Doc["account"]}
			}
			if online == 0 {
				return false, wire.Errorf(CodePollStopped, "no member of the %s is online", k.name)
			}
			if k.chairman {
				if ch := c.Roles.Chairman; ch == "" || !tlOnline(ts, ch) {
					return false, wire.Errorf(CodePollNoChairman, "conference %s has no online chairman", c.ID())
				}
			}
			if k.conf && playbackPlaying(c.Doc, now) {
				return false, wire.Errorf(CodePollInPlayback, "conference %s is playing back a recording", c.ID())
			}
			p := map[string]any{"num": num, "keep_time": keep, "members": members, "origin": first - 1,
				"state": pollStatePolling, "index": first - 1, "rounds": 0, "turn_at": tlMs(now), "paused_at": 0}
			if mode, ok := tlParam(ps, "mode"); ok {
				p["mode"] = mode
			}
			c.Doc[k.key] = p
			if k.conf {
				c.Doc["poll_enable"] = 1
			}
			return true, nil
		})
		if err != nil || k.key != tlKeyPoll {
			return nil, err
		}
		return nil, m.mediaSync(ctx, c) // the member the poll shows (media_sync.go)
	}
}

// pollState stops (0), pauses (1) or resumes (2) a poll that is polling or
// paused; 20527 for a poll that is not. The mode parameter of the
// conference and chairman polls is not checked against the running poll's.
func (m *Module) pollState(k pollKind) api.Handler {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) {
		value, _ := tlParam(r.Args.Params, "value")
		c, err := m.tlUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
			ts, err := m.tlTerminals(ctx, *c)
			if err != nil {
				return false, err
			}
			now := m.clk.Now()
			p := tlObj(c.Doc[k.key])
			if !pollRunning(p, ts, now) {
				return false, wire.Errorf(CodeNotPolling, "conference %s is not running a %s", c.ID(), k.name)
			}
			state := tlInt(p["state"])
			switch {
			case value == pollValueStop:
				pollStop(c.Doc, k)
			case value == pollValuePause && state == pollStatePolling:
				pos, _ := pollPos(p, ts, now, nil)
				if !pos.None {
					p["index"], p["rounds"], p["turn_at"] = pos.Index, pos.Rounds, tlMs(now.Add(-pos.InTurn))
				}
				p["state"], p["paused_at"] = pollStatePaused, tlMs(now)
			case value == pollValueResume && state == pollStatePaused:
				p["turn_at"] = tlInt64(p["turn_at"]) + tlMs(now) - tlInt64(p["paused_at"])
				p["state"], p["paused_at"] = pollStatePolling, 0
			default:
				return false, nil // already in that state
			}
			return true, nil
		})
		if err != nil || k.key != tlKeyPoll {
			return nil, err
		}
		return nil, m.mediaSync(ctx, c) // the member the poll shows (media_sync.go)
	}
}
