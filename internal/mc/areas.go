package mc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Meeting-room areas (seed 001: from 5.2.0.4.0; reference 04 sections
// 28-31): named areas of the user domain. Everyone of the domain lists
// them; creating, modifying and deleting is for administrators ("管理员有
// 权限"), else 20005. An id of another domain, or of no area, answers 90400
// naming the id: the reference's code table has no code for a missing area.

// areaNameMax is the limit of an area's name (reference 04: 60 characters).
const areaNameMax = 60

// areaName reads the required area name: not blank, at most 60 characters.
// The creation's and the modification's requests are one shape.
func areaName(r *api.Request) (string, error) {
	var q model.MCMeetingRoomAreasCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return "", err
	}
	name := q.Area
	switch {
	case strings.TrimSpace(name) == "":
		return "", wire.InvalidParam("area", "required parameter is missing")
	case utf8.RuneCountInString(name) > areaNameMax:
		return "", wire.InvalidParam("area", fmt.Sprintf("must be at most %d characters", areaNameMax))
	}
	return name, nil
}

// areaDoc is an area's stored document: its name and id (the members in
// name order, as the stored JSON has them).
type areaDoc struct {
	Area string `json:"area"`
	ID   string `json:"id"`
}

func (m *Module) areaLoad(ctx context.Context, r *api.Request) (store.Record, areaDoc, error) {
	var doc areaDoc
	rec, err := m.loadRecord(ctx, r, record.KindArea, r.Path("id"), false, wire.CodeInvalidParam, "parameter id: meeting-room area")
	if err == nil {
		err = json.Unmarshal(rec.Data, &doc)
	}
	return rec, doc, err
}

// areaList pages through the domain's areas by last modification (order 1:
// newest first).
func (m *Module) areaList(ctx context.Context, r *api.Request) (*model.MCMeetingRoomAreasListReply, error) {
	recs, total, err := m.listRecords(ctx, r, record.KindArea, false)
	if err != nil {
		return nil, err
	}
	out := &model.MCMeetingRoomAreasListReply{Total: total, MeetingRoomAreas: make([]model.MCMeetingRoomAreasListReplyMeetingRoomArea, len(recs))}
	for i, rec := range recs {
		var doc areaDoc
		if err := json.Unmarshal(rec.Data, &doc); err != nil {
			return nil, err
		}
		out.MeetingRoomAreas[i] = model.MCMeetingRoomAreasListReplyMeetingRoomArea{ID: doc.ID, Area: doc.Area}
	}
	return out, nil
}

func (m *Module) areaCreate(ctx context.Context, r *api.Request) (*model.MCMeetingRoomAreasCreateReply, error) {
	if err := adminOnly(r, "meeting-room areas"); err != nil {
		return nil, err
	}
	name, err := areaName(r)
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	rec := store.Record{Kind: record.KindArea, DomainMoid: r.Principal.DomainMoid, CreatedAt: now, UpdatedAt: now}
	id, err := m.insertNumbered(ctx, rec, func(id string) ([]byte, error) {
		return json.Marshal(areaDoc{Area: name, ID: id})
	}, "area", 1, 99999999)
	if err != nil {
		return nil, err
	}
	return &model.MCMeetingRoomAreasCreateReply{ID: id, Description: tplDescOK}, nil
}

func (m *Module) areaUpdate(ctx context.Context, r *api.Request) (*model.MCMeetingRoomAreasUpdateReply, error) {
	if err := adminOnly(r, "meeting-room areas"); err != nil {
		return nil, err
	}
	name, err := areaName(r)
	if err != nil {
		return nil, err
	}
	rec, doc, err := m.areaLoad(ctx, r)
	if err != nil {
		return nil, err
	}
	doc.Area = name
	if rec.Data, err = json.Marshal(doc); err != nil {
		return nil, err
	}
	rec.UpdatedAt = m.clk.Now()
	if err := m.st.UpdateRecord(ctx, rec, ""); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, wire.InvalidParam("id", "meeting-room area "+rec.ID+" does not exist")
		}
		return nil, err
	}
	return &model.MCMeetingRoomAreasUpdateReply{Description: tplDescOK}, nil
}

func (m *Module) areaDelete(ctx context.Context, r *api.Request) (*model.MCMeetingRoomAreasDeleteReply, error) {
	if err := adminOnly(r, "meeting-room areas"); err != nil {
		return nil, err
	}
	rec, _, err := m.areaLoad(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := m.st.DeleteRecord(ctx, record.KindArea, rec.DomainMoid, rec.ID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, wire.InvalidParam("id", "meeting-room area "+rec.ID+" does not exist")
		}
		return nil, err
	}
	return &model.MCMeetingRoomAreasDeleteReply{Description: tplDescOK}, nil
}
