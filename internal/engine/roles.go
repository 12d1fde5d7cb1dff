package engine

import (
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// The server's own members of a conference document (not creation
// parameters) are decoded once into fields of Conference: Roles and VIPs.
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

// Held tells whether id holds one of the roles.
func (r Roles) Held(id string) bool {
	return id != "" && (r.Chairman == id || r.Speaker == id || r.Dual == id || r.Upload == id)
}

// splitRoles moves the roles out of a decoded document. A member stored as
// anything but a string stays in doc, as it was (a role reads "").
func splitRoles(doc map[string]any) Roles {
	var r Roles
	for i, f := range r.fields() {
		if s, ok := doc[roleMembers[i]].(string); ok {
			*f = s
			r.stored |= 1 << i
			delete(doc, roleMembers[i])
		}
	}
	return r
}

// VIP is an entry of a conference's VIP list (vc.confs.viplist, voice
// activation's VIPs), stored as the member viplist: [{cascade_id, mt_id}].
type VIP struct {
	MtID      string
	CascadeID string
}

const vipMember = "viplist"

// splitVIPs moves the VIP list out of a decoded document: nil when the
// document has none. A list of another form than VIPs write stays in doc,
// as it was (the list reads empty).
func splitVIPs(doc map[string]any) []VIP {
	l, ok := doc[vipMember].([]any)
	if !ok {
		return nil
	}
	out := make([]VIP, 0, len(l))
	for _, e := range l {
		m, _ := e.(map[string]any)
		id, ok1 := m["mt_id"].(string)
		cas, ok2 := m["cascade_id"].(string)
		if !ok1 || !ok2 || len(m) != 2 {
			return nil
		}
		out = append(out, VIP{MtID: id, CascadeID: cas})
	}
	delete(doc, vipMember)
	return out
}

// vipsValue is the VIP list as the stored member.
func vipsValue(l []VIP) []any {
	out := make([]any, len(l))
	for i, v := range l {
		out[i] = map[string]any{"cascade_id": v.CascadeID, "mt_id": v.MtID}
	}
	return out
}

// newConference is a conference record with its decoded document, the
// server's own members (roles, VIPs) taken out of it.
func newConference(rec store.Record, doc map[string]any) Conference {
	return Conference{Rec: rec, Roles: splitRoles(doc), VIPs: splitVIPs(doc), Doc: doc}
}

// encodeConf writes a conference's document with its own members, as the
// one JSON object it was decoded from: a role is written when the document
// held it or it is set, the VIP list when it is not nil. They are put
// into c.Doc for the encoding and taken out again (the document is the
// caller's, used by one goroutine at a time). It returns the roles as
// decoding the bytes gives them back.
func encodeConf(c Conference) ([]byte, Roles, error) {
	doc, r := c.Doc, c.Roles
	var put [len(roleMembers)]bool
	for i, f := range r.fields() {
		if _, odd := doc[roleMembers[i]]; odd && *f == "" && r.stored&(1<<i) == 0 {
			continue // a member that was not a string, kept as it was
		}
		if *f != "" || r.stored&(1<<i) != 0 {
			doc[roleMembers[i]], put[i] = *f, true
			r.stored |= 1 << i
		}
	}
	if c.VIPs != nil {
		doc[vipMember] = vipsValue(c.VIPs)
	}
	data, err := shape.Encode(doc)
	for i := range put {
		if put[i] {
			delete(doc, roleMembers[i])
		}
	}
	if c.VIPs != nil {
		delete(doc, vipMember)
	}
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
	return ok
}
