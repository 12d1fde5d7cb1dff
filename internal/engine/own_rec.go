package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/record"
)

// The running recordings of a conference (vc's rec*.go), typed as the
// other own members (own.go): decoded once into Conference.Recorders and
// written back under their stored name, vc_recorders, in the same form,
// so that the stored JSON keeps its shape and its bytes. vrs reads them
// too (its live rooms and its count of the platform's recordings).

// Recording is a running recording, an element of vc_recorders: {rec_id,
// video_name, recorder_type, vrs_id, members, state, started_at,
// paused_at, paused_ms, publish_mode, watermark, anonymous,
// recorder_mode, main_stream, dual_stream}, with x_confer_rtmp_url for a
// broadcast pushed to RTMP and x_confer_parts once the media side records
// it (neither is shown in the platform's replies).
type Recording struct {
	RecID        string   // rec_id: a numeric string, unique across conferences
	VideoName    string   // video_name
	RecorderType int      // recorder_type: 1 the conference, 2 terminals
	VrsID        string   // vrs_id: the recording server
	Members      []string // members: [{mt_id}], the terminals of a terminal recording
	State        int      // state: 1 recording, 2 paused
	StartedAt    int64    // started_at: UNIX ms of the start
	PausedAt     int64    // paused_at: UNIX ms of the current pause, 0 when recording
	PausedMs     int64    // paused_ms: the length of the earlier pauses in ms
	PublishMode  int      // publish_mode
	Watermark    int      // watermark
	Anonymous    int      // anonymous
	RecorderMode int      // recorder_mode: 1 record, 2 live, 3 both
	MainStream   int      // main_stream
	DualStream   int      // dual_stream
	RTMPURL      string   // x_confer_rtmp_url: where a broadcast is pushed; "" not stored
	// Parts (x_confer_parts) are the files the media side records it
	// into, one per node that recorded it (vc's rec_parts.go); nil not
	// stored.
	Parts []RecordingPart
	// absent marks the members (bit i: recordingMembers[i]) the stored
	// element lacked: each reads as its default and is written back only
	// once it is set, so that a list of an older form keeps its bytes.
	absent uint16
}

// RecordingPart is a part of a recording, stored as {file, node,
// started_at}.
type RecordingPart struct {
	File      string // file: relative to the recordings folder, as created (.webm)
	Node      string // node: the media URL of the node that records it ("" one node)
	StartedAt int64  // started_at: UNIX ms
}

// recStatePaused is Recording.State of a paused recording.
const recStatePaused = 2

// recMembersBit is the bit of members in Recording.absent.
const recMembersBit = 1 << 4

const (
	recordersMember = "vc_recorders"
	rtmpURLMember   = "x_confer_rtmp_url"
	recPartsMember  = "x_confer_parts"
)

// recordingMembers are the stored names of a Recording's members, in the
// order of its fields (Recording.fields) and of the bits of its absent.
var recordingMembers = [...]string{"rec_id", "video_name", "recorder_type", "vrs_id", "members", "state", "started_at",
	"paused_at", "paused_ms", "publish_mode", "watermark", "anonymous", "recorder_mode", "main_stream", "dual_stream"}

// fields are pointers to r's fields named by recordingMembers: *string,
// *int, *int64 or *[]string.
func (r *Recording) fields() [len(recordingMembers)]any {
	return [...]any{&r.RecID, &r.VideoName, &r.RecorderType, &r.VrsID, &r.Members, &r.State, &r.StartedAt,
		&r.PausedAt, &r.PausedMs, &r.PublishMode, &r.Watermark, &r.Anonymous, &r.RecorderMode, &r.MainStream, &r.DualStream}
}

