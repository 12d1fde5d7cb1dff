package program

import (
	"bytes"
	"encoding/json"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// Doc is a program's document: the members of both its writers (a
// recording room's program, Start and the changes of this package; vc's,
// written when its recording stops, internal/vc/rec_program.go), each
// present or absent as stored, since readers tell the two shapes apart
// by which members are there (duration_ms, recorded_ms, prgallduration,
// prgstate, prgwatermark, createtime). Encode writes the members in name
// order, the bytes of the map document it replaced
// (TestProgramDocumentsKeepTheirBytes).
//
// A stored member this type does not know, or one of a form its member
// does not hold exactly (a string id, a null, a float, a files element
// with another member), is kept in Extra as its JSON, in the bytes the
// map document it replaced wrote for it (canonical), and written back
// so: nothing of an older or hand-written program is lost when the
// recording system rewrites it. These are the only open members: what
// the platform stores and no type declares. The readers below read such
// a member as the map document did (record.Integer, record.Text); a
// change of the member replaces it.
type Doc struct {
	Anonymous      model.Opt[int]                                  `json:"anonymous,omitzero"`
	AudioCodec     model.Opt[string]                               `json:"audio_codec,omitzero"`
	Bitrate        model.Opt[int]                                  `json:"bitrate,omitzero"`
	ConfID         model.Opt[string]                               `json:"conf_id,omitzero"`
	ConfName       model.Opt[string]                               `json:"conf_name,omitzero"`
	Container      model.Opt[string]                               `json:"container,omitzero"`
	CreateTime     model.Opt[string]                               `json:"create_time,omitzero"` // vc: when it stopped, ISO 8601
	Createtime     model.Opt[int64]                                `json:"createtime,omitzero"`  // vrs: when it began, UNIX s
	Downloadnum    model.Opt[int]                                  `json:"downloadnum,omitzero"`
	DualStream     model.Opt[int]                                  `json:"dual_stream,omitzero"`
	Duration       model.Opt[int]                                  `json:"duration,omitzero"`
	DurationMs     model.Opt[int64]                                `json:"duration_ms,omitzero"`
	File           model.Opt[string]                               `json:"file,omitzero"`
	Files          []FileEntry                                     `json:"files,omitempty"`
	Folderid       model.Opt[int]                                  `json:"folderid,omitzero"`
	Height         model.Opt[int]                                  `json:"height,omitzero"`
	ID             model.Opt[int64]                                `json:"id,omitzero"`
	Issuetime      model.Opt[int64]                                `json:"issuetime,omitzero"`
	Live           model.Opt[int]                                  `json:"live,omitzero"`
	MainStream     model.Opt[int]                                  `json:"main_stream,omitzero"`
	Members        []model.VCConfsRecordersListReplyRecorderMember `json:"members,omitempty"`
	Name           model.Opt[string]                               `json:"name,omitzero"`
	Parts          []Part                                          `json:"parts,omitempty"`
	Prgalias       model.Opt[string]                               `json:"prgalias,omitzero"`
	Prgallduration model.Opt[int]                                  `json:"prgallduration,omitzero"`
	Prgallsize     model.Opt[int64]                                `json:"prgallsize,omitzero"`
	Prgauthmode    model.Opt[int]                                  `json:"prgauthmode,omitzero"`
	Prgdesc        model.Opt[string]                               `json:"prgdesc,omitzero"`
	Prgencmode     model.Opt[int]                                  `json:"prgencmode,omitzero"`
	Prggid         model.Opt[int64]                                `json:"prggid,omitzero"`
	Prgskid        model.Opt[string]                               `json:"prgskid,omitzero"`
	Prgstate       model.Opt[int]                                  `json:"prgstate,omitzero"`
	Prgwatermark   model.Opt[int]                                  `json:"prgwatermark,omitzero"`
	Publish        model.Opt[int]                                  `json:"publish,omitzero"`
	PublishMode    model.Opt[int]                                  `json:"publish_mode,omitzero"`
	RecID          model.Opt[string]                               `json:"rec_id,omitzero"`
	RecordedMs     model.Opt[int64]                                `json:"recorded_ms,omitzero"`
	RecorderMode   model.Opt[int]                                  `json:"recorder_mode,omitzero"`
	RecorderType   model.Opt[int]                                  `json:"recorder_type,omitzero"`
	Roomid         model.Opt[int]                                  `json:"roomid,omitzero"`
	SegmentMs      model.Opt[int64]                                `json:"segment_ms,omitzero"`
	Size           model.Opt[int64]                                `json:"size,omitzero"`
	Source         model.Opt[string]                               `json:"source,omitzero"`
	StartTime      model.Opt[string]                               `json:"start_time,omitzero"`
	Streamjsonpath model.Opt[string]                               `json:"streamjsonpath,omitzero"`
	Suffix         model.Opt[string]                               `json:"suffix,omitzero"`
	Transcoded     *transcoded                                     `json:"transcoded,omitempty"`
	Userdomainmoid model.Opt[string]                               `json:"userdomainmoid,omitzero"`
	VideoCodec     model.Opt[string]                               `json:"video_codec,omitzero"`
	Vodnum         model.Opt[int]                                  `json:"vodnum,omitzero"`
	VrsID          model.Opt[string]                               `json:"vrs_id,omitzero"`
	Vrsmoid        model.Opt[string]                               `json:"vrsmoid,omitzero"`
	Watermark      model.Opt[int]                                  `json:"watermark,omitzero"`
	Width          model.Opt[int]                                  `json:"width,omitzero"`

	// Extra holds the stored members kept as read (see above), by name.
	Extra map[string]json.RawMessage `json:"-"`
}

// Encode writes a program's document as the store holds it: the typed
// members and those kept in Extra, in name order (a typed member wins a
// name both have).
func Encode(d Doc) ([]byte, error) {
	return record.EncodeKept(d, d.Extra)
}

// decodeDoc reads a stored document, keeping what the type does not hold
// exactly in Extra (record.DecodeKept).
func decodeDoc(data []byte) (Doc, error) {
	var d Doc
	extra, err := record.DecodeKept(data, &d)
	if err != nil {
		return Doc{}, err
	}
	d.Extra = extra
	return d, nil
}

// Keep keeps a member in the form given (as a map document's value:
// a string, json.Number, int, nil, an object or a list as decoded), written
// as the map document would write it: for a value no typed member holds,
// such as a conference name that is not a string.
func (d *Doc) Keep(name string, v any) {
	raw, err := json.Marshal(v) // the bytes shape.Encode writes (TestEncodeMatchesMarshal)
	if err != nil {
		return // not a document's value
	}
	if d.Extra == nil {
		d.Extra = make(map[string]json.RawMessage)
	}
	d.Extra[name] = raw
}

// extra decodes a kept member into v (a pointer): false when it is not
// kept.
func (d Doc) extra(name string, v any) bool {
	raw, ok := d.Extra[name]
	return ok && json.Unmarshal(raw, v) == nil
}

// forget drops the kept forms of members a change sets.
func (d *Doc) forget(names ...string) {
	for _, n := range names {
		delete(d.Extra, n)
	}
}

// has tells whether the member is stored (set, or kept in another form).
func (d Doc) has(set bool, name string) bool {
	if set {
		return true
	}
	_, ok := d.Extra[name]
	return ok
}

// intOf reads an integer member as record.Int reads the map document.
func intOf[T int | int64](d Doc, o model.Opt[T], name string) T {
	if o.Set {
		return o.Value
	}
	var n record.Integer
	d.extra(name, &n)
	return T(n)
}

// i64Of reads an integer member as i64 reads a map document's value.
func i64Of(d Doc, o model.Opt[int64], name string) int64 {
	if o.Set {
		return o.Value
	}
	raw, ok := d.Extra[name]
	if !ok {
		return 0
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return 0
	}
	return i64(v)
}

// strOf reads a string member as record.Str reads the map document.
func strOf(d Doc, o model.Opt[string], name string) string {
	if o.Set {
		return o.Value
	}
	var t record.Text
	d.extra(name, &t)
	return string(t)
}
