// Package krtc serves room management (seed 000 "Specified operations":
// list, create and delete rooms; Confer adds read and modify). A room is
// backed by a running conference of the engine, created through the
// conference service with enable_rtc set: it counts against the
// platform's capacity and lives as long as that conference runs.
// Requests are JSON style: a JSON body, account_token in the query, the
// session cookie in the Cookie header. docs/krtc.md describes the
// behaviour and its decisions.
package krtc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// KindRoom is the record kind of a room; its id is the room_id, its owner
// the creating account.
const KindRoom = "krtc_room"

// Room ids are numeric strings from the store counter "krtc_room", in
// [RoomIDMin, RoomIDMax] (apart from conference numbers, templates and
// virtual meeting rooms), wrapping around.
const (
	RoomIDMin     = 7000000
	RoomIDMax     = 7999999
	roomIDCounter = "krtc_room"
)

// Defaults of the room record (docs/krtc.md).
const (
	DefaultMaxJoinMt  = 192  // seed 000 "Limits" 2
	DefaultRoomType   = 1    // transcoding room
	DefaultResolution = 12   // 720P
	DefaultBitrate    = 2048 // kbps
	DefaultFormat     = 5    // H.264 BP, the WebRTC baseline
	DefaultFrame      = 30
	MinBitrate        = 64
	MaxBitrate        = 8192
)

const done = "operation succeeded"

// Module is the krtc module's state.
type Module struct {
	st    store.Store
	clk   clock.Clock
	confs *engine.Conferences
}

// New returns the module.
func New(st store.Store, clk clock.Clock, confs *engine.Conferences) *Module {
	return &Module{st: st, clk: clk, confs: confs}
}

// Routes is the krtc route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		"krtc.rooms.list":   api.Typed(m.list),
		"krtc.rooms.create": api.Typed(m.create),
		"krtc.rooms.get":    api.Typed(m.get),
		"krtc.rooms.update": api.Typed(m.update),
		"krtc.rooms.delete": api.Typed(m.delete),
	}
}

// confType is the conference type of a room type: 1 transcoding
// (traditional conference, conf_type 0), 2 forwarding (SFU, conf_type 2).
func confType(roomType int) int {
	if roomType == 2 {
		return 2
	}
	return 0
}

// checkName applies the conference-name rules to room_name.
func checkName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return wire.InvalidParam("room_name", "must not be empty")
	case len(name) > 64:
		return wire.InvalidParam("room_name", "longer than 64 bytes")
	case strings.ContainsAny(name, "%&*^~'\"?/\\<>|`$\x00\r\n\t"):
		return wire.InvalidParam("room_name", "must not contain % & * ^ ~ ' \" ? / \\ < > | ` $ or control characters")
	case strings.ContainsAny(name[:1], "_-.@") || strings.ContainsAny(name[len(name)-1:], "_-.@"):
		return wire.InvalidParam("room_name", "must not begin or end with _ - . @")
	}
	return nil
}

// room is a room record with its document: the stored record is the
// room as krtc.rooms.get shows it (model.Room), in JSON.
type room struct {
	rec store.Record
	doc model.Room
}

// decodeRoom reads a stored room record.
func decodeRoom(rec store.Record) (room, error) {
	rm := room{rec: rec}
	if err := json.Unmarshal(rec.Data, &rm.doc); err != nil {
		return room{}, fmt.Errorf("krtc: room %s: %w", rec.ID, err)
	}
	return rm, nil
}

func (m *Module) rooms(ctx context.Context, domainMoid string) ([]room, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: KindRoom, DomainMoid: domainMoid})
	if err != nil {
		return nil, err
	}
	out := make([]room, 0, len(recs))
	for _, rec := range recs {
		rm, err := decodeRoom(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, rm)
	}
	return out, nil
}

// nameTaken tells whether another room of the domain has the name.
func (m *Module) nameTaken(ctx context.Context, domainMoid, self, name string) (bool, error) {
	rs, err := m.rooms(ctx, domainMoid)
	if err != nil {
		return false, err
	}
	for _, r := range rs {
		if r.rec.ID != self && r.doc.RoomName == name {
			return true, nil
		}
	}
	return false, nil
}

