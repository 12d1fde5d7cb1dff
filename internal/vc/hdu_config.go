package vc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The stored form of a started TV wall (engine.HDU) and what it shows
// (reference 05 "开启电视墙", "获取电视墙通道信息"):
//
//	hdu_id, mode, show_mt_name
//	specific  mode 1: {member_type, mt_id, mt_chn_idx, vmp_id}; the view
//	          type is a string, as the reference types it: 1 a chosen
//	          terminal, 2 the speaker, 3 the chairman, 4 the conference
//	          poll, 6 the picture composition (vmp_id 1), 10 the dual
//	          stream; an empty type (the reference's example) is read as 1
//	poll      mode 3: {num, mode, keep_time, mt_ids} and its rotation
//	spilt     mode 2: {members: [{chn_idx 0 to 3, mt_id}]}

// hduViewTypes are the view types a wall may be started with.
var hduViewTypes = map[string]bool{"1": true, "2": true, "3": true, "4": true, "6": true, "10": true}

// hduConfig checks the parameters of starting a wall and returns its
// stored form and the terminals it names.
func (v *mdView) hduConfig(q model.VCConfsHDUsCreateRequest) (engine.HDU, []string, error) {
	mode := q.Mode
	h := engine.HDU{HDUID: q.HDUID, Mode: mode, ShowMtName: q.ShowMtName.Or(0)}
	switch mode {
	case 1:
		sp := q.Specific
		if sp == nil {
			return h, nil, wire.InvalidParam("specific", "required in mode 1 (selected view)")
		}
		typ := strings.TrimSpace(sp.MemberType)
		if typ == "" {
			typ = "1"
		}
		if !hduViewTypes[typ] {
			return h, nil, wire.InvalidParam("specific.member_type", fmt.Sprintf("%q is not a view type (1, 2, 3, 4, 6 or 10)", typ))
		}
		out := &engine.HDUView{MemberType: typ}
		var named []string
		switch typ {
		case "1":
			id, chn := sp.MtID.Or(""), sp.MtChnIdx.Or(0)
			if id == "" {
				return h, nil, wire.InvalidParam("specific.mt_id", "required when the view type is 1")
			}
			if err := v.member("specific.mt_id", id); err != nil {
				return h, nil, err
			}
			if err := v.channel("specific.mt_chn_idx", id, chn, "v_snd_chn"); err != nil {
				return h, nil, err
			}
			out.MtID, out.MtChnIdx, named = id, chn, []string{id}
		case "6":
			vmpID := sp.VMPID.Or("")
			if vmpID == "" {
				vmpID = vmpMain
			}
			if _, err := vmpRunning(v.conf, vmpID); err != nil {
				return h, nil, err
			}
			out.VMPID = vmpID
		}
		h.Specific = out
		return h, named, nil
	case 2:
		var members []model.VCConfsHDUsCreateRequestSpiltMember
		if q.Spilt != nil {
			members = q.Spilt.Members
		}
		return v.hduSplit(h, members)
	}
	po := q.Poll
	if po == nil {
		return h, nil, wire.InvalidParam("poll", "required in mode 3 (single-channel poll)")
	}
	// num and keep_time are required members of a wall's poll: present.
	pr := pollRequest{Num: model.Opt[int]{Value: po.Num, Set: true}, KeepTime: model.Opt[int]{Value: po.KeepTime, Set: true},
		PollIndex: po.PollIndex, MtIDs: make([]string, len(po.Members))}
	for i, e := range po.Members {
		pr.MtIDs[i] = e.MtID.Or("")
	}
	sp, err := v.singlePollOf(pr, "poll", nil)
	if err != nil {
		return h, nil, err
	}
	sp.Mode = max(po.Mode, 1) // 1 video only, 3 audio and video
	h.Poll = sp
	return h, sp.MtIDs, nil
}

// hduSplit checks a four-way split screen: at least one member, channels
// 0 to 3 each given once, online terminals each in one channel.
func (v *mdView) hduSplit(h engine.HDU, members []model.VCConfsHDUsCreateRequestSpiltMember) (engine.HDU, []string, error) {
	if len(members) == 0 {
		return h, nil, wire.InvalidParam("spilt.members", "required in mode 2 (four-way split screen), not empty")
	}
	var named []string
	seen, chns := map[string]bool{}, map[int]bool{}
	out := make([]engine.HDUSplitMember, 0, len(members))
	for i, e := range members {
		chn := e.ChnIdx
		if chn < 0 || chn > 3 || chns[chn] {
			return h, nil, wire.InvalidParam(fmt.Sprintf("spilt.members[%d].chn_idx", i), fmt.Sprintf("%d is not a free channel 0 to 3", chn))
		}
		chns[chn] = true
		path := fmt.Sprintf("spilt.members[%d].mt_id", i)
		id := e.MtID
		if err := v.member(path, id); err != nil {
			return h, nil, err
		}
		if seen[id] {
			return h, nil, wire.Errorf(CodeVMPSameMt, "%s: terminal %s takes two channels of the split screen", path, id)
		}
		seen[id] = true
		named = append(named, id)
		out = append(out, engine.HDUSplitMember{ChnIdx: chn, MtID: id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ChnIdx < out[j].ChnIdx })
	h.Split = &engine.HDUSplit{Members: out}
	return h, named, nil
}

// hduReply is the channel info of a started wall as it shows now.
func (v *mdView) hduReply(h engine.HDU) *model.VCConfsHDUsGetReply {
	out := &model.VCConfsHDUsGetReply{HDUID: h.HDUID, Mode: h.Mode, ShowMtName: h.ShowMtName}
	if sp := h.Specific; sp != nil {
		id := ""
		switch sp.MemberType {
		case "1":
			if v.online(sp.MtID) {
				id = sp.MtID
			}
		case "2":
			id = v.role(v.conf.Roles.Speaker)
		case "3":
			id = v.role(v.conf.Roles.Chairman)
		case "4":
			id = v.confPollMt()
		case "10":
			id = v.role(v.conf.Roles.Dual)
		}
		out.Specific = &model.VCConfsHDUsGetReplySpecific{MemberType: sp.MemberType, MtID: id, Account: v.account(id),
			MtChnIdx: sp.MtChnIdx, VMPID: sp.VMPID}
	}
	if po := h.Poll; po != nil {
		_, idx := v.pollShows(po)
		out.Poll = &model.VCConfsHDUsGetReplyPoll{Num: po.Num, KeepTime: po.KeepTime, Mode: po.Mode, PollIndex: idx}
		for _, a := range v.accountList(po.MtIDs) {
			out.Poll.Members = append(out.Poll.Members, model.VCConfsHDUsGetReplyPollMember{MtID: a.MtID, Account: a.Account})
		}
	}
	if sl := h.Split; sl != nil {
		out.Spilt = &model.VCConfsHDUsGetReplySpilt{}
		for _, e := range sl.Members {
			out.Spilt.Members = append(out.Spilt.Members, model.VCConfsHDUsGetReplySpiltMember{ChnIdx: e.ChnIdx, MtID: e.MtID, Account: v.account(e.MtID)})
		}
	}
	return out
}
