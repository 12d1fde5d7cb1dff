package mc

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// The stored documents of templates and virtual meeting rooms (issue 40).
// Each is the endpoint's generated modification request, which holds what
// was sent (a required member is always sent; an optional scalar is an
// Opt, an optional object a pointer, an optional list nil when not sent)
// plus the members the server writes. A creation stores the request; a
// modification decodes the stored document and sets over it the members
// the request sent (sentOver), so that what it leaves out stays as
// stored. record.Encode writes them with their members in name order and
// the absent ones left out: the bytes the map documents had
// (TestTemplateAndRoomStoredBytes); a modification keeps the stored bytes
// of what it did not change, members no type declares among them
// (encodeOver, TestUpdateKeepsHandEditedMembers).

// personalDoc is a stored personal template.
type personalDoc struct {
	model.MCPersonalTemplatesUpdateRequest
	TemplateID string `json:"template_id"`
	// E164 is the template's number: "" unless bind_e164 is 1.
	E164       string         `json:"e164"`
	Resolution model.Opt[int] `json:"resolution,omitzero"`
}

// publicDoc is a stored public template.
type publicDoc struct {
	model.MCPublicTemplatesUpdateRequest
	TemplateID string         `json:"template_id"`
	Resolution model.Opt[int] `json:"resolution,omitzero"`
}

// roomDoc is a stored virtual meeting room.
type roomDoc struct {
	model.MCVirtualMeetingRoomsUpdateRequest
	ID         string         `json:"id"`
	E164       string         `json:"e164"`
	ConfName   string         `json:"conf_name"`
	Resolution model.Opt[int] `json:"resolution,omitzero"`
}

// tplDoc is a stored template of either scope.
type tplDoc interface {
	// apply decodes the request, checks it and sets what it sent over
	// the document.
	apply(r *api.Request, sc tplScope) error
	name() string
	// finish sets the server's members: the id and what derive makes.
	finish(id string)
}

func (sc tplScope) newDoc() tplDoc {
	if sc.personal {
		return new(personalDoc)
	}
	return new(publicDoc)
}

func (d *personalDoc) apply(r *api.Request, sc tplScope) error {
	var q model.MCPersonalTemplatesUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	if err := sc.check(q.Name, q.Password, q.EncryptedKey); err != nil {
		return err
	}
	// Reference 04: a participant's call bitrate defaults to the
	// conference bitrate and may not exceed it.
	for i := range q.InviteMembers {
		mem := &q.InviteMembers[i]
		rate, ok := mem.Bitrate.Get()
		if !ok {
			mem.Bitrate = model.Some(q.Bitrate)
			continue
		}
		if rate > q.Bitrate {
			return wire.InvalidParam(fmt.Sprintf("invite_members[%d].bitrate", i),
				fmt.Sprintf("%d exceeds the conference bitrate %d", rate, q.Bitrate))
		}
	}
	sentOver(&d.MCPersonalTemplatesUpdateRequest, &q)
	return nil
}

func (d *personalDoc) name() string { return d.Name }

func (d *personalDoc) finish(id string) {
	d.TemplateID = id
	d.Resolution = mainResolution(d.VideoFormats)
}

func (d *publicDoc) apply(r *api.Request, sc tplScope) error {
	var q model.MCPublicTemplatesUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	if err := sc.check(q.Name, q.Password, model.Some(q.EncryptedKey)); err != nil {
		return err
	}
	sentOver(&d.MCPublicTemplatesUpdateRequest, &q)
	return nil
}

func (d *publicDoc) name() string { return d.Name }

// finish: public templates cannot set initial silence, which stays 0
// (reference 04, create public template).
func (d *publicDoc) finish(id string) {
	d.TemplateID = id
	d.Resolution = mainResolution(d.VideoFormats)
	d.Silence = model.Some(0)
}

// mainResolution is the resolution the lists show: the main video
// format's, the first of video_formats.
func mainResolution(vf []model.MCPersonalTemplatesUpdateRequestVideoFormat) model.Opt[int] {
	if len(vf) == 0 {
		return model.Opt[int]{}
	}
	return model.Some(vf[0].Resolution)
}

// derive fills the members of a room that lists show but requests do not
// carry: resolution is the main video format's, and bitrate, when not
// sent, is the main video format's bitrate (reference 04:
// "会议码率，目前以主视频格式中的码率为准").
func (d *roomDoc) derive() {
	d.Resolution = mainResolution(d.VideoFormats)
	if len(d.VideoFormats) > 0 && !d.Bitrate.Set {
		d.Bitrate = model.Some(d.VideoFormats[0].Bitrate)
	}
}

// decodeDoc reads a stored document into d.
func decodeDoc(data []byte, d any) error { return json.Unmarshal(data, d) }

// sentOver sets each member that the request src sent over dst (both
// pointers to one generated request type): an Opt that is set, an object
// or list that is present, and every required member (always sent).
func sentOver[T any](dst, src *T) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := 0; i < s.NumField(); i++ {
		if f := s.Field(i); wasSent(f) {
			d.Field(i).Set(f)
		}
	}
}

func wasSent(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return !v.IsNil()
	}
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
		return !z.IsZero()
	}
	return true
}

// encodeDoc writes a stored document (record.Encode).
func encodeDoc(d any) ([]byte, error) { return record.Encode(d) }

// encodeOver writes d, decoded from stored and changed, over stored:
// the members the change left as they were keep their stored bytes, so
// that a hand-edited record keeps the members no type declares, at the
// top or nested (record.KeepStored). seen is encodeDoc of d as decoded.
func encodeOver(stored, seen []byte, d any) ([]byte, error) {
	changed, err := encodeDoc(d)
	if err != nil {
		return nil, err
	}
	return record.KeepStored(stored, seen, changed)
}
