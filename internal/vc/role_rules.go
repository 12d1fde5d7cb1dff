package vc

import (
	"fmt"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The rules of the roles, voice activation and the VIP list (reference 05
// items 17 to 20, 31, 32, 94 and 95; A3 20344, 20346) as plain functions
// over the typed request and conference state: the handlers
// (control_speaker.go, control_vad.go) read the state, call them and
// write what they decide. role_rules_test.go checks them without HTTP or
// store.

// speakerChange is the precondition of designating (mtID) or cancelling
// ("") the speaker: while voice activation is on (vad 1) the voice picks
// the speaker, so setting one is 20346 and cancelling 20344.
func speakerChange(confID string, vad int, mtID string) error {
	if vad != 1 {
		return nil
	}
	if mtID == "" {
		return wire.Errorf(CodeVADCannotCancelSpeaker, "conference %s is in voice activation mode: the speaker cannot be cancelled", confID)
	}
	return wire.Errorf(CodeVADCannotSetSpeaker, "conference %s is in voice activation mode: no speaker can be designated", confID)
}

// vadSetting is what turning voice activation on or off stores: State,
// and Interval when Keep is false.
type vadSetting struct {
	State, Interval int
	Keep            bool // the stored interval stays
}

// vadChange is the change of voice activation: turning it on needs a
// vacinterval of at least 5 seconds (90400); turning it off keeps the
// stored interval unless a valid one (5 or more) is sent.
func vadChange(q model.VCConfsVADUpdateRequest) (vadSetting, error) {
	if q.State == 1 && q.Vacinterval < vadMinInterval {
		return vadSetting{}, wire.InvalidParam("vacinterval", fmt.Sprintf("must be at least %d seconds", vadMinInterval))
	}
	return vadSetting{State: q.State, Interval: q.Vacinterval, Keep: q.Vacinterval < vadMinInterval}, nil
}

// vipIDs are the terminals a VIP list names, in order: at most 8, each
// named once and of the local conference (cascade_id "" or "0"; the
// reference: "只能是本级终端"); 90400 otherwise. Whether each is an
// online terminal of the conference is the handler's check.
func vipIDs(q model.VCConfsViplistUpdateRequest) ([]string, error) {
	list := q.Mts
	if len(list) > vipMax {
		return nil, wire.InvalidParam("mts", fmt.Sprintf("at most %d VIP terminals; %d given", vipMax, len(list)))
	}
	ids := make([]string, 0, len(list))
	seen := map[string]bool{}
	for i, e := range list {
		id := e.MtID.Value
		at := fmt.Sprintf("mts[%d]", i)
		switch cas := e.CascadeID.Value; {
		case id == "":
			return nil, wire.InvalidParam(at+".mt_id", "required parameter is missing")
		case seen[id]:
			return nil, wire.InvalidParam(at+".mt_id", "terminal "+id+" is listed twice")
		case cas != "" && cas != vipLocalCascade:
			return nil, wire.InvalidParam(at+".cascade_id", "only terminals of the local conference (cascade_id 0) can be VIPs")
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids, nil
}
