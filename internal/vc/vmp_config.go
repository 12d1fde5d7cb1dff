package vc

import (
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The stored form of the conference picture composition (engine.VMP), built
// from the parameters of starting or modifying it (reference 05 "开启会议
// 画面合成", "修改会议画面合成"; seed 001 "Picture composition"):
//
//	mode, layout, broadcast, voice_hint, show_mt_name, except_self,
//	mt_name_style   as sent (mt_name_style with its defaults)
//	members         the channels the caller chose (modes 1 and 4):
//	                {chn_idx, member_type, mt_id, mt_chn_idx, poll}; poll
//	                (member type 6) is {num, keep_time, mt_ids} plus its
//	                rotation
//	poll            the batch poll (modes 3 and 4): {num, keep_time, mt_ids}
//	                plus its rotation; mt_ids only in mode 4
//
// In the automatic modes (2 and 3) the members sent are not used: the
// panes are filled from the online terminals when they are read.

// vmpRequest is a composition's start or change as its request sends it.
// vmpRequestOf reads it from either request.
type vmpRequest struct {
	// ModeSent tells whether mode was sent: before 5.1.0.1.0 it is not.
	ModeSent                                                   bool
	Mode, Layout, Broadcast, VoiceHint, ShowMtName, ExceptSelf int
	NameStyle                                                  model.VCConfsVMPsCreateRequestMtNameStyle
	Members                                                    []vmpMemberRequest
	// Poll is the batch poll (nil when not sent); its PollIndex is unused.
	Poll *pollRequest
}

// vmpMemberRequest is a chosen channel as a request sends it.
type vmpMemberRequest struct {
	ChnIdx                  int
	MemberType, MembersType model.Opt[int]
	MtID                    string
	MtChnIdx                int
	Poll                    *pollRequest // the single-channel poll
}

// vmpModeSent tells whether a composition's request sent mode.
func vmpModeSent(a *wire.Args) bool {
	_, ok := a.Params["mode"]
	return ok
}

// vmpPollOf is a poll of a composition's request: num and keep_time are
// required members of both polls, present whenever the poll is.
func vmpPollOf(num, keep int, pollIndex model.Opt[int], members []model.VCConfsSMSSendRequestMt) *pollRequest {
	pr := &pollRequest{Num: model.Some(num), KeepTime: model.Some(keep), PollIndex: pollIndex, MtIDs: make([]string, len(members))}
	for i, e := range members {
		pr.MtIDs[i] = e.MtID
	}
	return pr
}

// vmpRequestOf reads a composition's start or change (POST, or PUT with
// the same members: model.VCConfsVMPsUpdatePutRequest). The generated
// requests of the start (model.VCConfsVMPsCreateRequest) and of the
// change (model.VCConfsVMPsUpdateRequest) have distinct nested types
// with the same members and the same decoding, the start's name style
// being a pointer where the change's is a value (absent: the zero style
// in both); both are read through the change's type, so that one loop
// reads the channels and their polls (TestVMPRequestsDecodeAlike).
func vmpRequestOf(a *wire.Args) (vmpRequest, error) {
	var q model.VCConfsVMPsUpdateRequest
	if err := q.Decode(a); err != nil {
		return vmpRequest{}, err
	}
	out := vmpRequest{ModeSent: vmpModeSent(a), Mode: q.Mode, Layout: q.Layout, Broadcast: q.Broadcast,
		VoiceHint: q.VoiceHint, ShowMtName: q.ShowMtName, ExceptSelf: q.ExceptSelf.Or(0),
		NameStyle: q.MtNameStyle, Members: make([]vmpMemberRequest, len(q.Members))}
	for i, e := range q.Members {
		out.Members[i] = vmpMemberRequest{ChnIdx: e.ChnIdx, MemberType: e.MemberType, MembersType: e.MembersType,
			MtID: e.MtID.Or(""), MtChnIdx: e.MtChnIdx.Or(0)}
		if po := e.Poll; po != nil {
			out.Members[i].Poll = vmpPollOf(po.Num, po.KeepTime, po.PollIndex, po.Members)
		}
	}
	if po := q.Poll; po != nil {
		out.Poll = vmpPollOf(po.Num, po.KeepTime, model.Opt[int]{}, po.Members)
	}
	return out, nil
}

// vmpConfig checks the parameters of a composition against the
// conference's terminals s (pane_rules.go) and returns its stored form.
// old is the composition being modified (nil when starting): a
// single-channel poll sent with poll_index 0 carries on from the terminal
// its channel shows now.
func vmpConfig(q vmpRequest, old *engine.VMP, s paneState) (*engine.VMP, error) {
	mode, layout := q.Mode, q.Layout
	if !q.ModeSent {
		// Before 5.1.0.1.0 a composition has no mode (seed 001): a
		// change keeps the mode; at the start, the members it names make
		// it custom, none automatic (docs/compatibility.md).
		switch {
		case old != nil:
			mode = old.Mode
		case len(q.Members) > 0:
			mode = 1
		default:
			mode = 2
		}
	}
	panes, err := vmpPanes(layout)
	if err != nil {
		return nil, err
	}
	style, err := vmpNameStyleOf(q.NameStyle)
	if err != nil {
		return nil, err
	}
	cfg := &engine.VMP{Mode: mode, Layout: layout, Broadcast: q.Broadcast,
		VoiceHint: q.VoiceHint, ShowMtName: q.ShowMtName,
		ExceptSelf: q.ExceptSelf, NameStyle: style, Members: []engine.VMPMember{}}
	if mode == 1 || mode == 4 {
		chns := make([]int, len(q.Members))
		for i, e := range q.Members {
			chns[i] = e.ChnIdx
		}
		if err := mdChannelList(chns, panes, layout, "members"); err != nil {
			return nil, err
		}
		var oldMembers []engine.VMPMember
		if old != nil {
			oldMembers = old.Members
		}
		ms, err := vmpMembers(q.Members, oldMembers, s)
		if err != nil {
			return nil, err
		}
		cfg.Members = ms
	}
	if mode != 3 && mode != 4 {
		return cfg, nil
	}
	po := q.Poll
	if po == nil {
		return nil, wire.InvalidParam("poll", fmt.Sprintf("required in mode %d (batch poll)", mode))
	}
	num, keep, err := mdRoundsKeepOf(po.Num, po.KeepTime, "poll", 0)
	if err != nil {
		return nil, err
	}
	bp := &engine.SinglePoll{Num: num, KeepTime: keep, MtIDs: []string{}}
	if mode == 4 {
		ids, err := s.idList(po.MtIDs, "poll.members")
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, wire.InvalidParam("poll.members", "must name the terminals of the batch poll in mode 4")
		}
		if len(q.Members) >= panes {
			return nil, wire.Errorf(CodeVMPMembersRefused, "members: layout %d has %d panes and the channels chosen take them all: no pane is left for the batch poll", layout, panes)
		}
		bp.MtIDs = ids
	}
	bp.Rot = mdRot{Num: num, Keep: time.Duration(keep) * time.Second, Since: s.Now}.stored()
	cfg.Poll = bp
	return cfg, nil
}

