package engine

import (
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The server's own members of a conference document (not creation
// parameters) are decoded once into fields of Conference: Roles, VIPs,
// Superior, Links, HDUAliases, the media features' (own_media.go,
// own_vmp.go, own_poll.go, own_rec.go) and vc's (own_vc.go).
// The other members stay in Conference.Doc.

// Roles are the members of a conference document that name the terminals
// holding a role: the chairman, the speaker, the dual stream's sender and
// the upload terminal (vc's controls, docs/vc.md). They are the server's
// own members, not creation parameters: a document is decoded once into
// Conference.Doc (the other members) and these fields, and written back
// under the same member names (docs/architecture.md, "Typed models"), so
// the stored JSON keeps its shape and a node of an earlier release reads
// it as before.
type Roles struct {
	Chairman string // chairman_mt_id
	Speaker  string // speaker_mt_id
	Dual     string // dualstream_mt_id
	Upload   string // upload_mt_id
	// stored marks the members the document held (as strings): they are
	// written back even when "", so that a document read and written
	// unchanged keeps its bytes.
	stored uint8
}

// The stored member names of the roles, in Roles' field order.
var roleMembers = [...]string{"chairman_mt_id", "speaker_mt_id", "dualstream_mt_id", "upload_mt_id"}

func (r *Roles) fields() [len(roleMembers)]*string {
	return [...]*string{&r.Chairman, &r.Speaker, &r.Dual, &r.Upload}
}

// VIP is an entry of a conference's VIP list (vc.confs.viplist, voice
// activation's VIPs), stored as the member viplist: [{cascade_id, mt_id}].
type VIP struct {
	MtID      string
	CascadeID string
}

// Superior names a subordinate conference's superior in a cascade (vc's
// cascade_link.go), stored as the member cascade_up: {conf_id, mt_id,
// uplink_mt_id}.
type Superior struct {
	ConfID   string // the superior conference
	LinkID   string // the link terminal's mt_id in the superior
	UplinkID string // the uplink terminal's mt_id here; "" (not stored) until it is added
}

// CascadeLink is a superior's link to a subordinate, an element of the
// member cascade_links: [{conf_id, mt_id}].
type CascadeLink struct {
	LinkID string // the link terminal's mt_id (mt_id)
	ConfID string // the subordinate conference (conf_id)
}

// The stored member names of the VIP list, the cascade and the TV walls'
// aliases.
const (
	vipMember   = "viplist"
	upMember    = "cascade_up"
	linksMember = "cascade_links"
	aliasMember = "vc_hdu_alias"
)

// splitOwn takes the server's own members out of c.Doc (decoded from
// data, the stored document) into c's fields, reading each from its
// stored JSON (splitStored). A member of another
// form than the server writes stays in c.Doc, as it was.
func (c *Conference) splitOwn(data []byte) {
	c.splitStored(data)
}

// splitStored reads the own members from the stored
// document data, each member's JSON decoded straight into its stored
// form (record.DecodeExact: the form the server writes, no other member,
// no null list), and takes those it read out of c.Doc; a member of
// another form stays in c.Doc as it was (its field nil, a role ""): the
// roles, the VIP list, the cascade and the walls' aliases, the mix and
// the wall poll (own_media.go), the compositions and walls (own_vmp.go)
// and the polls (own_poll.go).
func (c *Conference) splitStored(data []byte) {
	var up *superiorStored
	_ = record.Members(data, func(k string, raw []byte) error {
		c.readOwn(k, raw, &up) // a member named twice: the last wins, as in Doc
		return nil
	})
	c.setSuperior(up)
	for _, m := range c.ownRead() {
		if m.read {
			delete(c.Doc.Extra, m.name)
		}
	}
	if len(c.Doc.Extra) == 0 {
		c.Doc.Extra = nil // as DecodeKept leaves a document of typed members
	}
}

// isOwn tells whether k names one of the server's own members.
func isOwn(k string) bool {
	switch k {
	case vipMember, linksMember, upMember, aliasMember, mixMember, hduPollMember, hduPollSeq,
		vmpMember, selfVMPsMember, hduVMPsMember, hdusMember, recordersMember:
		return true
	}
	return slices.Contains(roleMembers[:], k) || slices.Contains(pollMembers[:], k) || slices.Contains(vcMembers[:], k)
}

// readOwn reads the own member k of the stored JSON raw into its field
// (up for the superior, set by setSuperior); a member of another form
// leaves its field nil (a role ""). Other members are left alone.
func (c *Conference) readOwn(k string, raw []byte, up **superiorStored) {
	if c.VCState.splitVC(k, raw) { // own_vc.go
		return
	}
	if i := slices.Index(roleMembers[:], k); i >= 0 {
		f := c.Roles.fields()[i]
		if *f, c.Roles.stored = "", c.Roles.stored&^(1<<i); record.DecodeExact(raw, f) {
			c.Roles.stored |= 1 << i
		}
		return
	}
	if i := slices.Index(pollMembers[:], k); i >= 0 {
		*c.polls()[i] = decodePoll(raw)
		return
	}
	switch k {
	case vipMember:
		c.VIPs = decodeList(raw, func(v vipStored) VIP { return VIP{CascadeID: v.CascadeID, MtID: v.MtID} })
	case linksMember:
		c.Links = decodeList(raw, func(v linkStored) CascadeLink { return CascadeLink{ConfID: v.ConfID, LinkID: v.MtID} })
	case upMember:
		*up = new(superiorStored)
		if !record.DecodeExact(raw, *up) {
			*up = nil
		}
	case aliasMember:
		var a map[string]string
		if !record.DecodeExact(raw, &a) {
			a = nil
		}
		c.HDUAliases = a
	case mixMember:
		c.Mix = decodeMix(raw)
	case hduPollMember:
		c.HDUPoll = decodeHDUPoll(raw)
	case hduPollSeq:
		c.HDUPollSeq = decodeHDUPollSeq(raw)
	case vmpMember:
		c.VMP = decodeVMP(raw)
	case selfVMPsMember:
		c.SelfVMPs = decodeSelfVMPs(raw, false)
	case hduVMPsMember:
		c.HDUVMPs = decodeSelfVMPs(raw, true)
	case hdusMember:
		c.HDUs = decodeHDUs(raw)
	case recordersMember:
		c.Recorders, c.recordersOther = decodeRecorders(raw)
	}
}

// setSuperior sets the superior read by readOwn.
func (c *Conference) setSuperior(up *superiorStored) {
	if up != nil {
		c.Superior = &Superior{ConfID: up.ConfID, LinkID: up.MtID, UplinkID: up.UplinkID}
	}
}

// ownMember is an own member's name and whether its field holds it.
type ownMember struct {
	name string
	read bool
}

// ownRead tells, for each own member, whether readOwn read it into its
// field (else the document keeps it as it was).
func (c *Conference) ownRead() [len(roleMembers) + len(vcMembers) + 15]ownMember {
	var out [len(roleMembers) + len(vcMembers) + 15]ownMember
	for i := range roleMembers {
		out[i] = ownMember{roleMembers[i], c.Roles.stored&(1<<i) != 0}
	}
	for i, read := range c.VCState.vcRead() {
		out[len(roleMembers)+i] = ownMember{vcMembers[i], read}
	}
	copy(out[len(roleMembers)+len(vcMembers):], []ownMember{{vipMember, c.VIPs != nil}, {linksMember, c.Links != nil}, {upMember, c.Superior != nil},
		{aliasMember, c.HDUAliases != nil}, {pollMember, c.Poll != nil}, {uploadPollMember, c.UploadPoll != nil},
		{chairmanPollMember, c.ChairmanPoll != nil}, {mixMember, c.Mix != nil}, {hduPollMember, c.HDUPoll != nil},
		{hduPollSeq, c.HDUPollSeq > 0}, {vmpMember, c.VMP != nil}, {selfVMPsMember, c.SelfVMPs != nil},
		{hduVMPsMember, c.HDUVMPs != nil}, {hdusMember, c.HDUs != nil}, {recordersMember, c.Recorders != nil}})
	return out
}

// decodeList reads a stored list whose elements are of the stored form S;
// nil when it is of another form.
func decodeList[S, T any](raw []byte, make1 func(S) T) []T {
	var l []S
	if !record.DecodeExact(raw, &l) || l == nil {
		return nil
	}
	out := make([]T, len(l))
	for i, v := range l {
		out[i] = make1(v)
	}
	return out
}

// The stored forms of the VIP list's entries, the cascade links and the
// superior: encoded as the document's other values (shape.Encode), so
// their members are declared in the byte order of their names, the order
// in which an object is written (TestStoredFormsInNameOrder).
type vipStored struct {
	CascadeID string `json:"cascade_id"`
	MtID      string `json:"mt_id"`
}

type linkStored struct {
	ConfID string `json:"conf_id"`
	MtID   string `json:"mt_id"`
}

type superiorStored struct {
	ConfID   string `json:"conf_id"`
	MtID     string `json:"mt_id"`
	UplinkID string `json:"uplink_mt_id,omitempty"`
}

// ownValues are the VIP list, cascade, TV-wall alias and media members as
// stored: a nil field is no member.
func (c Conference) ownValues() (names [15 + len(vcMembers)]string, values [15 + len(vcMembers)]any) {
	n := 0
	if c.VIPs != nil {
		l := make([]vipStored, len(c.VIPs))
		for i, v := range c.VIPs {
			l[i] = vipStored{CascadeID: v.CascadeID, MtID: v.MtID}
		}
		names[n], values[n] = vipMember, l
		n++
	}
	if c.Links != nil {
		l := make([]linkStored, len(c.Links))
		for i, v := range c.Links {
			l[i] = linkStored{ConfID: v.ConfID, MtID: v.LinkID}
		}
		names[n], values[n] = linksMember, l
		n++
	}
	if up := c.Superior; up != nil {
		names[n], values[n] = upMember, superiorStored{ConfID: up.ConfID, MtID: up.LinkID, UplinkID: up.UplinkID}
		n++
	}
	if c.HDUAliases != nil {
		names[n], values[n] = aliasMember, c.HDUAliases // an object of strings, its keys in order
		n++
	}
	if c.Mix != nil {
		names[n], values[n] = mixMember, c.Mix.value()
		n++
	}
	if c.HDUPoll != nil {
		names[n], values[n] = hduPollMember, c.HDUPoll.value()
		n++
	}
	if c.HDUPollSeq > 0 {
		names[n], values[n] = hduPollSeq, c.HDUPollSeq
		n++
	}
	if c.SelfVMPs != nil {
		names[n], values[n] = selfVMPsMember, selfVMPsValue(c.SelfVMPs, false)
		n++
	}
	if c.HDUVMPs != nil {
		names[n], values[n] = hduVMPsMember, selfVMPsValue(c.HDUVMPs, true)
		n++
	}
	if c.HDUs != nil {
		names[n], values[n] = hdusMember, hdusValue(c.HDUs)
		n++
	}
	if c.Recorders != nil {
		names[n], values[n] = recordersMember, c.recordersValue()
		n++
	}
	if c.VMP != nil {
		names[n], values[n] = vmpMember, c.VMP.value()
		n++
	}
	for i, f := range c.polls() {
		if *f != nil {
			names[n], values[n] = pollMembers[i], (*f).value()
			n++
		}
	}
	for i, v := range c.VCState.vcValues() {
		if v != nil {
			names[n], values[n] = vcMembers[i], v
			n++
		}
	}
	return names, values
}

// newConference is a conference record with its decoded document (of
// rec.Data), the server's own members taken out of it.
func newConference(rec store.Record, doc ConfDoc) Conference {
	c := Conference{Rec: rec, Doc: doc}
	c.splitOwn(rec.Data)
	return c
}

// encodeConf writes a conference's document with its own members, as the
// one JSON object it was decoded from: a role is written when the document
// held it or it is set, the other members when they are not nil. They are
// written beside the document's kept members (ConfDoc.Extra, which keeps
// an own member of another form, as it was); one written replaces its
// kept copy, which is taken out of the document (its map, shared with
// the caller, as the map document was). It returns the roles as decoding
// the bytes gives them back.
func encodeConf(c Conference) ([]byte, Roles, error) {
	r := c.Roles
	names, values := c.ownValues()
	extra := make(map[string]json.RawMessage, len(c.Doc.Extra)+len(roleMembers)+len(names))
	maps.Copy(extra, c.Doc.Extra)
	for i, f := range r.fields() {
		if _, odd := extra[roleMembers[i]]; odd && *f == "" && r.stored&(1<<i) == 0 {
			continue // a member that was not a string, kept as it was
		}
		if *f != "" || r.stored&(1<<i) != 0 {
			extra[roleMembers[i]] = wire.AppendString(nil, *f)
			delete(c.Doc.Extra, roleMembers[i])
			r.stored |= 1 << i
		}
	}
	for i, k := range names {
		if k == "" {
			continue
		}
		b, err := json.Marshal(values[i]) // the bytes shape.Encode writes for it
		if err != nil {
			return nil, r, err
		}
		extra[k] = b
		delete(c.Doc.Extra, k)
	}
	data, err := record.EncodeKept(&c.Doc, extra)
	return data, r, err
}

// ownValid tells whether the own members' strings are valid UTF-8, so
// that decoding their encoding gives them back (as normalize for Doc).
func (c Conference) ownValid() bool {
	r := c.Roles
	ok := utf8.ValidString(r.Chairman) && utf8.ValidString(r.Speaker) && utf8.ValidString(r.Dual) && utf8.ValidString(r.Upload)
	for _, v := range c.VIPs {
		ok = ok && utf8.ValidString(v.MtID) && utf8.ValidString(v.CascadeID)
	}
	for _, v := range c.Links {
		ok = ok && utf8.ValidString(v.LinkID) && utf8.ValidString(v.ConfID)
	}
	if up := c.Superior; up != nil {
		ok = ok && utf8.ValidString(up.ConfID) && utf8.ValidString(up.LinkID) && utf8.ValidString(up.UplinkID)
	}
	for k, v := range c.HDUAliases {
		ok = ok && utf8.ValidString(k) && utf8.ValidString(v)
	}
	return ok && c.Mix.valid() && c.HDUPoll.valid() && selfVMPsValid(c.SelfVMPs) && selfVMPsValid(c.HDUVMPs) && hdusValid(c.HDUs) && c.VMP.valid() &&
		c.Poll.valid() && c.UploadPoll.valid() && c.ChairmanPoll.valid() &&
		recordersValid(c.Recorders) && c.VCState.vcValid()
}
