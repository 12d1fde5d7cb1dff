package engine

import (
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/record"
)

// The picture compositions' members of a conference document that the
// server writes (vc's mtvmps.go, hduvmps.go), typed as the other own
// members (own.go, own_media.go): decoded once into fields of Conference
// and written back under their stored names, in the same form, so that
// the stored JSON keeps its shape and its bytes.

// VMPMember is a chosen channel of a composition, stored as {chn_idx,
// member_type, mt_id, mt_chn_idx}, with account for a channel the
// creation named by account and poll for a single-channel poll (member
// type 6) of the conference composition.
type VMPMember struct {
	ChnIdx     int    // chn_idx: the pane
	MemberType int    // member_type: 0 empty, 1 a chosen terminal, 2... a role
	MtID       string // mt_id: the chosen terminal ("" for the other types)
	MtChnIdx   int    // mt_chn_idx: the chosen terminal's video channel
	Account    string // account: the creation's account ("" not stored)
	Poll       *SinglePoll
}

// VMP is the conference's picture composition (vc's vmp_config.go),
// stored as the member vc_vmp: {mode, layout, broadcast, voice_hint,
// show_mt_name, except_self, mt_name_style, members} and, in modes 3 and
// 4, poll (its batch poll, of the form of a single-channel poll).
type VMP struct {
	Mode       int // mode: 1 custom, 2 automatic, 3 automatic batch poll, 4 custom batch poll
	Layout     int // layout
	Broadcast  int // broadcast
	VoiceHint  int // voice_hint
	ShowMtName int // show_mt_name
	ExceptSelf int // except_self
	NameStyle  VMPNameStyle
	Members    []VMPMember
	Poll       *SinglePoll
}

// VMPNameStyle is how a composition draws the terminals' names, stored as
// mt_name_style: {font_size, font_color, position}.
type VMPNameStyle struct {
	FontSize  int    // font_size
	FontColor string // font_color
	Position  int    // position
}

const vmpMember = "vc_vmp"

// decodeVMP reads the stored composition; nil when it is of another form.
func decodeVMP(raw []byte) *VMP {
	var o vmpStored
	if !record.DecodeExact(raw, &o) || o.Members == nil {
		return nil
	}
	ms, ok := vmpMembers(o.Members)
	p, pok := o.Poll.poll()
	if !ok || !pok {
		return nil
	}
	st := o.NameStyle
	return &VMP{Mode: o.Mode, Layout: o.Layout, Broadcast: o.Broadcast, VoiceHint: o.VoiceHint, ShowMtName: o.ShowMtName,
		ExceptSelf: o.ExceptSelf, NameStyle: VMPNameStyle{FontSize: st.FontSize, FontColor: st.FontColor, Position: st.Position},
		Members: ms, Poll: p}
}

// The stored forms of the compositions, the polls and the walls: their
// members declared in name order, the order in which shape.Encode writes
// a map's keys (it writes these with json.Marshal), so that a member
// keeps its stored bytes; an optional member is omitted when absent.
type (
	vmpStored struct {
		Broadcast  int               `json:"broadcast"`
		ExceptSelf int               `json:"except_self"`
		Layout     int               `json:"layout"`
		Members    []memberStored    `json:"members"`
		Mode       int               `json:"mode"`
		NameStyle  nameStyleStored   `json:"mt_name_style"`
		Poll       *singlePollStored `json:"poll,omitempty"`
		ShowMtName int               `json:"show_mt_name"`
		VoiceHint  int               `json:"voice_hint"`
	}
	nameStyleStored struct {
		FontColor string `json:"font_color"`
		FontSize  int    `json:"font_size"`
		Position  int    `json:"position"`
	}
	memberStored struct {
		Account    string            `json:"account,omitempty"`
		ChnIdx     int               `json:"chn_idx"`
		MemberType int               `json:"member_type"`
		MtChnIdx   int               `json:"mt_chn_idx"`
		MtID       string            `json:"mt_id"`
		Poll       *singlePollStored `json:"poll,omitempty"`
	}
	// selfStored is a terminal's self composition (vc_selfvmps).
	selfStored struct {
		Layout     int            `json:"layout"`
		Members    []memberStored `json:"members"`
		Mode       int            `json:"mode"`
		MtChnIdx   int            `json:"mt_chn_idx"`
		MtID       string         `json:"mt_id"`
		ShowMtName int            `json:"show_mt_name"`
		VoiceHint  int            `json:"voice_hint"`
	}
	// wallSelfStored is a wall's self composition (vc_hduvmps).
	wallSelfStored struct {
		HDUID      string         `json:"hdu_id"`
		Layout     int            `json:"layout"`
		Members    []memberStored `json:"members"`
		Mode       int            `json:"mode"`
		ShowMtName int            `json:"show_mt_name"`
		VoiceHint  int            `json:"voice_hint"`
	}
	singlePollStored struct {
		ElapsedMs int      `json:"_elapsed_ms"`
		Origin    int      `json:"_origin"`
		Paused    int      `json:"_paused"`
		Since     string   `json:"_since"`
		Accounts  []string `json:"accounts,omitzero"` // nil absent, [] stored
		KeepTime  int      `json:"keep_time"`
		Mode      int      `json:"mode,omitempty"`
		MtIDs     []string `json:"mt_ids"`
		Num       int      `json:"num"`
	}
	hduStored struct {
		HDUID      string            `json:"hdu_id"`
		Mode       int               `json:"mode"`
		Poll       *singlePollStored `json:"poll,omitempty"`
		ShowMtName int               `json:"show_mt_name"`
		Specific   *hduViewStored    `json:"specific,omitempty"`
		Split      *hduSplitStored   `json:"spilt,omitempty"`
	}
	hduViewStored struct {
		MemberType string `json:"member_type"`
		MtChnIdx   int    `json:"mt_chn_idx"`
		MtID       string `json:"mt_id"`
		VMPID      string `json:"vmp_id"`
	}
	hduSplitStored struct {
		Members []hduSplitMemberStored `json:"members"`
	}
	hduSplitMemberStored struct {
		ChnIdx int    `json:"chn_idx"`
		MtID   string `json:"mt_id"`
	}
)

