package mc

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
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
		var room roomCall
		if err := json.Unmarshal(rec.Data, &room); err != nil {
			return false, err
		}
		if string(room.E164) != number {
			continue
		}
		if room.Exclusive == 1 || !may(string(room.Password)) {
			return false, nil
		}
		return m.startRoom(ctx, rec, room)
	}
	return false, nil
}

// roomCall is what a call-in reads of a stored room, as record.Str and
// record.Int read it.
type roomCall struct {
	E164      record.Text    `json:"e164"`
	Exclusive record.Integer `json:"exclusive"`
	Name      record.Text    `json:"name"`
	Password  record.Text    `json:"password"`
}

func (m *Module) startRoom(ctx context.Context, rec store.Record, room roomCall) (bool, error) {
	name := string(room.Name)
	base, err := confBase(rec.Data, &name, nil)
	if err != nil {
		return false, err
	}
	p := &auth.Principal{DomainMoid: rec.DomainMoid}
	if d, err := m.st.DomainByMoid(ctx, rec.DomainMoid); err == nil {
		p.DomainName = d.Name
	}
	doc, err := completeConf(base, engine.CreateRoom, rec.ID, p)
	if err != nil {
		return false, err
	}
	c, err := m.confs.CreateOrHold(ctx, engine.Spec{DomainMoid: rec.DomainMoid, Number: string(room.E164), Doc: doc})
	if errors.Is(err, engine.ErrNumberUsed) {
		return true, nil // another caller's call started it
	}
	if err != nil {
		return false, err
	}
	return c.Rec.State == engine.StateRunning, nil
}
