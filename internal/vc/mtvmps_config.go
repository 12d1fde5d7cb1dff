package vc

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Self compositions: the picture a terminal (mtvmps, mt_channel_vmps) or
// a TV wall (hduvmps) composes for itself (reference 05 items 57 to 66).
// Their stored form is {mode, layout, voice_hint, show_mt_name, members}
// with members {chn_idx, member_type, mt_id, mt_chn_idx}: member type 0 is
// an empty channel, 1 a chosen terminal; the reference's own example sends
// 2, so the types of the conference composition that follow a role (2, 3,
// 4, 5, 7) are accepted with the same meaning. In automatic mode (2) the
// panes are filled from the online terminals, as for the conference
// composition.

// selfRequest is what the start and the modification of a self
// composition send: the generated requests of mtvmps and mt_channel_vmps
// (selfRequestOf) and of hduvmps (wallRequestOf).
type selfRequest struct {
	Layout     int
	VoiceHint  int
	ShowMtName int
	Members    []selfMemberRequest
}

// selfMemberRequest is a channel of a self composition's request.
type selfMemberRequest struct {
	ChnIdx      int
	MemberType  model.Opt[int] // member_type (reference)
	MembersType model.Opt[int] // members_type (seed 001)
	MtID        string
	MtChnIdx    int
}

// selfRequestOf is a terminal's self composition request (the members of
// mtvmps and mt_channel_vmps are one type).
func selfRequestOf(layout, voiceHint, showMtName int, members []model.VCConfsMtvmpsCreateRequestMember) selfRequest {
	q := selfRequest{Layout: layout, VoiceHint: voiceHint, ShowMtName: showMtName, Members: make([]selfMemberRequest, len(members))}
	for i, e := range members {
		q.Members[i] = selfMemberRequest{ChnIdx: e.ChnIdx, MemberType: e.MemberType, MembersType: e.MembersType,
			MtID: e.MtID, MtChnIdx: e.MtChnIdx.Or(0)}
	}
	return q
}

// wallRequestOf is a wall's self composition request. The catalogue
// declares no voice_hint for it (vcMediaWallVMPParams): its
// stored voice_hint stays 0, one that is sent is not read (validation
// leaves undeclared parameters in the request; before, it was read from
// them and stored, TestHDUVMPStoresNoUndeclaredVoiceHint).
func wallRequestOf(layout, showMtName int, members []model.VCConfsHduvmpsCreateRequestMember) selfRequest {
	q := selfRequest{Layout: layout, ShowMtName: showMtName, Members: make([]selfMemberRequest, len(members))}
	for i, e := range members {
		q.Members[i] = selfMemberRequest{ChnIdx: e.ChnIdx, MemberType: e.MemberType, MembersType: e.MembersType,
			MtID: e.MtID.Or(""), MtChnIdx: e.MtChnIdx.Or(0)}
	}
	return q
}

// selfConfig checks the request of a self composition in mode against the
// conference's terminals s (pane_rules.go) and returns its stored form
// (engine.SelfVMP, without its owner) and the terminals it names.
func selfConfig(q selfRequest, mode int, s paneState) (engine.SelfVMP, []string, error) {
	layout := q.Layout
	panes, err := vmpPanes(layout)
	if err != nil {
		return engine.SelfVMP{}, nil, err
	}
	cfg := engine.SelfVMP{Mode: mode, Layout: layout, VoiceHint: q.VoiceHint,
		ShowMtName: q.ShowMtName, Members: []engine.VMPMember{}}
	if mode != 1 {
		return cfg, nil, nil
	}
	chns := make([]int, len(q.Members))
	for i, e := range q.Members {
		chns[i] = e.ChnIdx
	}
	if err := mdChannelList(chns, panes, layout, "members"); err != nil {
		return engine.SelfVMP{}, nil, err
	}
	var named []string
	chosen := map[string]bool{}
	for i, e := range q.Members {
		path := fmt.Sprintf("members[%d]", i)
		typ, err := mdMemberTypeOf(e.MemberType, e.MembersType, path)
		if err != nil {
			return engine.SelfVMP{}, nil, err
		}
		if typ < mtypeEmpty || typ > mtypeDual || typ == mtypeSingle {
			return engine.SelfVMP{}, nil, wire.InvalidParam(path+".member_type", fmt.Sprintf("%d is not a member type of a self composition (0 to 5, 7)", typ))
		}
		ch := engine.VMPMember{ChnIdx: e.ChnIdx, MemberType: typ}
		if typ == mtypeChosen {
			id := e.MtID
			if id == "" {
				return engine.SelfVMP{}, nil, wire.InvalidParam(path+".mt_id", "required when member_type is 1")
			}
			if err := s.member(path+".mt_id", id); err != nil {
				return engine.SelfVMP{}, nil, err
			}
			if chosen[id] {
				return engine.SelfVMP{}, nil, wire.Errorf(CodeVMPSameMt, "%s.mt_id: terminal %s takes two channels of the composition", path, id)
			}
			chosen[id] = true
			mtChn := e.MtChnIdx
			if err := s.channel(path+".mt_chn_idx", id, mtChn, "v_snd_chn"); err != nil {
				return engine.SelfVMP{}, nil, err
			}
			ch.MtID, ch.MtChnIdx = id, mtChn
			named = append(named, id)
		}
		cfg.Members = append(cfg.Members, ch)
	}
	return cfg, named, nil
}