// decodeRecording reads a stored element of vc_recorders, its JSON
// decoded straight into its stored form (record.DecodeExact). A member the
// element lacks (a list an older release or a hand edit stored) reads as
// the platform's default, 0, "" or no terminals, and is marked absent so
// that it is written back only once it is set; a member of another type
// (a null too), or one the server does not write, fails the element.
func decodeRecording(o recordingStored) Recording {
	r := Recording{RTMPURL: o.RTMPURL}
	from := o.stored()
	for i, f := range r.fields() {
		switch f := f.(type) {
		case *string:
			if p := *from[i].(**string); p != nil {
				*f = *p
				continue
			}
		case *int:
			if p := *from[i].(**int); p != nil {
				*f = *p
				continue
			}
		case *int64:
			if p := *from[i].(**int64); p != nil {
				*f = *p
				continue
			}
		case *[]string:
			if p := *from[i].(**[]mtIDStored); p != nil {
				*f = make([]string, len(*p))
				for j, m := range *p {
					(*f)[j] = m.MtID
				}
				continue
			}
		}
		r.absent |= 1 << i
	}
	if o.Parts != nil {
		r.Parts = make([]RecordingPart, len(o.Parts))
		for i, p := range o.Parts {
			r.Parts[i] = RecordingPart(p)
		}
	}
	return r
}

// recordingStored is a recording as stored, its members declared in name
// order (as vipStored, own.go); a nil member is one an element of an older
// form lacked and that is still at its default (Recording.absent).
type recordingStored struct {
	Anonymous    *int          `json:"anonymous,omitempty"`
	DualStream   *int          `json:"dual_stream,omitempty"`
	MainStream   *int          `json:"main_stream,omitempty"`
	Members      *[]mtIDStored `json:"members,omitempty"`
	PausedAt     *int64        `json:"paused_at,omitempty"`
	PausedMs     *int64        `json:"paused_ms,omitempty"`
	PublishMode  *int          `json:"publish_mode,omitempty"`
	RecID        *string       `json:"rec_id,omitempty"`
	RecorderMode *int          `json:"recorder_mode,omitempty"`
	RecorderType *int          `json:"recorder_type,omitempty"`
	StartedAt    *int64        `json:"started_at,omitempty"`
	State        *int          `json:"state,omitempty"`
	VideoName    *string       `json:"video_name,omitempty"`
	VrsID        *string       `json:"vrs_id,omitempty"`
	Watermark    *int          `json:"watermark,omitempty"`
	Parts        []partStored  `json:"x_confer_parts,omitzero"`
	RTMPURL      string        `json:"x_confer_rtmp_url,omitempty"`
}

type mtIDStored struct {
	MtID string `json:"mt_id"`
}

type partStored struct {
	File      string `json:"file"`
	Node      string `json:"node"`
	StartedAt int64  `json:"started_at"`
}

// stored are the members of o named by recordingMembers, in the order of
// Recording.fields.
func (o *recordingStored) stored() [len(recordingMembers)]any {
	return [...]any{&o.RecID, &o.VideoName, &o.RecorderType, &o.VrsID, &o.Members, &o.State, &o.StartedAt,
		&o.PausedAt, &o.PausedMs, &o.PublishMode, &o.Watermark, &o.Anonymous, &o.RecorderMode, &o.MainStream, &o.DualStream}
}

// value is r as stored: every member, but one the stored element lacked
// while it is still at its default.
func (r Recording) value() recordingStored {
	o := recordingStored{RTMPURL: r.RTMPURL}
	to := o.stored()
	for i, f := range r.fields() {
		keep := r.absent&(1<<i) == 0
		switch f := f.(type) {
		case *string:
			if keep || *f != "" {
				*to[i].(**string) = f
			}
		case *int:
			if keep || *f != 0 {
				*to[i].(**int) = f
			}
		case *int64:
			if keep || *f != 0 {
				*to[i].(**int64) = f
			}
		case *[]string:
			if keep || len(*f) != 0 {
				members := make([]mtIDStored, len(*f))
				for i, id := range *f {
					members[i].MtID = id
				}
				*to[i].(**[]mtIDStored) = &members
			}
		}
	}
	if r.Parts != nil {
		o.Parts = make([]partStored, len(r.Parts))
		for i, p := range r.Parts {
			o.Parts[i] = partStored(p)
		}
	}
	return o
}