// running tells whether a room's conference still runs.
func (m *Module) running(ctx context.Context, rm room) (engine.Conference, bool, error) {
	c, err := m.confs.Get(ctx, rm.rec.DomainMoid, rm.doc.ConfID, engine.StateRunning)
	if errors.Is(err, engine.ErrConfNotFound) {
		return c, false, nil
	}
	return c, err == nil, err
}

// forget deletes the record of a room whose conference has ended.
func (m *Module) forget(ctx context.Context, rm room) error {
	if err := m.st.DeleteRecord(ctx, KindRoom, rm.rec.DomainMoid, rm.rec.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// load reads a live room of the caller's domain (99996 otherwise: unknown,
// another domain's, or one whose conference has ended).
func (m *Module) load(ctx context.Context, r *api.Request) (room, engine.Conference, error) {
	id := r.Path("room_id")
	rec, err := m.st.GetRecord(ctx, KindRoom, r.Principal.DomainMoid, id)
	if errors.Is(err, store.ErrNotFound) {
		return room{}, engine.Conference{}, wire.Errorf(CodeRoomNotFound, "room %s does not exist", id)
	}
	if err != nil {
		return room{}, engine.Conference{}, err
	}
	rm, err := decodeRoom(rec)
	if err != nil {
		return room{}, engine.Conference{}, err
	}
	c, live, err := m.running(ctx, rm)
	if err != nil {
		return rm, c, err
	}
	if !live {
		if err := m.forget(ctx, rm); err != nil {
			return rm, c, err
		}
		return rm, c, wire.Errorf(CodeRoomNotFound, "room %s does not exist: its conference has ended", id)
	}
	return rm, c, nil
}

// ownerOrAdmin answers 20005 unless the caller created the room or
// administers the domain.
func ownerOrAdmin(r *api.Request, rm room) error {
	if r.Principal.Admin || rm.rec.OwnerMoid == r.Principal.AccountMoid {
		return nil
	}
	return wire.Errorf(wire.CodeNoPermission, "only the creator of room %s or an administrator may change it", rm.rec.ID)
}

func (m *Module) list(ctx context.Context, r *api.Request) (*model.KRTCRoomsListReply, error) {
	var q model.KRTCRoomsListRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	rs, err := m.rooms(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	confs, err := m.confs.List(ctx, r.Principal.DomainMoid, "", engine.StateRunning)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	for _, c := range confs {
		live[c.ID()] = true
	}
	kept := rs[:0]
	for _, rm := range rs {
		if live[rm.doc.ConfID] {
			kept = append(kept, rm)
		} else if err := m.forget(ctx, rm); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if !kept[i].rec.CreatedAt.Equal(kept[j].rec.CreatedAt) {
			return kept[i].rec.CreatedAt.Before(kept[j].rec.CreatedAt)
		}
		return roomSeq(kept[i].rec.ID) < roomSeq(kept[j].rec.ID)
	})
	start, count := max(q.Start.Or(0), 0), max(q.Count.Or(10), 0) // count 0: all
	reply := model.KRTCRoomsListReply{Total: len(kept)}
	for i, rm := range kept {
		if i >= start && (count == 0 || i < start+count) {
			reply.Rooms = append(reply.Rooms, model.KRTCRoomsListReplyRoom(rm.doc))
		}
	}
	return &reply, nil
}

func roomSeq(id string) int { n, _ := strconv.Atoi(id); return n }

func (m *Module) get(ctx context.Context, r *api.Request) (*model.Room, error) {
	rm, _, err := m.load(ctx, r)
	if err != nil {
		return nil, err
	}
	return &rm.doc, nil
}

// roomSettings is a room's settings as a request sets them: each one
// the request leaves out keeps its value in base (the stored room, or
// the defaults). It checks what the schema cannot.
type roomSettings struct {
	RoomName                                                model.Opt[string]
	MaxJoinMt, RoomType, Resolution, Bitrate, Format, Frame model.Opt[int]
}

// defaultRoom is a new room's settings before its request.
var defaultRoom = model.Room{MaxJoinMt: DefaultMaxJoinMt, RoomType: DefaultRoomType, Resolution: DefaultResolution,
	Bitrate: DefaultBitrate, Format: DefaultFormat, Frame: DefaultFrame}

func (p roomSettings) over(base model.Room) (model.Room, error) {
	doc := base
	if name, ok := p.RoomName.Get(); ok {
		if err := checkName(name); err != nil {
			return doc, err
		}
		doc.RoomName = name
	}
	doc.MaxJoinMt = p.MaxJoinMt.Or(doc.MaxJoinMt)
	doc.RoomType = p.RoomType.Or(doc.RoomType)
	doc.Resolution = p.Resolution.Or(doc.Resolution)
	doc.Bitrate = p.Bitrate.Or(doc.Bitrate)
	doc.Format = p.Format.Or(doc.Format)
	doc.Frame = p.Frame.Or(doc.Frame)
	if doc.Bitrate < MinBitrate || doc.Bitrate > MaxBitrate {
		return doc, wire.InvalidParam("bitrate", "must be from 64 to 8192 kbps")
	}
	return doc, nil
}

// create makes a room and its conference. Beyond the platform's capacity
// (conferences or ports) it answers 27506 (seed 000 "Errors") and keeps
// nothing; with video approval on, an account without approval rights
// gets 99997 (a room's conference starts at once and cannot wait).
func (m *Module) create(ctx context.Context, r *api.Request) (*model.KRTCRoomsCreateReply, error) {
	var q model.KRTCRoomsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	doc, err := roomSettings{model.Some(q.RoomName), q.MaxJoinMt, q.RoomType, q.Resolution, q.Bitrate, q.Format, q.Frame}.over(defaultRoom)
	if err != nil {
		return nil, err
	}
	name := doc.RoomName
	if taken, err := m.nameTaken(ctx, r.Principal.DomainMoid, "", name); err != nil {
		return nil, err
	} else if taken {
		return nil, wire.Errorf(CodeRoomNameExists, "a room named %q already exists", name)
	}
	if hold, err := m.confs.NeedsApproval(ctx, r.Principal.DomainMoid, r.Principal.AccountMoid); err != nil {
		return nil, err
	} else if hold {
		return nil, wire.Errorf(engine.CodeApprovalOn, "conference approval is on in this user domain: only an administrator may create rooms")
	}
	id, err := m.newID(ctx)
	if err != nil {
		return nil, err
	}
	cdoc := roomConf{CreateType: engine.CreateInstant, EnableRTC: 1, InviteMembers: []struct{}{}, PlatformID: engine.PlatformID, KRTCRoomID: id,
		PreoccupyResource: 1, // a room holds its ports (docs/krtc.md)
		Creator:           model.VCConfsListReplyConfCreator{Name: r.Principal.Username, Account: r.Principal.AccountMoid, AccountType: 1},
		UserDomainMoid:    r.Principal.DomainMoid, UserDomainName: r.Principal.DomainName, roomFields: fieldsOf(doc)}
	cdata, err := cdoc.document()
	if err != nil {
		return nil, err
	}
	c, err := m.confs.Create(ctx, engine.Spec{DomainMoid: r.Principal.DomainMoid, OwnerMoid: r.Principal.AccountMoid, Doc: cdata})
	if errors.Is(err, engine.ErrMaxConfs) || errors.Is(err, engine.ErrNoResource) {
		return nil, wire.Errorf(wire.CodeNoConfResource, "no idle conference resource for the room: %s", err)
	}
	if err != nil {
		return nil, err
	}
	doc.RoomID, doc.MeetingID, doc.ConfID = id, c.MeetingID(), c.ID()
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, errors.Join(err, m.confs.End(ctx, r.Principal.DomainMoid, c.ID()))
	}
	now := m.clk.Now()
	rec := store.Record{Kind: KindRoom, ID: id, DomainMoid: r.Principal.DomainMoid, OwnerMoid: r.Principal.AccountMoid,
		Data: data, CreatedAt: now, UpdatedAt: now}
	if err := m.st.CreateRecord(ctx, rec); err != nil {
		return nil, errors.Join(err, m.confs.End(ctx, r.Principal.DomainMoid, c.ID()))
	}
	return &model.KRTCRoomsCreateReply{RoomID: id, MeetingID: doc.MeetingID, Description: done}, nil
}

// newID returns the next room id that no room holds (99993 when every id
// is held). Ids are unique across domains; a creation that loses a race
// for the id fails when its record is stored (and ends its conference).
func (m *Module) newID(ctx context.Context) (string, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: KindRoom})
	if err != nil {
		return "", err
	}
	taken := make(map[string]bool, len(recs))
	for _, rec := range recs {
		taken[rec.ID] = true
	}
	for i := 0; i <= RoomIDMax-RoomIDMin; i++ {
		n, err := m.st.NextNumber(ctx, roomIDCounter, RoomIDMin, RoomIDMax)
		if err != nil {
			return "", err
		}
		if id := strconv.FormatInt(n, 10); !taken[id] {
			return id, nil
		}
	}
	return "", wire.Errorf(CodeRoomLimit, "every room id from %d to %d is taken", RoomIDMin, RoomIDMax)
}