// vmpMembers checks the chosen channels of a composition (their chn_idx
// already checked against the layout) and returns their stored form. At
// most one channel follows the speaker (20827), the conference poll
// (20828) or the dual stream (20837); a terminal takes one chosen channel
// (20826).
func vmpMembers(members []vmpMemberRequest, old []engine.VMPMember, s paneState) ([]engine.VMPMember, error) {
	count := map[int]int{}
	chosen := map[string]bool{}
	out := make([]engine.VMPMember, 0, len(members))
	for i, e := range members {
		path := fmt.Sprintf("members[%d]", i)
		typ, err := mdMemberTypeOf(e.MemberType, e.MembersType, path)
		if err != nil {
			return nil, err
		}
		if typ < mtypeEmpty || typ > mtypeDual {
			return nil, wire.InvalidParam(path+".member_type", fmt.Sprintf("%d is not a member type (0 to 7)", typ))
		}
		count[typ]++
		for t, code := range map[int]int{mtypeSpeaker: CodeVMPTwoSpeaker, mtypePoll: CodeVMPTwoPoll, mtypeDual: CodeVMPTwoDual} {
			if typ == t && count[t] > 1 {
				return nil, wire.Errorf(code, "%s: only one channel may have member type %d", path, t)
			}
		}
		chn := e.ChnIdx
		ch := engine.VMPMember{ChnIdx: chn, MemberType: typ}
		switch typ {
		case mtypeChosen:
			id := e.MtID
			if id == "" {
				return nil, wire.InvalidParam(path+".mt_id", "required when member_type is 1")
			}
			if err := s.member(path+".mt_id", id); err != nil {
				return nil, err
			}
			if chosen[id] {
				return nil, wire.Errorf(CodeVMPSameMt, "%s.mt_id: terminal %s takes two channels of the composition", path, id)
			}
			chosen[id] = true
			mtChn := e.MtChnIdx
			if err := s.channel(path+".mt_chn_idx", id, mtChn, "v_snd_chn"); err != nil {
				return nil, err
			}
			ch.MtID, ch.MtChnIdx = id, mtChn
		case mtypeSingle:
			if e.Poll == nil {
				return nil, wire.InvalidParam(path+".poll", "required when member_type is 6")
			}
			sp, err := s.singlePoll(*e.Poll, path+".poll", vmpOldPoll(old, chn))
			if err != nil {
				return nil, err
			}
			ch.Poll = sp
		}
		out = append(out, ch)
	}
	return out, nil
}

// vmpOldPoll is the single-channel poll of channel chn among the stored
// members old (nil when there is none).
func vmpOldPoll(old []engine.VMPMember, chn int) *engine.SinglePoll {
	for _, m := range old {
		if m.ChnIdx == chn && m.MemberType == mtypeSingle {
			return m.Poll
		}
	}
	return nil
}

// pollRequest is a single-channel poll as a request sends it: the mt_id
// of each of its members.
type pollRequest struct {
	Num, KeepTime, PollIndex model.Opt[int]
	MtIDs                    []string
}

// singlePollOf checks a single-channel poll (paneState.singlePoll).
func (v *mdView) singlePollOf(po pollRequest, path string, old *engine.SinglePoll) (*engine.SinglePoll, error) {
	return v.panes().singlePoll(po, path, old)
}
