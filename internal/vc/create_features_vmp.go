package vc

import (
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// The composition and the conference poll of a creation's settings
// (create_features.go), in the stored form of vmp_config.go and poll.go
// plus the accounts that take their places when they join.

// createdVMP is the composition of the creation's vmp settings.
func (v *mdView) createdVMP(p map[string]any) (*engine.VMP, error) {
	mode, layout := record.Int(p, "mode"), record.Int(p, "layout")
	if mode < 1 || mode > 4 {
		return nil, fmt.Errorf("vmp.mode %d is not a composition mode: the composition is not started", mode)
	}
	panes, err := vmpPanes(layout)
	if err != nil {
		return nil, fmt.Errorf("vmp.layout: %w: the composition is not started", err)
	}
	style, err := vmpNameStyle(p)
	if err != nil { // a colour vc would refuse: the default one
		s := map[string]any{}
		for k, x := range mdObj(p, "mt_name_style") {
			if k != "font_color" {
				s[k] = x
			}
		}
		style, _ = vmpNameStyle(map[string]any{"mt_name_style": s})
	}
	cfg := &engine.VMP{Mode: mode, Layout: layout, Broadcast: record.Int(p, "broadcast"),
		VoiceHint: record.Int(p, "voice_hint"), ShowMtName: record.Int(p, "show_mt_name"),
		ExceptSelf: record.Int(p, "except_self"), NameStyle: style, Members: []engine.VMPMember{}}
	if mode == 1 || mode == 4 {
		cfg.Members = append(cfg.Members, v.createdChannels(mdObjs(p, "members"), panes)...)
	}
	if mode != 3 && mode != 4 {
		return cfg, nil
	}
	po := mdObj(p, "poll")
	num, keep := record.Int(po, "num"), record.Int(po, "keep_time")
	if po == nil || num < 0 || keep < 1 {
		return nil, fmt.Errorf("vmp.poll: mode %d needs a batch poll with num >= 0 and keep_time >= 1: the composition is not started", mode)
	}
	bp := &engine.SinglePoll{Num: num, KeepTime: keep, MtIDs: []string{}}
	if mode == 4 {
		accts := createdAccounts(mdObjs(po, "members"))
		if len(accts) == 0 {
			return nil, fmt.Errorf("vmp.poll.members: mode 4 needs the members of its batch poll: the composition is not started")
		}
		bp.MtIDs, bp.Accounts = v.createdIDs(accts), accts
	}
	bp.Rot = mdRot{Num: num, Keep: time.Duration(keep) * time.Second, Since: v.now}.stored()
	cfg.Poll = bp
	return cfg, nil
}

// createdChannels are the chosen channels of the creation's members that
// vc's rules admit (vmpMembers); the others are left out.
func (v *mdView) createdChannels(members []map[string]any, panes int) []engine.VMPMember {
	usedChn, usedType, usedAcct, taken := map[int]bool{}, map[int]bool{}, map[string]bool{}, map[string]bool{}
	var out []engine.VMPMember
	for _, e := range members {
		typ, err := mdMemberType(e, "")
		chn := record.Int(e, "chn_idx")
		switch {
		case err != nil, typ < mtypeChosen, typ > mtypeDual, chn < 0, chn >= panes, usedChn[chn]:
			continue
		case (typ == mtypeSpeaker || typ == mtypePoll || typ == mtypeDual) && usedType[typ]:
			continue
		}
		ch := engine.VMPMember{ChnIdx: chn, MemberType: typ}
		switch typ {
		case mtypeChosen:
			acct := record.Str(e, "account")
			if acct == "" || usedAcct[acct] {
				continue
			}
			usedAcct[acct] = true
			id := v.resolve(acct, taken)
			taken[id] = id != ""
			ch.Account, ch.MtID = acct, id
		case mtypeSingle:
			po := mdObj(e, "poll")
			num, keep := record.Int(po, "num"), record.Int(po, "keep_time")
			accts := createdAccounts(mdObjs(po, "members"))
			if num < 0 || keep < 1 || len(accts) == 0 {
				continue
			}
			ch.Poll = &engine.SinglePoll{Num: num, KeepTime: keep, MtIDs: v.createdIDs(accts), Accounts: accts,
				Rot: mdRot{Num: num, Keep: time.Duration(keep) * time.Second, Since: v.now}.stored()}
		}
		usedChn[chn], usedType[typ] = true, true
		out = append(out, ch)
	}
	return out
}

// createdPoll is the conference poll of the creation's poll settings:
// polling from the start, its members by account (mt_id "" until their
// terminal joins; poll.go skips them until then), marked ByAccount.
func (v *mdView) createdPoll(p map[string]any) (*engine.Poll, error) {
	num, keep := record.Int(p, "num"), record.Int(p, "keep_time")
	if num < 0 || keep < 1 {
		return nil, fmt.Errorf("poll: num %d and keep_time %d do not make a poll (num >= 0, keep_time >= 1): the poll is not started", num, keep)
	}
	accts := createdAccounts(mdObjs(p, "members"))
	if len(accts) == 0 {
		return nil, fmt.Errorf("poll.members: names no account: the poll is not started")
	}
	taken := map[string]bool{}
	members := make([]engine.PollMember, len(accts))
	for i, a := range accts {
		id := v.resolve(a, taken)
		taken[id] = id != ""
		members[i] = engine.PollMember{MtID: id, Account: a}
	}
	poll := &engine.Poll{Num: num, KeepTime: keep, Members: members, State: pollStatePolling, TurnAt: tlMs(v.now), ByAccount: true}
	if mode, ok := record.IntOK(p["mode"]); ok {
		poll.Mode = model.Some(mode)
	}
	return poll, nil
}
