package vc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// The composition and the conference poll of a creation's settings
// (create_features.go), in the stored form of vmp_config.go and poll.go
// plus the accounts that take their places when they join.

// docInt is an integer member of a creation setting that mc's catalogue
// does not declare, or declares only from some release on (so nothing
// checked it): read as record.IntOK reads it, an integer or a string
// holding one; absent for anything else.
type docInt struct{ model.Opt[int] }

// UnmarshalJSON reads an integer or a string holding one; anything else
// leaves the member absent.
func (n *docInt) UnmarshalJSON(b []byte) error {
	n.Opt = model.Opt[int]{}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var x any
	if d.Decode(&x) == nil {
		n.Value, n.Set = record.IntOK(x)
	}
	return nil
}

// createdVMPSetting is the creation's vmp as the conference document
// stores it: mc's creation request (model.MCConfsCreateRequestVMP) and
// two members the composition's start reads that mc does not declare.
type createdVMPSetting struct {
	model.MCConfsCreateRequestVMP
	ExceptSelf docInt                    `json:"except_self"`
	Members    []createdVMPMemberSetting `json:"members"`
}

// createdVMPMemberSetting is a channel of the creation's vmp, its type
// read with seed 001's spelling too (members_type, which mc does not
// declare), each by presence.
type createdVMPMemberSetting struct {
	model.MCPersonalTemplatesCreateRequestVMPMember
	MemberType  docInt `json:"member_type"`
	MembersType docInt `json:"members_type"`
}

// createdPollSetting is the creation's poll as the conference document
// stores it; its mode came in 5.1.0.1.0 (reference A1) and is stored
// only when sent.
type createdPollSetting struct {
	model.MCConfsCreateRequestPoll
	Mode docInt `json:"mode"`
}

// createdVMP is the composition of the creation's vmp settings.
func (v *mdView) createdVMP(p createdVMPSetting) (*engine.VMP, error) {
	mode, layout := p.Mode, p.Layout
	if mode < 1 || mode > 4 {
		return nil, fmt.Errorf("vmp.mode %d is not a composition mode: the composition is not started", mode)
	}
	panes, err := vmpPanes(layout)
	if err != nil {
		return nil, fmt.Errorf("vmp.layout: %w: the composition is not started", err)
	}
	var ns model.VCConfsVMPsCreateRequestMtNameStyle
	if p.MtNameStyle != nil {
		ns = model.VCConfsVMPsCreateRequestMtNameStyle(*p.MtNameStyle)
	}
	style, err := vmpNameStyleOf(ns)
	if err != nil { // a colour vc would refuse: the default one
		ns.FontColor = model.Opt[string]{}
		style, _ = vmpNameStyleOf(ns)
	}
	cfg := &engine.VMP{Mode: mode, Layout: layout, Broadcast: p.Broadcast,
		VoiceHint: p.VoiceHint, ShowMtName: p.ShowMtName,
		ExceptSelf: p.ExceptSelf.Or(0), NameStyle: style, Members: []engine.VMPMember{}}
	if mode == 1 || mode == 4 {
		cfg.Members = append(cfg.Members, v.createdChannels(p.Members, panes)...)
	}
	if mode != 3 && mode != 4 {
		return cfg, nil
	}
	po := p.Poll
	if po == nil || po.Num < 0 || po.KeepTime < 1 {
		return nil, fmt.Errorf("vmp.poll: mode %d needs a batch poll with num >= 0 and keep_time >= 1: the composition is not started", mode)
	}
	num, keep := po.Num, po.KeepTime
	bp := &engine.SinglePoll{Num: num, KeepTime: keep, MtIDs: []string{}}
	if mode == 4 {
		accts := createdAccounts(po.Members)
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
func (v *mdView) createdChannels(members []createdVMPMemberSetting, panes int) []engine.VMPMember {
	usedChn, usedType, usedAcct, taken := map[int]bool{}, map[int]bool{}, map[string]bool{}, map[string]bool{}
	var out []engine.VMPMember
	for _, e := range members {
		typ, err := mdMemberTypeOf(e.MemberType.Opt, e.MembersType.Opt, "")
		chn := e.ChnIdx
		switch {
		case err != nil, typ < mtypeChosen, typ > mtypeDual, chn < 0, chn >= panes, usedChn[chn]:
			continue
		case (typ == mtypeSpeaker || typ == mtypePoll || typ == mtypeDual) && usedType[typ]:
			continue
		}
		ch := engine.VMPMember{ChnIdx: chn, MemberType: typ}
		switch typ {
		case mtypeChosen:
			acct := e.Account.Or("")
			if acct == "" || usedAcct[acct] {
				continue
			}
			usedAcct[acct] = true
			id := v.resolve(acct, taken)
			taken[id] = id != ""
			ch.Account, ch.MtID = acct, id
		case mtypeSingle:
			po := e.Poll
			if po == nil {
				continue
			}
			num, keep := po.Num, po.KeepTime
			accts := createdAccounts(po.Members)
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

// createdAccounts reads the accounts of a creation member list, each once.
func createdAccounts(l []model.MCPersonalTemplatesCreateRequestSpeaker) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range l {
		if a := e.Account; a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// createdPoll is the conference poll of the creation's poll settings:
// polling from the start, its members by account (mt_id "" until their
// terminal joins; poll.go skips them until then), marked ByAccount.
func (v *mdView) createdPoll(p createdPollSetting) (*engine.Poll, error) {
	num, keep := p.Num, p.KeepTime
	if num < 0 || keep < 1 {
		return nil, fmt.Errorf("poll: num %d and keep_time %d do not make a poll (num >= 0, keep_time >= 1): the poll is not started", num, keep)
	}
	accts := createdAccounts(p.Members)
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
	if mode, ok := p.Mode.Get(); ok {
		poll.Mode = model.Some(mode)
	}
	return poll, nil
}