// update changes a room and its conference: a larger max_join_mt must fit
// the free terminal ports (27506, nothing changed).
func (m *Module) update(ctx context.Context, r *api.Request) (*model.KRTCRoomsUpdateReply, error) {
	rm, c, err := m.load(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := ownerOrAdmin(r, rm); err != nil {
		return nil, err
	}
	var q model.KRTCRoomsUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	doc, err := roomSettings{q.RoomName, q.MaxJoinMt, q.RoomType, q.Resolution, q.Bitrate, q.Format, q.Frame}.over(rm.doc)
	if err != nil {
		return nil, err
	}
	name := doc.RoomName
	if taken, err := m.nameTaken(ctx, r.Principal.DomainMoid, rm.rec.ID, name); err != nil {
		return nil, err
	} else if taken {
		return nil, wire.Errorf(CodeRoomNameExists, "a room named %q already exists", name)
	}
	if grow := doc.MaxJoinMt - c.Ports(); grow > 0 {
		u, err := m.confs.Usage(ctx)
		if err != nil {
			return nil, err
		}
		if u.Ports+grow > m.confs.Config().MaxPorts {
			return nil, wire.Errorf(wire.CodeNoConfResource, "no idle conference resource: %d more terminal ports are not free (%d of %d in use)",
				grow, u.Ports, m.confs.Config().MaxPorts)
		}
	}
	for {
		setFields(&c, doc)
		err := m.confs.Update(ctx, c)
		if errors.Is(err, store.ErrConflict) {
			if c, err = m.confs.Get(ctx, r.Principal.DomainMoid, c.ID(), engine.StateRunning); err != nil {
				return nil, err
			}
			continue
		}
		if errors.Is(err, store.ErrNotFound) {
			return nil, wire.Errorf(CodeRoomNotFound, "room %s does not exist: its conference has ended", rm.rec.ID)
		}
		if err != nil {
			return nil, err
		}
		break
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	rm.rec.Data, rm.rec.UpdatedAt = data, m.clk.Now()
	if err := m.st.UpdateRecord(ctx, rm.rec, ""); err != nil {
		return nil, err
	}
	return &model.KRTCRoomsUpdateReply{Description: done}, nil
}

// delete ends the room's conference and removes the room.
func (m *Module) delete(ctx context.Context, r *api.Request) (*model.KRTCRoomsDeleteReply, error) {
	rm, c, err := m.load(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := ownerOrAdmin(r, rm); err != nil {
		return nil, err
	}
	err = m.confs.End(ctx, r.Principal.DomainMoid, c.ID())
	if err != nil && !errors.Is(err, engine.ErrConfNotFound) {
		return nil, err
	}
	if err := m.forget(ctx, rm); err != nil {
		return nil, err
	}
	return &model.KRTCRoomsDeleteReply{Description: done}, nil
}