// selfPanes are the panes of a self composition as it shows now.
func (v *mdView) selfPanes(cfg engine.SelfVMP) []vmpPane {
	auto := 0
	if cfg.Mode == 2 {
		auto = 2
	}
	return v.compose(cfg.Layout, cfg.Members, auto, nil)
}

// selfMembers are the members of a self composition as they show
// ({chn_idx, member_type, mt_id, mt_chn_idx, account}).
func (v *mdView) selfMembers(cfg engine.SelfVMP) []model.VCConfsMtvmpsGetReplyMember {
	out := []model.VCConfsMtvmpsGetReplyMember{}
	for _, p := range v.selfPanes(cfg) {
		out = append(out, model.VCConfsMtvmpsGetReplyMember{ChnIdx: p.chn, MemberType: p.typ, MtID: p.mtID,
			MtChnIdx: p.mtChn, Account: v.account(p.mtID)})
	}
	return out
}

// mtvmpsReply is a terminal's self composition as mtvmps.get shows it,
// with its panes' members.
func mtvmpsReply(cfg engine.SelfVMP, members []model.VCConfsMtvmpsGetReplyMember) *model.VCConfsMtvmpsGetReply {
	return &model.VCConfsMtvmpsGetReply{Mode: cfg.Mode, Layout: cfg.Layout, VoiceHint: cfg.VoiceHint,
		ShowMtName: cfg.ShowMtName, Members: members}
}

// channelVMPReply is a terminal's channel's self composition as the
// channel's gets show it (its terminal and channel too).
func channelVMPReply(cfg engine.SelfVMP, members []model.VCConfsMtvmpsGetReplyMember) *model.VCConfsMtChannelVMPsGetReply {
	return &model.VCConfsMtChannelVMPsGetReply{MtID: cfg.MtID, MtChnIdx: cfg.MtChnIdx, Mode: cfg.Mode, Layout: cfg.Layout,
		VoiceHint: cfg.VoiceHint, ShowMtName: cfg.ShowMtName, Members: members}
}

// selfSorted is a copy of the self compositions by terminal, then
// channel.
func selfSorted(selfs []engine.SelfVMP) []engine.SelfVMP {
	selfs = slices.Clone(selfs)
	sort.SliceStable(selfs, func(i, j int) bool {
		a, b := mdNum(selfs[i].MtID), mdNum(selfs[j].MtID)
		if a != b {
			return a < b
		}
		return selfs[i].MtChnIdx < selfs[j].MtChnIdx
	})
	return selfs
}

// mtvmpsList is the terminals' list of self compositions (mtvmps.list).
func mtvmpsList(selfs []engine.SelfVMP) *model.VCConfsMtvmpsListReply {
	var out model.VCConfsMtvmpsListReply
	for _, s := range selfs {
		out.Mts = append(out.Mts, model.VCConfsMtvmpsListReplyMt{Mode: s.Mode, Layout: s.Layout,
			VoiceHint: s.VoiceHint, ShowMtName: s.ShowMtName, MtID: s.MtID})
	}
	return &out
}

// channelVMPList is the channels' list of self compositions
// (mt_channel_vmps.list).
func channelVMPList(selfs []engine.SelfVMP) *model.VCConfsMtChannelVMPsListReply {
	var out model.VCConfsMtChannelVMPsListReply
	for _, s := range selfs {
		out.Mts = append(out.Mts, model.VCConfsMtChannelVMPsListReplyMt{Mode: s.Mode, Layout: s.Layout,
			VoiceHint: s.VoiceHint, ShowMtName: s.ShowMtName, MtID: s.MtID, MtChnIdx: s.MtChnIdx})
	}
	return &out
}

// wallReply is the reply of a TV wall's self composition as it is now.
func (v *mdView) wallReply(cfg engine.SelfVMP) *model.VCConfsHduvmpsGetReply {
	out := model.VCConfsHduvmpsGetReply{Mode: cfg.Mode, Layout: cfg.Layout, ShowMtName: cfg.ShowMtName,
		Members: []model.VCConfsHduvmpsGetReplyMember{}}
	for _, m := range v.selfMembers(cfg) {
		out.Members = append(out.Members, model.VCConfsHduvmpsGetReplyMember{ChnIdx: m.ChnIdx, MemberType: m.MemberType,
			Account: m.Account, MtID: m.MtID})
	}
	return &out
}

// dropSelfMembers removes the terminals in gone from the chosen channels
// of a self composition and reports whether it changed.
func dropSelfMembers(cfg *engine.SelfVMP, gone leftSet) bool {
	kept := make([]engine.VMPMember, 0, len(cfg.Members))
	for _, e := range cfg.Members {
		if e.MtID == "" || !gone.has(e.MtID) {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(cfg.Members) {
		return false
	}
	cfg.Members = kept
	return true
}

// selfDrop removes the terminals in gone from the self compositions of a
// conference: a terminal's own compositions stop, channels it held
// become empty. It reports whether the conference changed.
func selfDrop(c *engine.Conference, gone leftSet, _ time.Time) bool {
	changed := false
	if c.SelfVMPs != nil {
		kept := make([]engine.SelfVMP, 0, len(c.SelfVMPs))
		for _, s := range c.SelfVMPs {
			if gone.has(s.MtID) {
				changed = true
				continue
			}
			changed = dropSelfMembers(&s, gone) || changed
			kept = append(kept, s)
		}
		if changed {
			c.SelfVMPs = kept
		}
	}
	for i := range c.HDUVMPs {
		if dropSelfMembers(&c.HDUVMPs[i], gone) {
			changed = true
		}
	}
	return changed
}
