package vc

import (
	"sort"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
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
	poll  map[string]any // reply poll of a single-channel poll
}

// compose computes the panes of a composition's channels: members are its
// chosen channels, auto the mode's automatic fill (0 none, 2 automatic,
// 3 automatic batch poll, 4 custom batch poll), bp the batch poll.
func (v *mdView) compose(layout int, members []map[string]any, auto int, bp map[string]any) []vmpPane {
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
		show = mdPage(v.onlineIDs(), len(free), rotOf(bp), v)
	case 4:
		var pool []string
		for _, id := range mdStrs(bp, "mt_ids") {
			if v.online(id) {
				pool = append(pool, id)
			}
		}
		show = mdPage(pool, len(free), rotOf(bp), v)
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

// fixedPane resolves a chosen channel.
func (v *mdView) fixedPane(m map[string]any) vmpPane {
	p := vmpPane{chn: record.Int(m, "chn_idx"), typ: record.Int(m, "member_type")}
	switch p.typ {
	case mtypeChosen:
		if id := record.Str(m, "mt_id"); v.online(id) {
			p.mtID, p.mtChn = id, record.Int(m, "mt_chn_idx")
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
		po := mdObj(m, "poll")
		id, idx := v.pollCurrent(po)
		p.mtID = id
		p.poll = map[string]any{"num": record.Int(po, "num"), "keep_time": record.Int(po, "keep_time"),
			"poll_index": idx, "members": v.accounts(mdStrs(po, "mt_ids"))}
	}
	return p
}

// confPollMt is the terminal the conference poll (poll.go) shows now, ""
// when it does not run or polls no one.
func (v *mdView) confPollMt() string {
	p := tlObj(v.conf.Doc[tlKeyPoll])
	if !pollRunning(p, v.byID, v.now) {
		return ""
	}
	if pos, _ := pollPos(p, v.byID, v.now, nil); !pos.None {
		return tlStr(tlObjs(p["members"])[pos.Index]["mt_id"])
	}
	return ""
}

// pollCurrent is the terminal a single-channel poll shows now and its
// 1-based poll_index; "" and 0 when its rounds are complete.
func (v *mdView) pollCurrent(po map[string]any) (string, int) {
	return v.pollAt(mdStrs(po, "mt_ids"), rotOf(po))
}

// pollShows is pollCurrent for a typed single-channel poll (a TV wall's).
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

// accounts is a reply member list {account, mt_id}.
func (v *mdView) accounts(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = map[string]any{"account": v.account(id), "mt_id": id}
	}
	return out
}

// paneReply is a reply member of a composition: {chn_idx, member_type,
// account, mt_id, mt_chn_idx} and poll for a single-channel poll.
func (v *mdView) paneReply(p vmpPane) map[string]any {
	out := map[string]any{"chn_idx": p.chn, "member_type": p.typ, "account": v.account(p.mtID),
		"mt_id": p.mtID, "mt_chn_idx": p.mtChn}
	if p.poll != nil {
		out["poll"] = p.poll
	}
	return out
}

// vmpOf computes the panes of the conference composition cfg.
func (v *mdView) vmpOf(cfg map[string]any) []vmpPane {
	mode := record.Int(cfg, "mode")
	auto := mode
	if mode == 1 {
		auto = 0
	}
	return v.compose(record.Int(cfg, "layout"), mdObjs(cfg, "members"), auto, mdObj(cfg, "poll"))
}

// vmpInvolved are the terminals taking part in the conference composition
// cfg: those its panes show now and the ones it names (vmpNamed). They
// carry the vmp flag.
func (v *mdView) vmpInvolved(cfg map[string]any) map[string]bool {
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
func vmpNamed(cfg map[string]any) map[string]bool {
	in := map[string]bool{}
	for _, m := range mdObjs(cfg, "members") {
		if id := record.Str(m, "mt_id"); id != "" {
			in[id] = true
		}
		for _, id := range mdStrs(mdObj(m, "poll"), "mt_ids") {
			in[id] = true
		}
	}
	for _, id := range mdStrs(mdObj(cfg, "poll"), "mt_ids") {
		in[id] = true
	}
	return in
}