// decodeRecorders reads the running recordings from their stored JSON;
// nil when the member is not a list (then it stays in Doc as it was). A
// list with an element of another form (a hand edit: a number for
// rec_id) is read leniently (readRecordingLenient), so that vc lists and
// controls the recordings it can read, where it listed none
// (TestRecordingOfWrongType); other keeps the list as it was stored.
func decodeRecorders(raw []byte) (l []Recording, other *otherRecorders) {
	var exact []recordingStored
	if record.DecodeExact(raw, &exact) && exact != nil {
		l = make([]Recording, len(exact))
		for i, o := range exact {
			l[i] = decodeRecording(o) // a null member is of another form: DecodeExact refused it
		}
		return l, nil
	}
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil || elems == nil {
		return nil, nil
	}
	stored, err := record.Canonical(raw)
	if err != nil {
		return nil, nil
	}
	l = make([]Recording, 0, len(elems))
	for _, e := range elems {
		if r, ok := readRecordingLenient(e); ok {
			l = append(l, r)
		}
	}
	return l, &otherRecorders{stored: stored, read: cloneRecorders(l)}
}

// otherRecorders is a list of recordings of another form: as stored, and
// as read leniently. It is written back as stored while the recordings
// are what was read (the stored bytes kept, TestOwnMembersKeepTheStoredBytes),
// in this release's form once they changed, without the elements that
// were skipped.
type otherRecorders struct {
	stored json.RawMessage // as the map document writes it
	read   []Recording
}

// readRecordingLenient reads an element of vc_recorders that
// decodeRecorders refuses, from its JSON into typed members: a JSON number
// where a string is stored reads as its decimal form, a numeric string
// where a number is stored as its value, and members the server does not
// write are ignored. An element that is not an object, or that has a
// member of another type even so, is skipped (false).
func readRecordingLenient(raw json.RawMessage) (Recording, bool) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || b[0] != '{' {
		return Recording{}, false
	}
	var o recordingLenient
	if json.Unmarshal(b, &o) != nil || o.RTMPURL != nil && *o.RTMPURL == "" {
		return Recording{}, false
	}
	var r Recording
	from := o.members()
	for i, f := range r.fields() {
		if from[i] == nil {
			r.absent |= 1 << i
			continue
		}
		switch f := f.(type) {
		case *string:
			*f = string(*from[i].(*lenientStr))
		case *int:
			*f = int(*from[i].(*lenientInt))
		case *int64:
			*f = int64(*from[i].(*lenientInt))
		case *[]string:
			l := *from[i].(*[]mtIDLenient)
			*f = make([]string, len(l))
			for j, e := range l {
				(*f)[j] = string(e.MtID)
			}
		}
	}
	if o.RTMPURL != nil {
		r.RTMPURL = string(*o.RTMPURL)
	}
	if o.Parts != nil {
		r.Parts = make([]RecordingPart, len(*o.Parts))
		for i, p := range *o.Parts {
			r.Parts[i] = RecordingPart{File: string(p.File), Node: string(p.Node), StartedAt: int64(p.StartedAt)}
		}
	}
	return r, true
}

// recordingLenient is an element of vc_recorders read leniently; a nil
// member is one the element lacks (or null).
type recordingLenient struct {
	RecID        *lenientStr    `json:"rec_id"`
	VideoName    *lenientStr    `json:"video_name"`
	RecorderType *lenientInt    `json:"recorder_type"`
	VrsID        *lenientStr    `json:"vrs_id"`
	Members      *[]mtIDLenient `json:"members"`
	State        *lenientInt    `json:"state"`
	StartedAt    *lenientInt    `json:"started_at"`
	PausedAt     *lenientInt    `json:"paused_at"`
	PausedMs     *lenientInt    `json:"paused_ms"`
	PublishMode  *lenientInt    `json:"publish_mode"`
	Watermark    *lenientInt    `json:"watermark"`
	Anonymous    *lenientInt    `json:"anonymous"`
	RecorderMode *lenientInt    `json:"recorder_mode"`
	MainStream   *lenientInt    `json:"main_stream"`
	DualStream   *lenientInt    `json:"dual_stream"`
	RTMPURL      *lenientStr    `json:"x_confer_rtmp_url"`
	Parts        *[]struct {
		File      lenientStr `json:"file"`
		Node      lenientStr `json:"node"`
		StartedAt lenientInt `json:"started_at"`
	} `json:"x_confer_parts"`
}

