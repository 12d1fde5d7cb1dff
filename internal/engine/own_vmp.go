package engine

import "unicode/utf8"

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

func readVMP(v any) (*VMP, bool) {
	s := readObj(v)
	c := VMP{Mode: s.int("mode"), Layout: s.int("layout"), Broadcast: s.int("broadcast"), VoiceHint: s.int("voice_hint"),
		ShowMtName: s.int("show_mt_name"), ExceptSelf: s.int("except_self")}
	st := readObj(s.o["mt_name_style"])
	c.NameStyle = VMPNameStyle{FontSize: st.int("font_size"), FontColor: st.str("font_color"), Position: st.int("position")}
	s.ok, s.n = s.ok && st.done(), s.n+1
	var ok bool
	c.Members, ok = storedList(s.o["members"], readVMPMember)
	s.ok, s.n = s.ok && ok, s.n+1
	if s.has("poll") {
		c.Poll, ok = readSinglePoll(s.o["poll"])
		s.ok, s.n = s.ok && ok, s.n+1
	}
	return &c, s.done()
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

// splitVMP moves the composition out of doc; nil when doc has none, or
// one of another form (then it stays in doc as it was).
func splitVMP(doc map[string]any) *VMP {
	if _, in := doc[vmpMember]; !in {
		return nil
	}
	c, ok := readVMP(doc[vmpMember])
	if !ok {
		return nil
	}
	delete(doc, vmpMember)
	return c
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

// storedObj reads the members of a stored object one by one, each of the
// form the server writes; ok tells whether all were and the object had no
// other.
type storedObj struct {
	o  map[string]any
	n  int
	ok bool
}

func readObj(v any) *storedObj {
	o, ok := v.(map[string]any)
	return &storedObj{o: o, ok: ok}
}

func (s *storedObj) int(k string) int {
	n, ok := storedInt(s.o[k])
	s.ok, s.n = s.ok && ok, s.n+1
	return n
}

func (s *storedObj) str(k string) string {
	v, ok := s.o[k].(string)
	s.ok, s.n = s.ok && ok, s.n+1
	return v
}

func (s *storedObj) done() bool { return s.ok && s.n == len(s.o) }

// storedList reads a list member whose elements read1 reads: false when
// one is of another form.
func storedList[T any](v any, read1 func(any) (T, bool)) ([]T, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]T, len(l))
	for i, e := range l {
		if out[i], ok = read1(e); !ok {
			return nil, false
		}
	}
	return out, true
}

func readVMPMember(v any) (VMPMember, bool) {
	s := readObj(v)
	m := VMPMember{ChnIdx: s.int("chn_idx"), MemberType: s.int("member_type"), MtID: s.str("mt_id"), MtChnIdx: s.int("mt_chn_idx")}
	if s.has("account") {
		if m.Account = s.str("account"); m.Account == "" {
			return m, false
		}
	}
	if s.has("poll") {
		var ok bool
		m.Poll, ok = readSinglePoll(s.o["poll"])
		s.ok, s.n = s.ok && ok, s.n+1
	}
	return m, s.done()
}

func (m VMPMember) value() memberStored {
	return memberStored{ChnIdx: m.ChnIdx, MemberType: m.MemberType, MtID: m.MtID, MtChnIdx: m.MtChnIdx,
		Account: m.Account, Poll: m.Poll.value()}
}

// selfReader reads a terminal's (wall false) or a wall's self composition.
func selfReader(wall bool) func(any) (SelfVMP, bool) {
	return func(v any) (SelfVMP, bool) {
		s := readObj(v)
		c := SelfVMP{Mode: s.int("mode"), Layout: s.int("layout"), VoiceHint: s.int("voice_hint"), ShowMtName: s.int("show_mt_name")}
		if wall {
			c.HDUID = s.str("hdu_id")
		} else {
			c.MtID, c.MtChnIdx = s.str("mt_id"), s.int("mt_chn_idx")
		}
		var ok bool
		c.Members, ok = storedList(s.o["members"], readVMPMember)
		s.ok, s.n = s.ok && ok, s.n+1
		return c, s.done()
	}
}

// splitSelfVMPs moves a list of self compositions out of doc; nil when
// doc has none, or one of another form (then it stays in doc as it was).
func splitSelfVMPs(doc map[string]any, member string, wall bool) []SelfVMP {
	l, ok := storedList(doc[member], selfReader(wall))
	if !ok {
		return nil
	}
	delete(doc, member)
	return l
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

func (s *storedObj) strs(k string) []string {
	l, ok := storedStrs(s.o[k])
	s.ok, s.n = s.ok && ok, s.n+1
	return l
}

// has counts an optional member that is present.
func (s *storedObj) has(k string) bool {
	_, in := s.o[k]
	return s.ok && in
}

func readSinglePoll(v any) (*SinglePoll, bool) {
	s := readObj(v)
	p := SinglePoll{Num: s.int("num"), KeepTime: s.int("keep_time"), MtIDs: s.strs("mt_ids"),
		Rot: Rotation{Origin: s.int("_origin"), Since: s.str("_since"), ElapsedMs: s.int("_elapsed_ms"), Paused: s.int("_paused")}}
	if s.has("accounts") {
		if p.Accounts = s.strs("accounts"); p.Accounts == nil {
			return nil, false
		}
	}
	if s.has("mode") {
		if p.Mode = s.int("mode"); p.Mode == 0 {
			return nil, false
		}
	}
	return &p, s.done()
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

func readHDU(v any) (HDU, bool) {
	s := readObj(v)
	h := HDU{HDUID: s.str("hdu_id"), Mode: s.int("mode"), ShowMtName: s.int("show_mt_name")}
	if s.has("specific") {
		o := readObj(s.o["specific"])
		h.Specific = &HDUView{MemberType: o.str("member_type"), MtID: o.str("mt_id"), MtChnIdx: o.int("mt_chn_idx"), VMPID: o.str("vmp_id")}
		s.ok, s.n = s.ok && o.done(), s.n+1
	}
	if s.has("spilt") {
		o := readObj(s.o["spilt"])
		ms, ok := storedList(o.o["members"], func(v any) (HDUSplitMember, bool) {
			e := readObj(v)
			m := HDUSplitMember{ChnIdx: e.int("chn_idx"), MtID: e.str("mt_id")}
			return m, e.done()
		})
		o.ok, o.n = o.ok && ok, o.n+1
		h.Split = &HDUSplit{Members: ms}
		s.ok, s.n = s.ok && o.done(), s.n+1
	}
	if s.has("poll") {
		var ok bool
		h.Poll, ok = readSinglePoll(s.o["poll"])
		s.ok, s.n = s.ok && ok, s.n+1
	}
	return h, s.done()
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

// splitHDUs moves the started walls out of doc; nil when doc has none, or
// a list of another form (then it stays in doc as it was).
func splitHDUs(doc map[string]any) []HDU {
	l, ok := storedList(doc[hdusMember], readHDU)
	if !ok {
		return nil
	}
	delete(doc, hdusMember)
	return l
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
