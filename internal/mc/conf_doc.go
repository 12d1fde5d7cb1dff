package mc

import (
	"encoding/json"
	"fmt"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// The document of a conference being created (issue 40). Its open part
// is JSON as sent and stored: the source template's or room's stored
// members and the request's parameters, members no type declares among
// them (a vendor's x_ member, a hand edit's), kept as their bytes
// (record.Merge). What the creation reads of it is typed (confView, each
// member read as record.Int and record.Str read it, and whether it is
// there); what it writes is typed (confSet), merged over it. The engine
// takes the bytes (engine.Spec.Doc). TestConfStoredBytes holds the stored
// bytes and the replies to those the map creation wrote.

// confBase is the open part of a conference's document: the source's
// stored members but those of confSourceOnly (nil source: an instant
// conference), a room's name as meeting_room_name (room), then the
// parameters sent (params, JSON; nil none) but those of
// confParamsNotCopied and those sent as null.
func confBase(source []byte, roomName *string, params []byte) ([]byte, error) {
	layers := [][]byte{[]byte("{}"), []byte("{}"), []byte("{}")}
	if source != nil {
		layers[0] = source
	}
	if roomName != nil {
		b, err := record.Encode(struct {
			MeetingRoomName string `json:"meeting_room_name"`
		}{*roomName})
		if err != nil {
			return nil, err
		}
		layers[1] = b
	}
	if params != nil {
		layers[2] = params
	}
	return record.Merge(func(layer int, name string, raw json.RawMessage) bool {
		switch layer {
		case 0:
			return confSourceOnly[name]
		case 2:
			return confParamsNotCopied[name] || string(raw) == "null"
		}
		return false
	}, layers...)
}

// sourceView is what a creation reads of its source: its number and name.
type sourceView struct {
	E164 record.Text `json:"e164"`
	Name record.Text `json:"name"`
}

// has tells whether a member is in the document (null included).
type has bool

func (h *has) UnmarshalJSON([]byte) error { *h = true; return nil }

// intMember is a number member as record.Int reads it, and whether it
// is in the document (null included).
type intMember struct {
	N     int
	There bool
}

func (m *intMember) UnmarshalJSON(b []byte) error {
	var n record.Integer
	_ = n.UnmarshalJSON(b) // never fails: 0 for what is no integer
	*m = intMember{N: int(n), There: true}
	return nil
}

// filled tells whether a member is an object with members (a feature the
// creation starts: vmp, mix, poll).
type filled bool

func (f *filled) UnmarshalJSON(b []byte) error {
	var o struct{}
	*f = filled(len(b) > 0 && b[0] == '{' && json.Unmarshal(b, &o) == nil && !emptyObject(b))
	return nil
}

// emptyObject tells whether b, a JSON object, has no member.
func emptyObject(b []byte) bool {
	for _, c := range b[1:] {
		switch c {
		case ' ', '\t', '\r', '\n':
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// inviteList is invite_members as the creation reads it: each element's
// bytes, nil when the member is absent or not a list.
type inviteList []json.RawMessage

func (l *inviteList) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if json.Unmarshal(b, &raw) != nil {
		raw = nil
	}
	*l = raw
	return nil
}

// firstFormat is the main (first) video format's bitrate, when the first
// element of video_formats is an object.
type firstFormat struct {
	Bitrate int
	OK      bool
}

func (f *firstFormat) UnmarshalJSON(b []byte) error {
	var vf []json.RawMessage
	*f = firstFormat{}
	if json.Unmarshal(b, &vf) == nil && len(vf) > 0 && vf[0][0] == '{' {
		var m mainFormat
		if json.Unmarshal(vf[0], &m) == nil {
			*f = firstFormat{Bitrate: int(m.Bitrate), OK: true}
		}
	}
	return nil
}

// confView is what completeConf reads of the open part. Its members read
// anything (a hand-edited template's "1024" for a number): decoding it
// fails only for JSON that is not an object.
type confView struct {
	Bitrate         intMember      `json:"bitrate"`
	CallInterval    intMember      `json:"call_interval"`
	CallMode        intMember      `json:"call_mode"`
	CallTimes       intMember      `json:"call_times"`
	ConfType        record.Integer `json:"conf_type"`
	Duration        intMember      `json:"duration"`
	InviteMembers   inviteList     `json:"invite_members"`
	MaxJoinMt       record.Integer `json:"max_join_mt"`
	MeetingRoomName has            `json:"meeting_room_name"`
	Mix             filled         `json:"mix"`
	Password        record.Text    `json:"password"`
	PlatformID      record.Text    `json:"platform_id"`
	Poll            filled         `json:"poll"`
	VideoFormats    firstFormat    `json:"video_formats"`
	Vmp             filled         `json:"vmp"`
}

// confSet is what completeConf writes over the open part: an unset Opt
// leaves the member as it is there.
type confSet struct {
	Bitrate         model.Opt[int]                    `json:"bitrate,omitzero"`
	CallInterval    model.Opt[int]                    `json:"call_interval,omitzero"`
	CallMode        model.Opt[int]                    `json:"call_mode,omitzero"`
	CallTimes       model.Opt[int]                    `json:"call_times,omitzero"`
	ConfType        model.Opt[int]                    `json:"conf_type,omitzero"`
	CreateType      int                               `json:"create_type"`
	Creator         model.VCConfsListReplyConfCreator `json:"creator"`
	Duration        model.Opt[int]                    `json:"duration,omitzero"`
	InviteMembers   model.Opt[[]json.RawMessage]      `json:"invite_members,omitzero"`
	InvitedMtNum    int                               `json:"invited_mt_num"`
	MaxJoinMt       model.Opt[int]                    `json:"max_join_mt,omitzero"`
	MeetingRoomName model.Opt[string]                 `json:"meeting_room_name,omitzero"`
	MixEnable       int                               `json:"mix_enable"`
	NeedPassword    int                               `json:"need_password"`
	PlatformID      model.Opt[string]                 `json:"platform_id,omitzero"`
	PollEnable      int                               `json:"poll_enable"`
	TemplateID      model.Opt[string]                 `json:"template_id,omitzero"`
	UserDomainMoid  string                            `json:"user_domain_moid"`
	UserDomainName  string                            `json:"user_domain_name"`
	VmpEnable       int                               `json:"vmp_enable"`
}

// memberBitrate is an invited member's bitrate, read as record.Int reads
// it; decoding fails for an element that is not an object.
type memberBitrate struct {
	Bitrate record.Integer `json:"bitrate"`
}

// completeConf fills the defaults and the server's members of a
// conference document (base, confBase's) made by ctype from template tid
// ("" for an instant conference) for p.
func completeConf(base []byte, ctype int, tid string, p *auth.Principal) ([]byte, error) {
	var v confView
	if err := json.Unmarshal(base, &v); err != nil {
		return nil, err
	}
	s := confSet{CreateType: ctype}
	if ctype != engine.CreateInstant {
		s.TemplateID = model.Some(tid)
	}
	if v.MaxJoinMt == 0 {
		s.MaxJoinMt = model.Some(engine.DefaultMaxJoinMt)
	}
	if !v.Duration.There {
		s.Duration = model.Some(0)
	}
	if v.ConfType == 4 { // auto (6.1.0.2.0): Confer holds a traditional conference
		s.ConfType = model.Some(0)
	}
	// The bitrate: as sent or stored, else the main video format's, else
	// the default below.
	bitrate := v.Bitrate.N
	if !v.Bitrate.There && v.VideoFormats.OK {
		bitrate = v.VideoFormats.Bitrate
		s.Bitrate = model.Some(bitrate)
	}
	// Fields the caller left out, or that its release does not have, take
	// the platform's behaviour (docs/conferences.md "Defaults"): the
	// releases before 5.2.0.2.0 have no call_mode and call automatically.
	for _, d := range []struct {
		there bool
		set   *model.Opt[int]
		value int
	}{{v.CallMode.There, &s.CallMode, 2}, {v.CallInterval.There, &s.CallInterval, 20}, {v.CallTimes.There, &s.CallTimes, 0},
		{v.Bitrate.There || s.Bitrate.Set, &s.Bitrate, 8128}} {
		if !d.there {
			*d.set = model.Some(d.value)
		}
	}
	if s.Bitrate.Set {
		bitrate = s.Bitrate.Value
	}
	switch pid := string(v.PlatformID); pid {
	case "":
		s.PlatformID = model.Some(engine.PlatformID)
	case engine.PlatformID:
	default:
		return nil, wire.InvalidParam("platform_id", "no such platform (see GET /api/v1/mc/platforms)")
	}
	members, err := inviteBitrates(v.InviteMembers, bitrate)
	if err != nil {
		return nil, err
	}
	switch {
	case v.InviteMembers == nil:
		s.InviteMembers = model.Some([]json.RawMessage{})
	case members != nil:
		s.InviteMembers = model.Some(members)
	}
	s.InvitedMtNum = len(v.InviteMembers)
	s.NeedPassword = confFlag(v.Password != "")
	s.VmpEnable, s.MixEnable, s.PollEnable = confFlag(bool(v.Vmp)), confFlag(bool(v.Mix)), confFlag(bool(v.Poll))
	if !v.MeetingRoomName {
		s.MeetingRoomName = model.Some("")
	}
	s.Creator = model.VCConfsListReplyConfCreator{Name: p.Username, Account: p.AccountMoid, AccountType: 1}
	s.UserDomainMoid, s.UserDomainName = p.DomainMoid, p.DomainName
	set, err := record.Encode(s)
	if err != nil {
		return nil, err
	}
	return record.Merge(nil, base, set)
}

// inviteBitrates applies reference 04 to the invited members: a
// participant's call bitrate defaults to the conference bitrate and may
// not exceed it. It returns the members with the defaults set (their other
// members as they were), or nil when it set none.
func inviteBitrates(l inviteList, bitrate int) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for i, el := range l {
		var mb memberBitrate
		if el[0] != '{' || json.Unmarshal(el, &mb) != nil {
			continue // not an object
		}
		switch b := int(mb.Bitrate); {
		case b == 0:
			if out == nil {
				out = append([]json.RawMessage(nil), l...)
			}
			set, err := record.Encode(struct {
				Bitrate int `json:"bitrate"`
			}{bitrate})
			if err != nil {
				return nil, err
			}
			if out[i], err = record.Merge(nil, el, set); err != nil {
				return nil, err
			}
		case bitrate > 0 && b > bitrate:
			return nil, wire.InvalidParam(fmt.Sprintf("invite_members[%d].bitrate", i), fmt.Sprintf("%d is above the conference bitrate %d", b, bitrate))
		}
	}
	return out, nil
}
