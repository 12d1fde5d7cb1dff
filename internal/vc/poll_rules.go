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
