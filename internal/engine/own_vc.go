package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// The members vc keeps of a running conference: its playback, monitors,
// selective viewings and last short message (vc's playback.go,
// monitor.go, inspect.go, control_sms.go), typed as the other own members
// (own.go): decoded once into the fields of Conference.VCState and
// written back under their stored names, in the same form, so that the
// stored JSON keeps its shape and its bytes.
//
// Each is stored as the JSON of its type with the members of every object
// in the byte order of their names, as the map document wrote them
// (record.Canonical). A member of another form (an element or a member
// the server does not write, a list with an element that does not read)
// is read leniently, as vc read it before it was typed: the JSON decoded
// into the type, a list's elements that do not decode (null, not an
// object, a member of another type) skipped. It is written back as stored
// while it is what was read (otherForm). A member that does not read at
// all (null, a list for an object, an object for a list) stays in Doc as
// it was.

// VCState holds vc's members of a conference; a nil field is no member.
type VCState struct {
	Playback    *Playback    // vc_playback: the playback, kept stopped after it ends
	Monitors    []Monitor    // vc_monitors: the monitors, stored [] once the last is gone
	Inspections []Inspection // vc_inspections: the selective viewings
	SMS         *SMS         // sms: the short message last sent
	// other are the members of another form read leniently, in the order
	// of vcMembers; nil for one of the form the server writes.
	other [len(vcMembers)]*otherForm
}

// The stored member names of VCState's fields, in their order.
var vcMembers = [...]string{"vc_playback", "vc_monitors", "vc_inspections", "sms"}

// Playback is the conference's playback of a program (vc's playback.go),
// stored as the member vc_playback.
type Playback struct {
	AnchorAt       int64           `json:"anchor_at"` // UNIX ms at which the position was PosMs
	FileID         int             `json:"file_id"`
	FileName       string          `json:"file_name"`
	PausedAt       int64           `json:"paused_at"` // UNIX ms of the pause, 0 unless paused
	PlayDualStream int             `json:"play_dual_stream"`
	PosMs          int64           `json:"pos_ms"`
	RecID          string          `json:"rec_id"` // the playing recorder's id
	State          int             `json:"state"`  // 0 stopped, 1 paused, 2 playing, 3 preparing, 4 calling
	TotalMs        int64           `json:"total_ms"`
	VrsID          json.RawMessage `json:"vrs_id"` // the program's, as it holds it
}

// Monitor is a monitor (vc's monitor.go), an element of vc_monitors: the
// monitor as the replies show it, the video or audio format the request
// asked for (as sent), its last heartbeat and its WHEP link's key.
type Monitor struct {
	AudioFormat json.RawMessage                          `json:"audio_format,omitempty"`
	Dst         model.VCConfsMonitorsListReplyMonitorDst `json:"dst"`
	HeartbeatAt int64                                    `json:"heartbeat_at"` // UNIX ms
	Key         string                                   `json:"key,omitempty"`
	Mode        int                                      `json:"mode"`
	Src         model.VCConfsMonitorsListReplyMonitorSrc `json:"src"`
	VideoFormat json.RawMessage                          `json:"video_format,omitempty"`
}

// Inspection is a selective viewing (vc's inspect.go), an element of
// vc_inspections, as inspection_channels lists it.
type Inspection struct {
	Dst  model.VCConfsInspectionChannelsListReplyInspectionDst `json:"dst"`
	Mode int                                                   `json:"mode"`
	Src  model.VCConfsInspectionChannelsListReplyInspectionSrc `json:"src"`
}

// SMS is the short message last sent (vc's control_sms.go), stored as
// the member sms.
type SMS struct {
	Message   string                          `json:"message"`
	Type      int                             `json:"type"`
	RollNum   int                             `json:"roll_num"`
	RollSpeed int                             `json:"roll_speed"`
	Mts       []model.VCConfsSMSSendRequestMt `json:"mts"`
	SendTime  string                          `json:"send_time"`
}

// otherForm is a member of another form than the server writes: as
// stored (as the map document writes it) and as the member read from it
// is written.
type otherForm struct {
	stored json.RawMessage
	read   json.RawMessage
}

// splitVC reads the member name from its stored JSON raw into its field,
// and tells whether name is one of vc's members.
func (s *VCState) splitVC(name string, raw []byte) bool {
	i := slices.Index(vcMembers[:], name)
	switch i {
	case 0:
		s.Playback, s.other[i] = readVCMember(raw, readObject[Playback])
	case 1:
		s.Monitors, s.other[i] = readVCMember(raw, readList[Monitor])
	case 2:
		s.Inspections, s.other[i] = readVCMember(raw, readList[Inspection])
	case 3:
		s.SMS, s.other[i] = readVCMember(raw, readObject[SMS])
	}
	return i >= 0
}

