package engine

import (
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/record"
)

// The media features' members of a conference document that the server
// writes (vc's vmp_state.go), typed as the other own members (own.go):
// decoded once into fields of Conference and written back under their
// stored names, in the same form, so that the stored JSON keeps its shape
// and its bytes.

// Mix is a conference's main mixer (vc's mix.go), stored as the member
// vc_mix: {mode, mt_ids} and, for a mix started from the creation,
// accounts.
type Mix struct {
	Mode  int      // mode: 1 smart, 2 custom
	MtIDs []string // mt_ids: the members, in the order they joined
	// Accounts (accounts) are the accounts of the creation's members,
	// whose terminals take a place when they join (vc's
	// create_features.go); nil when the mix has none (the member is not
	// stored), empty when it was named and none is left.
	Accounts []string
}

const mixMember = "vc_mix"

// decodeMix reads the stored mix; nil when it is of another form than
// Mix writes.
func decodeMix(raw []byte) *Mix {
	var o mixStored
	if !record.DecodeExact(raw, &o) || o.MtIDs == nil {
		return nil
	}
	return &Mix{Mode: o.Mode, MtIDs: o.MtIDs, Accounts: o.Accounts}
}

// mixStored is the mix as stored (members in name order, as vipStored).
type mixStored struct {
	Accounts []string `json:"accounts,omitzero"`
	Mode     int      `json:"mode"`
	MtIDs    []string `json:"mt_ids"`
}

// value is the mix as stored.
func (m *Mix) value() mixStored {
	return mixStored{Accounts: m.Accounts, Mode: m.Mode, MtIDs: nonNil(m.MtIDs)}
}

// nonNil is a list that is always stored: nil is written [].
func nonNil[T any](l []T) []T {
	if l == nil {
		return []T{}
	}
	return l
}

// clone copies a mix (nil stays nil).
func (m *Mix) clone() *Mix {
	if m == nil {
		return nil
	}
	c := *m
	c.MtIDs = append([]string{}, m.MtIDs...) // always stored: read back as a list
	if m.Accounts != nil {
		c.Accounts = append([]string{}, m.Accounts...)
	}
	return &c
}

// valid tells whether the mix's strings are valid UTF-8 (ownValid).
func (m *Mix) valid() bool {
	if m == nil {
		return true
	}
	ok := true
	for _, s := range m.MtIDs {
		ok = ok && utf8.ValidString(s)
	}
	for _, s := range m.Accounts {
		ok = ok && utf8.ValidString(s)
	}
	return ok
}

// Rotation is the clock of a poll that turns every keep_time seconds (vc's
// vmp_rotation.go), stored beside the poll's own members.
type Rotation struct {
	Origin    int    // _origin: the index of a round's first item
	Since     string // _since: when it last started or resumed (RFC 3339, ns)
	ElapsedMs int    // _elapsed_ms: the running time before Since
	Paused    int    // _paused: 1 while paused
}

// HDUPoll is a conference's TV-wall batch poll (vc's hdupoll.go), stored
// as the member vc_hdupoll: {poll_id, mode, num, keep_time, show_mt_name,
// hdu_ids, mt_ids, state} and its rotation.
type HDUPoll struct {
	PollID     int      // poll_id
	Mode       int      // mode: 1 automatic, 2 custom
	Num        int      // num: rounds, 0 polls forever
	KeepTime   int      // keep_time, in seconds
	ShowMtName int      // show_mt_name
	HDUIDs     []string // hdu_ids: the TV walls
	MtIDs      []string // mt_ids: a custom poll's terminals
	State      int      // state: 1 polling, 2 paused
	Rot        Rotation
}

const (
	hduPollMember = "vc_hdupoll"
	hduPollSeq    = "vc_hdupoll_seq"
)

// The stored int members of a batch poll, in the order of hduPollInts.
var hduPollIntNames = [...]string{"poll_id", "mode", "num", "keep_time", "show_mt_name", "state",
	"_origin", "_elapsed_ms", "_paused"}

func (p *HDUPoll) ints() [len(hduPollIntNames)]*int {
	return [...]*int{&p.PollID, &p.Mode, &p.Num, &p.KeepTime, &p.ShowMtName, &p.State,
		&p.Rot.Origin, &p.Rot.ElapsedMs, &p.Rot.Paused}
}

// decodeHDUPoll reads the stored batch poll; nil when it is of another
// form than HDUPoll writes.
func decodeHDUPoll(raw []byte) *HDUPoll {
	var o hduPollStored
	if !record.DecodeExact(raw, &o) || o.HDUIDs == nil || o.MtIDs == nil {
		return nil
	}
	return &HDUPoll{PollID: o.PollID, Mode: o.Mode, Num: o.Num, KeepTime: o.KeepTime, ShowMtName: o.ShowMtName,
		HDUIDs: o.HDUIDs, MtIDs: o.MtIDs, State: o.State,
		Rot: Rotation{Origin: o.Origin, Since: o.Since, ElapsedMs: o.ElapsedMs, Paused: o.Paused}}
}

// hduPollStored is the batch poll as stored (members in name order, as
// vipStored).
type hduPollStored struct {
	ElapsedMs  int      `json:"_elapsed_ms"`
	Origin     int      `json:"_origin"`
	Paused     int      `json:"_paused"`
	Since      string   `json:"_since"`
	HDUIDs     []string `json:"hdu_ids"`
	KeepTime   int      `json:"keep_time"`
	Mode       int      `json:"mode"`
	MtIDs      []string `json:"mt_ids"`
	Num        int      `json:"num"`
	PollID     int      `json:"poll_id"`
	ShowMtName int      `json:"show_mt_name"`
	State      int      `json:"state"`
}

// value is the batch poll as stored.
func (p *HDUPoll) value() hduPollStored {
	return hduPollStored{ElapsedMs: p.Rot.ElapsedMs, Origin: p.Rot.Origin, Paused: p.Rot.Paused, Since: p.Rot.Since,
		HDUIDs: nonNil(p.HDUIDs), KeepTime: p.KeepTime, Mode: p.Mode, MtIDs: nonNil(p.MtIDs), Num: p.Num,
		PollID: p.PollID, ShowMtName: p.ShowMtName, State: p.State}
}

// clone copies a batch poll (nil stays nil).
func (p *HDUPoll) clone() *HDUPoll {
	if p == nil {
		return nil
	}
	c := *p
	c.HDUIDs = append([]string{}, p.HDUIDs...) // always stored: read back as lists
	c.MtIDs = append([]string{}, p.MtIDs...)
	return &c
}

// valid tells whether the batch poll's strings are valid UTF-8.
func (p *HDUPoll) valid() bool {
	if p == nil {
		return true
	}
	ok := utf8.ValidString(p.Rot.Since)
	for _, s := range p.HDUIDs {
		ok = ok && utf8.ValidString(s)
	}
	for _, s := range p.MtIDs {
		ok = ok && utf8.ValidString(s)
	}
	return ok
}

// decodeHDUPollSeq reads the batch polls' sequence number: 0 for one of
// another form (or not above 0), which stays in Doc.
func decodeHDUPollSeq(raw []byte) int {
	var n int
	if !record.DecodeExact(raw, &n) || n <= 0 {
		return 0
	}
	return n
}
