package vc

import (
	"strconv"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The terminal-control rules (reference 05 items 9, 13 to 16, 17, 18,
// 24 and 25: the terminals a control names, hanging up and removing,
// silence and mute of all, the dual stream) as plain functions over the
// typed request and conference state: the handlers (control_mute.go,
// control_dual.go, control.go, mts.go, mts_call.go) read the state, call
// them and write what they decide. control_rules_test.go checks them
// without HTTP or store.

// mtPresence is the precondition of a control that names a terminal: the
// conference has it (12104 otherwise) and, with online, it is in the call
// (20401 otherwise). state is the terminal's engine state when found.
func mtPresence(confID, mtID string, found bool, state string, online bool) error {
	if !found {
		return wire.Errorf(wire.CodeMTNotFound, "terminal %s does not exist in conference %s", mtID, confID)
	}
	if online && state != engine.StateOnline {
		return wire.Errorf(CodeMtUnreachable, "terminal %s of conference %s is not online", mtID, confID)
	}
	return nil
}

// batchIDs are the terminals a batch (hanging up, calling, removing)
// names, in order and without repeats: at least one, none empty (90400
// otherwise).
func batchIDs(mts []model.VCConfsSMSSendRequestMt) ([]string, error) {
	if len(mts) == 0 {
		return nil, wire.InvalidParam("mts", "must name at least one terminal")
	}
	seen := map[string]bool{}
	var out []string
	for i, e := range mts {
		id := e.MtID
		if id == "" {
			return nil, wire.InvalidParam("mts["+strconv.Itoa(i)+"].mt_id", "must not be empty")
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// muteAll is what a conference-wide mute stores and whom it leaves as
// they are.
type muteAll struct {
	Mute, ForceMute int
	Spare           map[string]bool // the speaker and the chairman under mute_filter 1
}

// muteAllOf is the change of a conference-wide mute: force_mute as sent
// with a mute, 0 when not sent, cleared by unmuting; with the
// conference's mute_filter 1 ("对发言方和管理方例外", reference 04) muting
// spares the speaker and the chairman; unmuting spares no one.
func muteAllOf(q model.VCConfsMuteUpdateRequest, muteFilter int, roles engine.Roles) muteAll {
	out := muteAll{Mute: q.Value, ForceMute: q.ForceMute.Value, Spare: map[string]bool{}}
	if q.Value == 0 {
		out.ForceMute = 0
	}
	if q.Value == 1 && muteFilter == 1 {
		for _, id := range []string{roles.Speaker, roles.Chairman} {
			if id != "" {
				out.Spare[id] = true
			}
		}
	}
	return out
}

// audioTargets are the terminals a conference-wide silence or mute
// (flag flagSilence or flagMute, to v) changes: those in the call, not
// spared, whose flag is not v already.
func audioTargets(ts []engine.Terminal, flag string, v int, spare map[string]bool) []string {
	var out []string
	for _, t := range ts {
		if t.Rec.State != engine.StateOnline || spare[t.MtID()] {
			continue
		}
		n, ok := t.MuteOK()
		if flag == flagSilence {
			n, ok = t.SilenceOK()
		}
		if ok && n == v {
			continue
		}
		out = append(out, t.MtID())
	}
	return out
}

// dualCancels tells whether cancelling the dual stream of mtID stops the
// source: "" stops whichever terminal is the source; a terminal that is
// not the source has nothing to stop.
func dualCancels(source, mtID string) bool { return mtID == "" || source == mtID }

// dualMoves is the move of the terminals' dual flag when the source
// changes from prev to next ("" for none): off is cleared ("" for none),
// on is set ("" for none).
func dualMoves(prev, next string) (off, on string) {
	if prev != next {
		off = prev
	}
	return off, next
}