// vcRead tells which members splitVC read (they leave Doc).
func (s *VCState) vcRead() [len(vcMembers)]bool {
	return [...]bool{s.Playback != nil, s.Monitors != nil, s.Inspections != nil, s.SMS != nil}
}

// readVCMember reads a member with read, and keeps it as stored when it is of
// another form than its value writes. A member read does not read is
// the zero T.
func readVCMember[T any](raw []byte, read func([]byte) (T, bool)) (T, *otherForm) {
	var zero T
	// Read from the member as the map document held it (a format, kept
	// as JSON, has its members in name order, as vc read it before).
	stored, err := record.Canonical(raw)
	if err != nil {
		return zero, nil
	}
	v, ok := read(stored)
	if !ok {
		return zero, nil
	}
	written, err := canonicalOf(v)
	if err != nil {
		return zero, nil
	}
	if bytes.Equal(stored, written) {
		return v, nil
	}
	return v, &otherForm{stored: stored, read: written}
}

// readObject reads a JSON object into a T; false for anything else.
func readObject[T any](raw []byte) (*T, bool) {
	if b := bytes.TrimSpace(raw); len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	v := new(T)
	if json.Unmarshal(raw, v) != nil {
		return nil, false
	}
	return v, true
}

// readList reads a JSON list of T, skipping the elements that do not
// read as a T (readObject); false for anything but a list.
func readList[T any](raw []byte) ([]T, bool) {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil || elems == nil {
		return nil, false
	}
	out := make([]T, 0, len(elems))
	for _, e := range elems {
		if v, ok := readObject[T](e); ok {
			out = append(out, *v)
		}
	}
	return out, true
}

// canonicalOf is v's JSON with the members of every object in name order.
func canonicalOf(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return record.Canonical(b)
}

// vcFields are s's fields as values (a nil field is an untyped nil), in
// the order of vcMembers.
func (s *VCState) vcFields() [len(vcMembers)]any {
	var out [len(vcMembers)]any
	if s.Playback != nil {
		out[0] = s.Playback
	}
	if s.Monitors != nil {
		out[1] = s.Monitors
	}
	if s.Inspections != nil {
		out[2] = s.Inspections
	}
	if s.SMS != nil {
		out[3] = s.SMS
	}
	return out
}

// vcValues are s's members as stored, nil for a field that is nil: a
// member of another form as it was while it is what was read. A value
// that does not encode is given as it is, for the document's encoding
// to fail on it.
func (s *VCState) vcValues() [len(vcMembers)]any {
	var out [len(vcMembers)]any
	for i, v := range s.vcFields() {
		if v == nil {
			continue
		}
		w, err := canonicalOf(v)
		switch {
		case err != nil:
			out[i] = v
		case s.other[i] != nil && bytes.Equal(w, s.other[i].read):
			out[i] = s.other[i].stored
		default:
			out[i] = w
		}
	}
	return out
}

// vcValid tells whether decoding s's values gives s back, so that a write
// may keep s for the bytes it wrote (ownValid): its strings are valid
// UTF-8, its formats as stored, and a member of another form is what was
// read from it.
func (s *VCState) vcValid() bool {
	if s.Playback == nil && s.Monitors == nil && s.Inspections == nil && s.SMS == nil && s.other == [len(vcMembers)]*otherForm{} {
		return true // none: a conference without them checks nothing
	}
	var back VCState
	for i, v := range s.vcValues() {
		if v == nil {
			continue
		}
		raw, ok := v.(json.RawMessage)
		if !ok || !back.splitVC(vcMembers[i], raw) {
			return false
		}
	}
	if !reflect.DeepEqual(back.vcFields(), s.vcFields()) {
		return false
	}
	for i, o := range back.other {
		if (o == nil) != (s.other[i] == nil) || o != nil && !bytes.Equal(o.stored, s.other[i].stored) {
			return false
		}
	}
	return true
}

// vcClone copies s (nil stays nil, an empty list stays empty); the formats
// (json.RawMessage) are shared, never changed in place.
func (s VCState) vcClone() VCState {
	if s.Playback != nil {
		p := *s.Playback
		s.Playback = &p
	}
	if s.Monitors != nil {
		l := make([]Monitor, len(s.Monitors))
		for i, m := range s.Monitors {
			l[i] = m.clone()
		}
		s.Monitors = l
	}
	s.Inspections = slices.Clone(s.Inspections)
	if s.SMS != nil {
		m := *s.SMS
		m.Mts = slices.Clone(m.Mts)
		s.SMS = &m
	}
	return s
}

// clone copies a monitor's source's parts.
func (m Monitor) clone() Monitor {
	src := &m.Src
	src.Encrypt = clonePtr(src.Encrypt)
	src.PayloadFormats = clonePtr(src.PayloadFormats)
	src.MediaFormats = clonePtr(src.MediaFormats)
	src.Rtcp = clonePtr(src.Rtcp)
	return m
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
