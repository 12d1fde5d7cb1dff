package engine

import (
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// The conference's polls (vc's poll.go), typed as the other own members
// (own.go, own_media.go, own_vmp.go): decoded once into fields of
// Conference and written back under their stored names, in the same form,
// so that the stored JSON keeps its shape and its bytes.

// Poll is one of the conference's three polls: the conference poll
// (vc_poll), the upload terminal's (vc_upload_poll) and the chairman's
// (vc_chairman_poll), stored as {num, keep_time, members, origin, state,
// index, rounds, turn_at, paused_at}, with mode when the start named one,
// shown_index once the due sweep marked where the conference poll stands
// and _by_account (1) for a conference poll the creation started. Where it
// stands is derived from the anchor (Index, Rounds, TurnAt) and the clock
// (PollAt); a stopped poll keeps its settings.
type Poll struct {
	Num      int          // num: rounds, 0 polls forever
	KeepTime int          // keep_time, in seconds
	Members  []PollMember // members, in poll order
	Origin   int          // origin: the index (0-based) of a round's first member
	State    int          // state: 0 stopped, 1 polling, 2 paused (as last set)
	Index    int          // index: the member whose turn began at TurnAt
	Rounds   int          // rounds: the rounds completed before that turn
	TurnAt   int64        // turn_at: UNIX ms
	PausedAt int64        // paused_at: UNIX ms of the pause, 0 when not paused
	// Mode (mode) is the start's mode: the upload poll and a start of a
	// release before the parameter have none.
	Mode model.Opt[int]
	// Shown (shown_index) is the member the conference poll showed when
	// the due sweep last looked, -1 none; not stored before the first look.
	Shown     model.Opt[int]
	ByAccount bool // _by_account: the creation's poll, its members named by account
}

// PollMember is a member of a poll, stored as {mt_id, account}.
type PollMember struct {
	MtID    string // mt_id: "" until the creation's account joins
	Account string // account
	// NoAccount tells that account is stored as null: the terminal had
	// none when an operator started the poll (the start copies the
	// terminal's account).
	NoAccount bool
}

// The stored member names of the polls (in the order of Conference's
// fields Poll, UploadPoll and ChairmanPoll) and of the creation's mark.
const (
	pollMember         = "vc_poll"
	uploadPollMember   = "vc_upload_poll"
	chairmanPollMember = "vc_chairman_poll"
	pollByAccount      = "_by_account"
)

// polls are c's poll fields, in the order of pollMembers.
func (c *Conference) polls() [3]**Poll { return [...]**Poll{&c.Poll, &c.UploadPoll, &c.ChairmanPoll} }

var pollMembers = [...]string{pollMember, uploadPollMember, chairmanPollMember}

// pollStored is a poll as stored (members in name order, as vipStored).
type pollStored struct {
	ByAccount int                `json:"_by_account,omitempty"` // 1 or not stored
	Index     int                `json:"index"`
	KeepTime  int                `json:"keep_time"`
	Members   []pollMemberStored `json:"members"`
	Mode      *int               `json:"mode,omitempty"`
	Num       int                `json:"num"`
	Origin    int                `json:"origin"`
	PausedAt  int64              `json:"paused_at"`
	Rounds    int                `json:"rounds"`
	Shown     *int               `json:"shown_index,omitempty"`
	State     int                `json:"state"`
	TurnAt    int64              `json:"turn_at"`
}

type pollMemberStored struct {
	Account *string `json:"account"` // nil: null
	MtID    string  `json:"mt_id"`
}

// value is the poll as stored.
func (p *Poll) value() pollStored {
	ms := make([]pollMemberStored, len(p.Members))
	for i, m := range p.Members {
		ms[i].MtID = m.MtID
		if !m.NoAccount {
			ms[i].Account = &p.Members[i].Account
		}
	}
	o := pollStored{Index: p.Index, KeepTime: p.KeepTime, Members: ms, Num: p.Num, Origin: p.Origin,
		PausedAt: p.PausedAt, Rounds: p.Rounds, State: p.State, TurnAt: p.TurnAt}
	if mode, ok := p.Mode.Get(); ok {
		o.Mode = &mode
	}
	if shown, ok := p.Shown.Get(); ok {
		o.Shown = &shown
	}
	if p.ByAccount {
		o.ByAccount = 1
	}
	return o
}

// decodePoll reads a stored poll; nil when it is of another form than
// value writes (members null, _by_account other than 1).
func decodePoll(raw []byte) *Poll {
	var o pollStored
	if !record.DecodeExact(raw, &o) || o.Members == nil || o.ByAccount > 1 {
		return nil
	}
	p := Poll{Num: o.Num, KeepTime: o.KeepTime, Origin: o.Origin, State: o.State, Index: o.Index, Rounds: o.Rounds,
		TurnAt: o.TurnAt, PausedAt: o.PausedAt, ByAccount: o.ByAccount == 1, Members: make([]PollMember, len(o.Members))}
	for i, m := range o.Members {
		p.Members[i] = PollMember{MtID: m.MtID, NoAccount: m.Account == nil}
		if m.Account != nil {
			p.Members[i].Account = *m.Account
		}
	}
	if o.Mode != nil {
		p.Mode = model.Some(*o.Mode)
	}
	if o.Shown != nil {
		p.Shown = model.Some(*o.Shown)
	}
	return &p
}

// clone copies a poll (nil stays nil).
func (p *Poll) clone() *Poll {
	if p == nil {
		return nil
	}
	c := *p
	c.Members = append([]PollMember{}, p.Members...) // always stored: read back as a list
	return &c
}

// valid tells whether decoding the poll's encoding gives it back: its
// strings are valid UTF-8 (ownValid).
func (p *Poll) valid() bool {
	if p == nil {
		return true
	}
	ok := true
	for _, m := range p.Members {
		// A member stored as null reads back without its account.
		ok = ok && utf8.ValidString(m.MtID) && utf8.ValidString(m.Account) && !(m.NoAccount && m.Account != "")
	}
	return ok
}
