package mc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// StartRoom starts the conference of the virtual meeting room whose
// number (e164) a terminal dialled while no conference of the room runs,
// as meeting-room platforms do (issue 39; docs/sip.md "Calling in"): a
// conference created from the room (create_type 4, template_id the room,
// the room's settings), as mc.confs.create makes it, with no creator
// account. may tells whether the caller may call a conference with the
// room's password in (docs/sip.md "--sip-call-in"). started is false when
// no room has the number, the room is exclusive (its users start it), may
// refuses, or the domain's approval holds the conference; true also when
// another call started it meanwhile.
func (m *Module) StartRoom(ctx context.Context, number string, may func(password string) bool) (started bool, err error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindRoom})
	if err != nil {
		return false, err
	}
	for _, rec := range recs {
		room, err := shape.Decode(rec.Data)
		if err != nil {
			return false, err
		}
		if record.Str(room, "e164") != number {
			continue
		}
		if record.Int(room, "exclusive") == 1 || !may(record.Str(room, "password")) {
			return false, nil
		}
		return m.startRoom(ctx, rec, room)
	}
	return false, nil
}

func (m *Module) startRoom(ctx context.Context, rec store.Record, room wire.JSONObject) (bool, error) {
	doc := map[string]any{}
	for k, v := range room {
		if !confSourceOnly[k] {
			doc[k] = v
		}
	}
	doc["meeting_room_name"] = record.Str(room, "name")
	doc["create_type"] = engine.CreateRoom
	doc["template_id"] = rec.ID
	p := &auth.Principal{DomainMoid: rec.DomainMoid}
	if d, err := m.st.DomainByMoid(ctx, rec.DomainMoid); err == nil {
		p.DomainName = d.Name
	}
	if err := completeConf(doc, p); err != nil {
		return false, err
	}
	c, err := m.confs.CreateOrHold(ctx, engine.Spec{DomainMoid: rec.DomainMoid, Number: record.Str(room, "e164"), Doc: doc})
	if errors.Is(err, engine.ErrNumberUsed) {
		return true, nil // another caller's call started it
	}
	if err != nil {
		return false, err
	}
	return c.Rec.State == engine.StateRunning, nil
}
