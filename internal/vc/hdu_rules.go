package vc

import (
	"fmt"
	"sort"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The TV walls' rules (hdu.go), plain functions over the conference's
// walls and what occupies each wall (hduUses: "hdus", "hdupoll",
// "hduvmps"; issue 40): a start's walls, a stop's and an alias's checks,
// the list. hdu_rules_test.go checks them without HTTP or store.

// hduPut is the conference's walls with h started: it replaces the view
// of the wall h names when the conference runs it already.
func hduPut(walls []engine.HDU, h engine.HDU) []engine.HDU {
	out := append([]engine.HDU{}, walls...) // stored as a list
	for i := range out {
		if out[i].HDUID == h.HDUID {
			out[i] = h
			return out
		}
	}
	return append(out, h)
}

// hduStopOf is the index of the wall id a stop removes: 12105 when the
// conference runs none, 20056 for a wall of the batch poll (which stops
// with the poll).
func hduStopOf(c engine.Conference, uses map[string]string, id string) (int, error) {
	if i := hduFind(c, id); i >= 0 {
		return i, nil
	}
	if uses[id] == "hdupoll" {
		return -1, wire.Errorf(CodeHDUPolling, "TV wall %s is in the TV-wall batch poll of conference %s: stop the poll", id, c.ID())
	}
	return -1, wire.Errorf(CodeHDUNotFound, "conference %s runs no TV wall %s", c.ID(), id)
}

// hduList is the walls' list: those the conference started and those of
// its batch poll (not the self compositions' walls), in the registry's
// order.
func hduList(uses map[string]string) *model.VCConfsHDUsListReply {
	var ids []string
	for id, use := range uses {
		if use != "hduvmps" {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return hduLess(ids[i], ids[j]) })
	out := &model.VCConfsHDUsListReply{HDUs: make([]model.VCConfsHDUsListReplyHDU, len(ids))}
	for i, id := range ids {
		out.HDUs[i].HDUID = id
	}
	return out
}

// hdupollWallReply is what a wall of the batch poll shows: the terminal
// mtID (its account) as a selected view of member type 7.
func hdupollWallReply(id string, hp *engine.HDUPoll, mtID, account string) *model.VCConfsHDUsGetReply {
	return &model.VCConfsHDUsGetReply{HDUID: id, Mode: 1, ShowMtName: hp.ShowMtName,
		Specific: &model.VCConfsHDUsGetReplySpecific{MemberType: "7", MtID: mtID, Account: account}}
}

// hduAliasCheck refuses an alias longer than a wall's name.
func hduAliasCheck(alias string) error {
	if len(alias) > hduNameMax {
		return wire.InvalidParam("alias", fmt.Sprintf("%d bytes; a TV-wall name holds at most %d", len(alias), hduNameMax))
	}
	return nil
}

// hduAliasSet sets (or, empty, clears) the alias of a wall the
// conference occupies (12105 otherwise).
func hduAliasSet(c *engine.Conference, uses map[string]string, id, alias string) error {
	if uses[id] == "" {
		return wire.Errorf(CodeHDUNotFound, "conference %s occupies no TV wall %s", c.ID(), id)
	}
	if c.HDUAliases == nil {
		c.HDUAliases = map[string]string{}
	}
	if alias == "" {
		delete(c.HDUAliases, id)
	} else {
		c.HDUAliases[id] = alias
	}
	return nil
}

// hdupollReply is the batch poll's query answer: state 0 and nothing
// else when none runs; state is the poll's as the view reads it, pool
// the terminals it turns through.
func hdupollReply(hp *engine.HDUPoll, state int, pool []string) *model.VCConfsHdupollGetReply {
	if hp == nil {
		return &model.VCConfsHdupollGetReply{}
	}
	out := &model.VCConfsHdupollGetReply{Mode: hp.Mode, Num: hp.Num, KeepTime: hp.KeepTime, ShowMtName: hp.ShowMtName, State: state}
	for _, id := range hp.HDUIDs {
		out.HDUs = append(out.HDUs, model.VCConfsHdupollGetReplyHDU{HDUID: id})
	}
	for _, id := range pool {
		out.Members = append(out.Members, model.VCConfsHdupollGetReplyMember{MtID: id})
	}
	return out
}

// hdupollWalls reads a batch poll's start: its walls (at least one, each
// once) and the mt_ids its members name (mode 2, a custom poll; nil
// otherwise), to be checked against the conference.
func hdupollWalls(q model.VCConfsHdupollStartRequest) (walls, members []string, err error) {
	ids := make([]string, len(q.HDUs))
	for i, h := range q.HDUs {
		ids[i] = h.HDUID
	}
	if walls, err = hduIDs(ids, "hdus"); err != nil {
		return nil, nil, err
	}
	if q.Mode == 2 {
		members = make([]string, len(q.Members))
		for i, e := range q.Members {
			members[i] = e.MtID
		}
	}
	return walls, members, nil
}

// hdupollStateChange applies a state request (value 0 stop, 1 pause, 2
// resume) to the running batch poll poll_id id at now (20524 when it
// does not run; running is the poll's state as the view reads it).
func hdupollStateChange(c *engine.Conference, id, value, running int, now time.Time) error {
	hp := c.HDUPoll
	if hp == nil || hp.PollID != id || running == 0 {
		return wire.Errorf(CodePollStopped, "conference %s runs no TV-wall batch poll %d", c.ID(), id)
	}
	rot := hdupollRot(hp)
	switch value {
	case 0:
		c.HDUPoll = nil
	case 1:
		hp.Rot, hp.State = rot.pause(now).stored(), 2
	case 2:
		hp.Rot, hp.State = rot.resume(now).stored(), 1
	}
	return nil
}
