package vc

import (
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The rules of the three polls (reference 05 items 12 to 14 and 42 to
// 47; seed 001 "Polling") as plain functions over the typed request and
// the stored poll: the handlers (poll.go) read the conference and its
// terminals, call them and write what they decide. poll_rules_test.go
// checks them without HTTP or store.

// pollStartOf checks a poll's start: num 0 (forever) or more rounds,
// keep_time at least 1 second, members naming terminals each once, and
// poll_index (default 1) among them; 90400 otherwise. It answers the
// members' ids in poll order and the index (0-based) of the first polled.
func pollStartOf(q model.VCConfsChairmanPollStartRequest) (ids []string, origin int, err error) {
	if q.Num < 0 {
		return nil, 0, wire.InvalidParam("num", "must be 0 (forever) or a number of rounds")
	}
	if q.KeepTime < 1 {
		return nil, 0, wire.InvalidParam("keep_time", "must be at least 1 second")
	}
	ids = mixMemberIDs(q.Members)
	if len(ids) == 0 {
		return nil, 0, wire.InvalidParam("members", "names no terminal")
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] {
			return nil, 0, wire.InvalidParam(fmt.Sprintf("members[%d].mt_id", i), "terminal "+id+" is listed twice")
		}
		seen[id] = true
	}
	first := q.PollIndex.Or(1)
	if first < 1 || first > len(ids) {
		return nil, 0, wire.InvalidParam("poll_index", fmt.Sprintf("%d is outside 1 to %d (the members)", first, len(ids)))
	}
	return ids, first - 1, nil
}

// pollStateChange applies a poll's state change (value 0 stop, 1 pause,
// 2 resume) at now to a running poll p whose position is pos: a pause
// takes a new anchor at the current member and stores the pause time, a
// resume moves the anchor by the pause's length. It answers false when p
// is already in that state (nothing to store); the stop itself, which
// also clears poll_enable, is the caller's (pollStop).
func pollStateChange(p *engine.Poll, value int, pos engine.PollPosition, now time.Time) bool {
	switch {
	case value == pollValuePause && p.State == pollStatePolling:
		if !pos.None {
			p.Index, p.Rounds, p.TurnAt = pos.Index, pos.Rounds, tlMs(now.Add(-pos.InTurn))
		}
		p.State, p.PausedAt = pollStatePaused, tlMs(now)
	case value == pollValueResume && p.State == pollStatePaused:
		p.TurnAt += tlMs(now) - p.PausedAt
		p.State, p.PausedAt = pollStatePolling, 0
	default:
		return false
	}
	return true
}

// pollReply is a poll's query answer (in the conference poll's type) for
// the stored poll p (nil: none ever ran) over the conference's terminals
// ts at now: its members (an mt_id no longer of the conference shown
// ""), its settings, and while it runs its state, mode, position and
// current member. mode is 0 while no poll runs (issue 42: the 5.0.0.4.1
// platform's reply); the settings of the last poll stay.
func pollReply(p *engine.Poll, ts map[string]engine.Terminal, now time.Time) model.VCConfsPollGetReply {
	out := model.VCConfsPollGetReply{CurPollMt: &model.VCConfsPollGetReplyCurPollMt{}, Members: []model.VCConfsPollGetReplyMember{}}
	if p == nil {
		return out
	}
	for _, mb := range p.Members {
		id := mb.MtID
		if _, ok := ts[id]; !ok {
			id = "" // no longer a terminal of the conference
		}
		out.Members = append(out.Members, model.VCConfsPollGetReplyMember{Account: mb.Account, MtID: id})
	}
	out.Num, out.KeepTime = p.Num, p.KeepTime
	if p.State != pollStateStopped {
		pos, _ := pollPos(p, ts, now, nil)
		if !pos.Done {
			out.State, out.Mode = p.State, p.Mode.Or(0) // none before 5.1.0.1.0 (and the upload poll's)
			if !pos.None {
				out.PollIndex = pos.Index + 1
				out.CurPollMt.MtID = p.Members[pos.Index].MtID
			}
		}
	}
	return out
}