func (c *VMP) value() vmpStored {
	st := c.NameStyle
	return vmpStored{Mode: c.Mode, Layout: c.Layout, Broadcast: c.Broadcast, VoiceHint: c.VoiceHint,
		ShowMtName: c.ShowMtName, ExceptSelf: c.ExceptSelf, Members: membersValue(c.Members),
		NameStyle: nameStyleStored{FontSize: st.FontSize, FontColor: st.FontColor, Position: st.Position}, Poll: c.Poll.value()}
}

func (c *VMP) clone() *VMP {
	if c == nil {
		return nil
	}
	out := *c
	out.Members, out.Poll = cloneMembers(c.Members), c.Poll.clone()
	return &out
}

func (c *VMP) valid() bool {
	if c == nil {
		return true
	}
	return utf8.ValidString(c.NameStyle.FontColor) && membersValid(c.Members) && c.Poll.valid()
}

func cloneMembers(l []VMPMember) []VMPMember {
	out := append([]VMPMember{}, l...) // always stored: read back as a list
	for i := range out {
		out[i].Poll = out[i].Poll.clone()
	}
	return out
}

func membersValid(l []VMPMember) bool {
	ok := true
	for _, m := range l {
		ok = ok && utf8.ValidString(m.MtID) && utf8.ValidString(m.Account) && m.Poll.valid()
	}
	return ok
}

func membersValue(l []VMPMember) []memberStored {
	out := make([]memberStored, len(l))
	for i, m := range l {
		out[i] = m.value()
	}
	return out
}

// SelfVMP is the picture a terminal's video channel (vc_selfvmps) or a TV
// wall (vc_hduvmps) composes for itself, stored as {mode, layout,
// voice_hint, show_mt_name, members} with its owner: mt_id and mt_chn_idx
// for a terminal's, hdu_id for a wall's.
type SelfVMP struct {
	MtID       string // mt_id: the terminal (vc_selfvmps)
	MtChnIdx   int    // mt_chn_idx: its video channel (vc_selfvmps)
	HDUID      string // hdu_id: the TV wall (vc_hduvmps)
	Mode       int    // mode: 1 custom, 2 automatic
	Layout     int    // layout
	VoiceHint  int    // voice_hint
	ShowMtName int    // show_mt_name
	Members    []VMPMember
}

const (
	selfVMPsMember = "vc_selfvmps"
	hduVMPsMember  = "vc_hduvmps"
)

// vmpMembers reads stored chosen channels: false when one is of
// another form.
func vmpMembers(l []memberStored) ([]VMPMember, bool) {
	out := make([]VMPMember, len(l))
	for i, m := range l {
		p, ok := m.Poll.poll()
		if !ok {
			return nil, false
		}
		out[i] = VMPMember{ChnIdx: m.ChnIdx, MemberType: m.MemberType, MtID: m.MtID, MtChnIdx: m.MtChnIdx, Account: m.Account, Poll: p}
	}
	return out, true
}

func (m VMPMember) value() memberStored {
	return memberStored{ChnIdx: m.ChnIdx, MemberType: m.MemberType, MtID: m.MtID, MtChnIdx: m.MtChnIdx,
		Account: m.Account, Poll: m.Poll.value()}
}

