package engine

import "unicode/utf8"

// The picture compositions' members of a conference document that the
// server writes (vc's mtvmps.go, hduvmps.go), typed as the other own
// members (own.go, own_media.go): decoded once into fields of Conference
// and written back under their stored names, in the same form, so that
// the stored JSON keeps its shape and its bytes.

// VMPMember is a chosen channel of a self composition, stored as
// {chn_idx, member_type, mt_id, mt_chn_idx}.
type VMPMember struct {
	ChnIdx     int    // chn_idx: the pane
	MemberType int    // member_type: 0 empty, 1 a chosen terminal, 2... a role
	MtID       string // mt_id: the chosen terminal ("" for the other types)
	MtChnIdx   int    // mt_chn_idx: the chosen terminal's video channel
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
	return m, s.done()
}

func (m VMPMember) value() map[string]any {
	return map[string]any{"chn_idx": m.ChnIdx, "member_type": m.MemberType, "mt_id": m.MtID, "mt_chn_idx": m.MtChnIdx}
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
func selfVMPsValue(l []SelfVMP, wall bool) []any {
	out := make([]any, len(l))
	for i, c := range l {
		ms := make([]any, len(c.Members))
		for j, m := range c.Members {
			ms[j] = m.value()
		}
		o := map[string]any{"mode": c.Mode, "layout": c.Layout, "voice_hint": c.VoiceHint,
			"show_mt_name": c.ShowMtName, "members": ms}
		if wall {
			o["hdu_id"] = c.HDUID
		} else {
			o["mt_id"], o["mt_chn_idx"] = c.MtID, c.MtChnIdx
		}
		out[i] = o
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
		c.Members = append([]VMPMember{}, c.Members...)
		out[i] = c
	}
	return out
}

// selfVMPsValid tells whether the compositions' strings are valid UTF-8.
func selfVMPsValid(l []SelfVMP) bool {
	ok := true
	for _, c := range l {
		ok = ok && utf8.ValidString(c.MtID) && utf8.ValidString(c.HDUID)
		for _, m := range c.Members {
			ok = ok && utf8.ValidString(m.MtID)
		}
	}
	return ok
}
