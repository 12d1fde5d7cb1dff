package vc

import (
	"sort"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// What a picture composition shows at an instant, computed from its stored
// form, the conference's terminals and roles, and the clock:
//
//   - a chosen channel shows its terminal; one that follows the speaker
//     (or voice activation, which picks the speaker), the chairman or the
//     dual-stream source shows that terminal while it is online; one that
//     follows the conference poll shows the terminal it polls (poll.go);
//   - a single-channel poll shows its terminals in turn, keep_time seconds
//     each, from poll_index; after num rounds (num > 0) it shows none and
//     its poll_index is 0 ("none is valid");
//   - automatic modes (2 and 3) fill the panes from the online terminals,
//     the speaker first, then by mt_id, so a terminal that leaves is
//     replaced at once;
//   - batch polls (modes 3 and 4) show their terminals page by page, as
//     many as there are free panes, turning every keep_time seconds; after
//     num rounds (num > 0) the last page stays.
//
// Panes that automatic fills and batch polls choose are reported with
// member type 1 (chosen), the reference having no type for them.

// vmpPane is one picture of a composition.
type vmpPane struct {
	chn   int
	typ   int
	mtID  string
	mtChn int
	poll  *model.VCConfsVMPsGetReplyMemberPoll // reply poll of a single-channel poll
}

// compose computes the panes of a composition's channels: members are its
// chosen channels, auto the mode's automatic fill (0 none, 2 automatic,
// 3 automatic batch poll, 4 custom batch poll), bp the batch poll.
func (v *mdView) compose(layout int, members []engine.VMPMember, auto int, bp *engine.SinglePoll) []vmpPane {
	panes, _ := vmpPanes(layout)
	var out []vmpPane
	taken := map[int]bool{}
	for _, m := range members {
		p := v.fixedPane(m)
		taken[p.chn] = true
		out = append(out, p)
	}
	var free []int
	for chn := 0; chn < panes; chn++ {
		if !taken[chn] {
			free = append(free, chn)
		}
	}
	var show []string
	switch auto {
	case 2:
		show = v.onlineIDs()
	case 3:
		show = mdPage(v.onlineIDs(), len(free), pollRot(bp), v)
	case 4:
		var pool []string
		if bp != nil {
			for _, id := range bp.MtIDs {
				if v.online(id) {
					pool = append(pool, id)
				}
			}
		}
		show = mdPage(pool, len(free), pollRot(bp), v)
	}
	for i, id := range show {
		if i >= len(free) {
			break
		}
		out = append(out, vmpPane{chn: free[i], typ: mtypeChosen, mtID: id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].chn < out[j].chn })
	return out
}

// mdPage is the page of pool that a batch poll shows now, size terminals
// a page.
func mdPage(pool []string, size int, rot mdRot, v *mdView) []string {
	if size <= 0 || len(pool) == 0 {
		return nil
	}
	pages := (len(pool) + size - 1) / size
	p, _ := rot.at(pages, v.now)
	return pool[p*size : min((p+1)*size, len(pool))]
}

// pollRot is the rotation of a single-channel or batch poll (none for
// nil).
func pollRot(p *engine.SinglePoll) mdRot {
	if p == nil {
		return mdRot{}
	}
	return rotOfStored(p.Num, p.KeepTime, p.Rot)
}

// fixedPane resolves a chosen channel.
func (v *mdView) fixedPane(m engine.VMPMember) vmpPane {
	p := vmpPane{chn: m.ChnIdx, typ: m.MemberType}
	switch p.typ {
	case mtypeChosen:
		if id := m.MtID; v.online(id) {
			p.mtID, p.mtChn = id, m.MtChnIdx
		}
	case mtypeSpeaker, mtypeVoice:
		p.mtID = v.role(v.conf.Roles.Speaker)
	case mtypeChairman:
		p.mtID = v.role(v.conf.Roles.Chairman)
	case mtypeDual:
		p.mtID = v.role(v.conf.Roles.Dual)
	case mtypePoll:
		p.mtID = v.confPollMt()
	case mtypeSingle:
		po := m.Poll
		if po == nil { // a channel of member type 6 stored without its poll
			po = &engine.SinglePoll{}
		}
		id, idx := v.pollShows(po)
		p.mtID = id
		p.poll = &model.VCConfsVMPsGetReplyMemberPoll{Num: po.Num, KeepTime: po.KeepTime,
			PollIndex: idx, Members: v.accountList(po.MtIDs)}
	}
	return p
}

// confPollMt is the terminal the conference poll (poll.go) shows now, ""
// when it does not run or polls no one.
func (v *mdView) confPollMt() string {
	p := v.conf.Poll
	if !pollRunning(p, v.byID, v.now) {
		return ""
	}
	if pos, _ := pollPos(p, v.byID, v.now, nil); !pos.None {
		return p.Members[pos.Index].MtID
	}
	return ""
}

// pollShows is the terminal a single-channel poll shows now and its
// 1-based poll_index; "" and 0 when its rounds are complete.
func (v *mdView) pollShows(po *engine.SinglePoll) (string, int) {
	return v.pollAt(po.MtIDs, rotOfStored(po.Num, po.KeepTime, po.Rot))
}

// pollAt is the terminal among ids a rotation shows now and its 1-based
// index; "" and 0 when its rounds are complete.
func (v *mdView) pollAt(ids []string, rot mdRot) (string, int) {
	cur, done := rot.at(len(ids), v.now)
	if done || !v.online(ids[cur]) {
		return "", 0
	}
	return ids[cur], cur + 1
}

// accountList is a reply member list {account, mt_id}.
func (v *mdView) accountList(ids []string) []model.VCConfsMixsGetReplyMember {
	out := make([]model.VCConfsMixsGetReplyMember, len(ids))
	for i, id := range ids {
		out[i] = model.VCConfsMixsGetReplyMember{Account: v.account(id), MtID: id}
	}
	return out
}

// accounts is accountList as the wire's list.
func (v *mdView) accounts(ids []string) []any {
	l := v.accountList(ids)
	out := make([]any, len(l))
	for i := range l {
		out[i] = l[i].Wire()
	}
	return out
}

// paneReply is a reply member of a composition: {chn_idx, member_type,
// account, mt_id, mt_chn_idx} and poll for a single-channel poll.
func (v *mdView) paneReply(p vmpPane) model.VCConfsVMPsGetReplyMember {
	return model.VCConfsVMPsGetReplyMember{ChnIdx: p.chn, MemberType: p.typ, Account: v.account(p.mtID),
		MtID: p.mtID, MtChnIdx: p.mtChn, Poll: p.poll}
}

// vmpOf computes the panes of the conference composition cfg.
func (v *mdView) vmpOf(cfg *engine.VMP) []vmpPane {
	auto := cfg.Mode
	if cfg.Mode == 1 {
		auto = 0
	}
	return v.compose(cfg.Layout, cfg.Members, auto, cfg.Poll)
}

// vmpInvolved are the terminals taking part in the conference composition
// cfg: those its panes show now and the ones it names (vmpNamed). They
// carry the vmp flag.
func (v *mdView) vmpInvolved(cfg *engine.VMP) map[string]bool {
	in := vmpNamed(cfg)
	if cfg == nil {
		return in
	}
	for _, p := range v.vmpOf(cfg) {
		if p.mtID != "" {
			in[p.mtID] = true
		}
	}
	return in
}

// vmpNamed are the terminals a composition names: its chosen terminals
// and the terminals of its single-channel polls and of its custom batch
// poll.
func vmpNamed(cfg *engine.VMP) map[string]bool {
	in := map[string]bool{}
	if cfg == nil {
		return in
	}
	for _, m := range cfg.Members {
		if m.MtID != "" {
			in[m.MtID] = true
		}
		if m.Poll != nil {
			for _, id := range m.Poll.MtIDs {
				in[id] = true
			}
		}
	}
	if cfg.Poll != nil {
		for _, id := range cfg.Poll.MtIDs {
			in[id] = true
		}
	}
	return in
}