type mtIDLenient struct {
	MtID lenientStr `json:"mt_id"`
}

// members are o's members in the order of Recording.fields, nil for
// those it lacks.
func (o *recordingLenient) members() [len(recordingMembers)]any {
	out := [...]any{o.RecID, o.VideoName, o.RecorderType, o.VrsID, o.Members, o.State, o.StartedAt,
		o.PausedAt, o.PausedMs, o.PublishMode, o.Watermark, o.Anonymous, o.RecorderMode, o.MainStream, o.DualStream}
	for i, v := range out { // a nil pointer in an interface is a lacking member
		if reflect.ValueOf(v).IsNil() {
			out[i] = nil
		}
	}
	return out
}

// lenientStr is a string member stored as a string or a number (its
// decimal text); anything else fails.
type lenientStr string

func (s *lenientStr) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil && len(b) > 0 && b[0] != '"' {
		*s = lenientStr(n)
		return nil
	}
	var v string
	err := json.Unmarshal(b, &v)
	*s = lenientStr(v)
	return err
}

// lenientInt is an integer member stored as a number or as a numeric
// string (its canonical decimal text); anything else fails.
type lenientInt int64

func (n *lenientInt) UnmarshalJSON(b []byte) error {
	t := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &t); err != nil {
			return err
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err == nil && strconv.FormatInt(v, 10) != t {
		err = fmt.Errorf("%q is not an integer's decimal text", t)
	}
	*n = lenientInt(v)
	return err
}

// recordersValue is c's recordings as stored: as they were while a list
// of another form is unchanged (otherRecorders), else in this release's
// form.
func (c Conference) recordersValue() any {
	if o := c.recordersOther; o != nil && sameRecorders(c.Recorders, o.read) {
		return o.stored
	}
	return recordersValue(c.Recorders)
}

// sameRecorders tells whether a and b store the same.
func sameRecorders(a, b []Recording) bool {
	x, errA := json.Marshal(recordersValue(a))
	y, errB := json.Marshal(recordersValue(b))
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

func recordersValue(l []Recording) []recordingStored {
	out := make([]recordingStored, len(l))
	for i, r := range l {
		out[i] = r.value()
	}
	return out
}

// settle makes r what decoding its value gives back: a member it lacked
// that has been set since is written, so it is no longer absent, and one
// still at its default is not (a list of no terminals reads back nil).
// Without it, the conference a write keeps in the doc cache would write
// a member set and then reset differently from a fresh read
// (TestKeptRecordingIsWhatDecodingGives).
func (r *Recording) settle() {
	for i, f := range r.fields() {
		if r.absent&(1<<i) == 0 {
			continue
		}
		set := false
		switch f := f.(type) {
		case *string:
			set = *f != ""
		case *int:
			set = *f != 0
		case *int64:
			set = *f != 0
		case *[]string:
			if set = len(*f) != 0; !set {
				*f = nil
			}
		}
		if set {
			r.absent &^= 1 << i
		}
	}
}

// cloneRecorders copies the recordings (nil stays nil), each as decoding
// its value gives it back (settle).
func cloneRecorders(l []Recording) []Recording {
	if l == nil {
		return nil
	}
	out := make([]Recording, len(l))
	for i, r := range l {
		r.settle()
		if r.Members != nil || r.absent&recMembersBit == 0 {
			r.Members = append([]string{}, r.Members...) // stored: read back as a list
		}
		if r.Parts != nil {
			r.Parts = append([]RecordingPart{}, r.Parts...)
		}
		out[i] = r
	}
	return out
}

// recordersValid tells whether the recordings' strings are valid UTF-8.
func recordersValid(l []Recording) bool {
	ok := true
	for _, r := range l {
		ok = ok && utf8.ValidString(r.RecID) && utf8.ValidString(r.VideoName) && utf8.ValidString(r.VrsID) &&
			utf8.ValidString(r.RTMPURL)
		for _, id := range r.Members {
			ok = ok && utf8.ValidString(id)
		}
		for _, p := range r.Parts {
			ok = ok && utf8.ValidString(p.File) && utf8.ValidString(p.Node)
		}
	}
	return ok
}
