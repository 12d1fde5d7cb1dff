package engine

import (
	"encoding/json"
	"maps"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// ConfDoc is a conference's document as a type that keeps presence and
// bytes: the creation's members as the platform's creation request
// declares them (model.MCConfsCreateRequest: an optional scalar is a
// model.Opt, an optional object a pointer, a list nil when absent), the
// members the server adds at creation (number, meeting id, times,
// creator, domain, invited count), and in Extra every stored member no
// field holds exactly, as its JSON: one no type declares (the server's
// own members of vc, x_ members of a template, a vendor's), or one of a
// form its field does not hold (a bitrate stored as a string, a float
// duration, an invited member with a member its type lacks, a null).
//
// decodeConfDoc and encode write a stored document back in its bytes
// (TestConfDocKeepsStoredBytes, over the documents of mc's and krtc's
// golden creations and hand-edited ones), so it can stand for the map
// document (Conference.Doc) with no release's stored bytes changing.
type ConfDoc struct {
	model.MCConfsCreateRequest

	ConfID          model.Opt[string]                  `json:"conf_id,omitzero"`
	MeetingID       model.Opt[string]                  `json:"meeting_id,omitzero"`
	MeetingRoomName model.Opt[string]                  `json:"meeting_room_name,omitzero"`
	StartTime       model.Opt[string]                  `json:"start_time,omitzero"`
	EndTime         model.Opt[string]                  `json:"end_time,omitzero"`
	Creator         *model.VCConfsListReplyConfCreator `json:"creator,omitempty"`
	UserDomainMoid  model.Opt[string]                  `json:"user_domain_moid,omitzero"`
	UserDomainName  model.Opt[string]                  `json:"user_domain_name,omitzero"`
	InvitedMtNum    model.Opt[int]                     `json:"invited_mt_num,omitzero"`
	MixEnable       model.Opt[int]                     `json:"mix_enable,omitzero"`
	PollEnable      model.Opt[int]                     `json:"poll_enable,omitzero"`
	VMPEnable       model.Opt[int]                     `json:"vmp_enable,omitzero"`
	NeedPassword    model.Opt[int]                     `json:"need_password,omitzero"`
	Resolution      model.Opt[int]                     `json:"resolution,omitzero"`

	// Extra holds the stored members no field holds exactly, by name, in
	// the bytes the map document wrote for them.
	Extra map[string]json.RawMessage `json:"-"`
}

// decodeConfDoc reads a stored conference document.
func decodeConfDoc(data []byte) (ConfDoc, error) {
	var d ConfDoc
	extra, err := record.DecodeKept(data, &d)
	if err != nil {
		return ConfDoc{}, err
	}
	d.Extra = extra
	return d, nil
}

// clone copies the document: its kept members' map (their bytes are
// never changed in place) and nothing else, since a setter replaces a
// field's value, never changes what it points to (record.SetKept).
func (d ConfDoc) clone() ConfDoc {
	d.Extra = maps.Clone(d.Extra)
	return d
}

// encode writes the document as the store holds it: its members and the
// kept ones in name order.
func (d ConfDoc) encode() ([]byte, error) {
	return record.EncodeKept(&d, d.Extra)
}