// decodeSelfVMPs reads a stored list of terminals' (wall false) or
// walls' self compositions; nil when it is of another form.
func decodeSelfVMPs(raw []byte, wall bool) []SelfVMP {
	var out []SelfVMP
	add := func(c SelfVMP, ms []memberStored) bool {
		if ms == nil {
			return false
		}
		var ok bool
		c.Members, ok = vmpMembers(ms)
		out = append(out, c)
		return ok
	}
	if wall {
		var l []wallSelfStored
		if !record.DecodeExact(raw, &l) || l == nil {
			return nil
		}
		out = make([]SelfVMP, 0, len(l))
		for _, o := range l {
			if !add(SelfVMP{HDUID: o.HDUID, Mode: o.Mode, Layout: o.Layout, VoiceHint: o.VoiceHint, ShowMtName: o.ShowMtName}, o.Members) {
				return nil
			}
		}
		return out
	}
	var l []selfStored
	if !record.DecodeExact(raw, &l) || l == nil {
		return nil
	}
	out = make([]SelfVMP, 0, len(l))
	for _, o := range l {
		if !add(SelfVMP{MtID: o.MtID, MtChnIdx: o.MtChnIdx, Mode: o.Mode, Layout: o.Layout, VoiceHint: o.VoiceHint, ShowMtName: o.ShowMtName}, o.Members) {
			return nil
		}
	}
	return out
}

// selfVMPsValue is a list of self compositions as stored.
func selfVMPsValue(l []SelfVMP, wall bool) any {
	if wall {
		out := make([]wallSelfStored, len(l))
		for i, c := range l {
			out[i] = wallSelfStored{HDUID: c.HDUID, Mode: c.Mode, Layout: c.Layout, VoiceHint: c.VoiceHint,
				ShowMtName: c.ShowMtName, Members: membersValue(c.Members)}
		}
		return out
	}
	out := make([]selfStored, len(l))
	for i, c := range l {
		out[i] = selfStored{MtID: c.MtID, MtChnIdx: c.MtChnIdx, Mode: c.Mode, Layout: c.Layout, VoiceHint: c.VoiceHint,
			ShowMtName: c.ShowMtName, Members: membersValue(c.Members)}
	}
	return out
}

// cloneSelfVMPs copies a list of self compositions (nil stays nil).
func cloneSelfVMPs(l []SelfVMP) []SelfVMP {
	if l == nil {
		return nil
	}
	out := make([]SelfVMP, len(l))
	for i, c := range l {
		c.Members = cloneMembers(c.Members)
		out[i] = c
	}
	return out
}

// selfVMPsValid tells whether the compositions' strings are valid UTF-8.
func selfVMPsValid(l []SelfVMP) bool {
	ok := true
	for _, c := range l {
		ok = ok && utf8.ValidString(c.MtID) && utf8.ValidString(c.HDUID) && membersValid(c.Members)
	}
	return ok
}

// SinglePoll is a single-channel poll: a composition's channel of member
// type 6, or a TV wall in mode 3 (vc's vmp_config.go, hdu_config.go),
// stored as {num, keep_time, mt_ids} with its rotation, a wall's also with
// mode, a creation's also with accounts.
type SinglePoll struct {
	Num      int      // num: rounds, 0 polls forever
	KeepTime int      // keep_time, in seconds
	MtIDs    []string // mt_ids: the terminals polled
	// Accounts (accounts) are the accounts of the creation's poll (vc's
	// create_features_vmp.go); nil when not stored.
	Accounts []string
	Mode     int // mode: a wall's, 1 video only, 3 audio and video; 0 not stored
	Rot      Rotation
}

// poll reads a stored single-channel poll: nil, true for none; false
// for one of another form (its terminals null).
func (o *singlePollStored) poll() (*SinglePoll, bool) {
	if o == nil {
		return nil, true
	}
	if o.MtIDs == nil {
		return nil, false
	}
	return &SinglePoll{Num: o.Num, KeepTime: o.KeepTime, MtIDs: o.MtIDs, Accounts: o.Accounts, Mode: o.Mode,
		Rot: Rotation{Origin: o.Origin, Since: o.Since, ElapsedMs: o.ElapsedMs, Paused: o.Paused}}, true
}

// value is the poll as stored; nil for none.
func (p *SinglePoll) value() *singlePollStored {
	if p == nil {
		return nil
	}
	return &singlePollStored{Num: p.Num, KeepTime: p.KeepTime, MtIDs: append([]string{}, p.MtIDs...), Accounts: p.Accounts, Mode: p.Mode,
		Origin: p.Rot.Origin, Since: p.Rot.Since, ElapsedMs: p.Rot.ElapsedMs, Paused: p.Rot.Paused}
}

func (p *SinglePoll) clone() *SinglePoll {
	if p == nil {
		return nil
	}
	c := *p
	c.MtIDs = append([]string{}, p.MtIDs...)
	if p.Accounts != nil {
		c.Accounts = append([]string{}, p.Accounts...)
	}
	return &c
}

func (p *SinglePoll) valid() bool {
	if p == nil {
		return true
	}
	ok := utf8.ValidString(p.Rot.Since)
	for _, s := range p.MtIDs {
		ok = ok && utf8.ValidString(s)
	}
	for _, s := range p.Accounts {
		ok = ok && utf8.ValidString(s)
	}
	return ok
}

// HDU is a TV wall the conference started (vc's hdu.go), an element of
// the member vc_hdus: {hdu_id, mode, show_mt_name} and what it shows, one
// of specific (mode 1), spilt (mode 2) and poll (mode 3).
type HDU struct {
	HDUID      string // hdu_id
	Mode       int    // mode: 1 a view, 2 a four-way split screen, 3 a single-channel poll
	ShowMtName int    // show_mt_name
	Specific   *HDUView
	Split      *HDUSplit   // spilt
	Poll       *SinglePoll // poll
}

// HDUView is what a wall in mode 1 views, stored as {member_type,
// mt_id, mt_chn_idx, vmp_id}.
type HDUView struct {
	MemberType string // member_type: the view type, a string ("1", "2", ...)
	MtID       string // mt_id
	MtChnIdx   int    // mt_chn_idx
	VMPID      string // vmp_id
}

// HDUSplit is a wall's four-way split screen, stored as {members:
// [{chn_idx, mt_id}]}.
type HDUSplit struct {
	Members []HDUSplitMember
}

// HDUSplitMember is a channel of a split screen.
type HDUSplitMember struct {
	ChnIdx int    // chn_idx: 0 to 3
	MtID   string // mt_id
}

const hdusMember = "vc_hdus"

// decodeHDUs reads the stored walls; nil when the list is of another
// form.
func decodeHDUs(raw []byte) []HDU {
	var l []hduStored
	if !record.DecodeExact(raw, &l) || l == nil {
		return nil
	}
	out := make([]HDU, len(l))
	for i, o := range l {
		p, ok := o.Poll.poll()
		if !ok {
			return nil
		}
		h := HDU{HDUID: o.HDUID, Mode: o.Mode, ShowMtName: o.ShowMtName, Poll: p}
		if sp := o.Specific; sp != nil {
			h.Specific = &HDUView{MemberType: sp.MemberType, MtID: sp.MtID, MtChnIdx: sp.MtChnIdx, VMPID: sp.VMPID}
		}
		if sl := o.Split; sl != nil {
			if sl.Members == nil {
				return nil
			}
			ms := make([]HDUSplitMember, len(sl.Members))
			for k, m := range sl.Members {
				ms[k] = HDUSplitMember{ChnIdx: m.ChnIdx, MtID: m.MtID}
			}
			h.Split = &HDUSplit{Members: ms}
		}
		out[i] = h
	}
	return out
}

func (h HDU) value() hduStored {
	o := hduStored{HDUID: h.HDUID, Mode: h.Mode, ShowMtName: h.ShowMtName, Poll: h.Poll.value()}
	if sp := h.Specific; sp != nil {
		o.Specific = &hduViewStored{MemberType: sp.MemberType, MtID: sp.MtID, MtChnIdx: sp.MtChnIdx, VMPID: sp.VMPID}
	}
	if sl := h.Split; sl != nil {
		ms := make([]hduSplitMemberStored, len(sl.Members))
		for i, m := range sl.Members {
			ms[i] = hduSplitMemberStored{ChnIdx: m.ChnIdx, MtID: m.MtID}
		}
		o.Split = &hduSplitStored{Members: ms}
	}
	return o
}

func hdusValue(l []HDU) []hduStored {
	out := make([]hduStored, len(l))
	for i, h := range l {
		out[i] = h.value()
	}
	return out
}

func cloneHDUs(l []HDU) []HDU {
	if l == nil {
		return nil
	}
	out := make([]HDU, len(l))
	for i, h := range l {
		if h.Specific != nil {
			sp := *h.Specific
			h.Specific = &sp
		}
		if h.Split != nil {
			h.Split = &HDUSplit{Members: append([]HDUSplitMember{}, h.Split.Members...)}
		}
		h.Poll = h.Poll.clone()
		out[i] = h
	}
	return out
}

func hdusValid(l []HDU) bool {
	ok := true
	for _, h := range l {
		ok = ok && utf8.ValidString(h.HDUID) && h.Poll.valid()
		if sp := h.Specific; sp != nil {
			ok = ok && utf8.ValidString(sp.MemberType) && utf8.ValidString(sp.MtID) && utf8.ValidString(sp.VMPID)
		}
		if sl := h.Split; sl != nil {
			for _, m := range sl.Members {
				ok = ok && utf8.ValidString(m.MtID)
			}
		}
	}
	return ok
}
