package mc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Virtual meeting rooms (seed 001: from 5.2.0.2.0; reference 04 sections
// 21-25): conference settings of the user domain with a permanent number
// (e164) that conferences are created from (create_type 4). Everyone of the
// domain lists and reads them; creating, modifying and deleting is for
// administrators (20005). A room of another domain, or no room, answers
// 99996. Fields of newer releases (enable_rtc, public_conf, multi_stream at
// 6.1.0.4.0) are compatibility rules, not code here.

// Room ids: numeric strings like the reference's example ("9975111").
const roomIDMin, roomIDMax = 8000000, 8999999

// roomWhat names a room in descriptions.
const roomWhat = "virtual meeting room"

// roomList pages through the domain's rooms by last modification (order
// 1: newest first). A stored room is a document of the newest model, so
// it decodes into the list's generated item (with its encrypted_type,
// which decides whether the key is shown).
func (m *Module) roomList(ctx context.Context, r *api.Request) (*model.MCVirtualMeetingRoomsListReply, error) {
	recs, total, err := m.listRecords(ctx, r, record.KindRoom, false)
	if err != nil {
		return nil, err
	}
	inUse, err := m.roomsInUse(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	type listed struct {
		model.MCVirtualMeetingRoomsListReplyVirtualMeetingRoom
		EncryptedType int `json:"encrypted_type"`
	}
	rooms, err := decodeAll[listed](recs)
	if err != nil {
		return nil, err
	}
	out := &model.MCVirtualMeetingRoomsListReply{Total: total, VirtualMeetingRooms: make([]model.MCVirtualMeetingRoomsListReplyVirtualMeetingRoom, len(rooms))}
	for i, x := range rooms {
		v := x.MCVirtualMeetingRoomsListReplyVirtualMeetingRoom
		v.Status, v.ConfName = roomLive(v.ID, v.Status, v.ConfName, inUse)
		if !roomShowsKey(x.EncryptedType) {
			v.EncryptedKey = ""
		}
		out.VirtualMeetingRooms[i] = v
	}
	return out, nil
}

func (m *Module) roomGet(ctx context.Context, r *api.Request) (*model.VirtualMeetingRoom, error) {
	rec, err := m.loadRecord(ctx, r, record.KindRoom, r.Path("id"), false, CodeRoomNotFound, roomWhat)
	if err != nil {
		return nil, err
	}
	out := &model.VirtualMeetingRoom{}
	if err := json.Unmarshal(rec.Data, out); err != nil {
		return nil, err
	}
	inUse, err := m.roomsInUse(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	out.Status, out.ConfName = roomLive(rec.ID, out.Status, out.ConfName, inUse)
	if !roomShowsKey(out.EncryptedType) {
		out.EncryptedKey = ""
	}
	return out, nil
}

// roomCreate stores a new room with an id and a number of the conference
// number range (the reference's rooms carry e164; sharing the counter
// "conf" with conferences and templates keeps the numbers apart). Fields
// not sent are 0 (reference 04: "参数中非必填项默认值为0"), which the
// reply projection supplies.
func (m *Module) roomCreate(ctx context.Context, r *api.Request) (*model.MCVirtualMeetingRoomsCreateReply, error) {
	if err := adminOnly(r, "virtual meeting rooms"); err != nil {
		return nil, err
	}
	var q model.MCVirtualMeetingRoomsUpdateRequest
	if err := roomRequest(r, &q); err != nil {
		return nil, err
	}
	if err := m.roomNameFree(ctx, r.Principal.DomainMoid, q.Name, ""); err != nil {
		return nil, err
	}
	doc := &roomDoc{MCVirtualMeetingRoomsUpdateRequest: q}
	doc.Status = model.Some(0) // a creation has no status; conf_name is ""
	doc.derive()
	cfg := m.confs.Config()
	n, err := m.st.NextNumber(ctx, "conf", cfg.NumberMin, cfg.NumberMax)
	if err != nil {
		return nil, err
	}
	doc.E164 = strconv.FormatInt(n, 10)
	now := m.clk.Now()
	rec := store.Record{Kind: record.KindRoom, DomainMoid: r.Principal.DomainMoid, CreatedAt: now, UpdatedAt: now}
	if rec, err = m.roomInsert(ctx, rec, doc); err != nil {
		return nil, err
	}
	// Two creations with one name at once both pass the check above;
	// whoever then sees a second room of the name withdraws, so that at
	// most one is kept.
	if err := m.roomNameFree(ctx, rec.DomainMoid, doc.Name, rec.ID); err != nil {
		if derr := m.st.DeleteRecord(ctx, rec.Kind, rec.DomainMoid, rec.ID); derr != nil && !errors.Is(derr, store.ErrNotFound) {
			return nil, derr
		}
		return nil, err
	}
	return &model.MCVirtualMeetingRoomsCreateReply{ID: rec.ID, Description: tplDescOK}, nil
}

// roomInsert stores rec with doc under the next free room id; ids still
// taken after the counter wrapped around are skipped, and when none is
// free the answer is 99993 (room count limit).
func (m *Module) roomInsert(ctx context.Context, rec store.Record, doc *roomDoc) (store.Record, error) {
	for try := 0; try < 100; try++ {
		n, err := m.st.NextNumber(ctx, "room", roomIDMin, roomIDMax)
		if err != nil {
			return rec, err
		}
		rec.ID = strconv.FormatInt(n, 10)
		doc.ID = rec.ID
		if rec.Data, err = encodeDoc(doc); err != nil {
			return rec, err
		}
		err = m.st.CreateRecord(ctx, rec)
		if errors.Is(err, store.ErrDuplicate) {
			continue
		}
		return rec, err
	}
	return rec, wire.Errorf(CodeRoomLimit, "no free virtual meeting room id is left")
}

// roomUpdate modifies a room (POST to the item): the fields sent replace
// the stored ones (a nested object as a whole), the others stay, so a
// caller of an older API-Level that cannot send enable_rtc leaves it as it
// was. id and e164 never change.
func (m *Module) roomUpdate(ctx context.Context, r *api.Request) (*model.MCVirtualMeetingRoomsUpdateReply, error) {
	if err := adminOnly(r, "virtual meeting rooms"); err != nil {
		return nil, err
	}
	var q model.MCVirtualMeetingRoomsUpdateRequest
	if err := roomRequest(r, &q); err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		rec, err := m.loadRecord(ctx, r, record.KindRoom, r.Path("id"), false, CodeRoomNotFound, roomWhat)
		if err != nil {
			return nil, err
		}
		var doc roomDoc
		if err := decodeDoc(rec.Data, &doc); err != nil {
			return nil, err
		}
		seen, err := encodeDoc(&doc) // what the type holds of the record
		if err != nil {
			return nil, err
		}
		if err := m.roomNameFree(ctx, rec.DomainMoid, q.Name, rec.ID); err != nil {
			return nil, err
		}
		sentOver(&doc.MCVirtualMeetingRoomsUpdateRequest, &q)
		doc.ID = rec.ID
		doc.derive()
		if rec.Data, err = encodeOver(rec.Data, seen, &doc); err != nil {
			return nil, err
		}
		rec.UpdatedAt = m.clk.Now()
		err = m.st.SwapRecord(ctx, rec)
		switch {
		case errors.Is(err, store.ErrConflict) && try < 10:
			continue // changed meanwhile: apply the change to the new version
		case errors.Is(err, store.ErrNotFound):
			return nil, wire.Errorf(CodeRoomNotFound, "%s %s does not exist", roomWhat, rec.ID)
		case err != nil:
			return nil, err
		}
		return &model.MCVirtualMeetingRoomsUpdateReply{Description: tplDescOK}, nil
	}
}

// roomDelete deletes a room that no running conference uses (99991
// otherwise; the stored status, which a modification may set, does not
// block it).
func (m *Module) roomDelete(ctx context.Context, r *api.Request) (*model.MCVirtualMeetingRoomsDeleteReply, error) {
	if err := adminOnly(r, "virtual meeting rooms"); err != nil {
		return nil, err
	}
	rec, err := m.loadRecord(ctx, r, record.KindRoom, r.Path("id"), false, CodeRoomNotFound, roomWhat)
	if err != nil {
		return nil, err
	}
	inUse, err := m.roomsInUse(ctx, rec.DomainMoid)
	if err != nil {
		return nil, err
	}
	if _, ok := inUse[rec.ID]; ok {
		return nil, wire.Errorf(CodeRoomInUse, "%s %s is in use by a conference", roomWhat, rec.ID)
	}
	if err := m.st.DeleteRecord(ctx, record.KindRoom, rec.DomainMoid, rec.ID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, wire.Errorf(CodeRoomNotFound, "%s %s does not exist", roomWhat, rec.ID)
		}
		return nil, err
	}
	return &model.MCVirtualMeetingRoomsDeleteReply{Description: tplDescOK}, nil
}

// roomRequest reads a room's creation or modification (one request type:
// the modification's, which may also set status) and validates what the
// schema cannot express (reference 04, create and modify virtual meeting
// room): the name's characters and length, and the AES key's (letters,
// digits, _ and ., at most 16 bytes).
func roomRequest(r *api.Request, q *model.MCVirtualMeetingRoomsUpdateRequest) error {
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	if err := tplCheckName(q.Name); err != nil {
		return err
	}
	if v, ok := q.EncryptedKey.Get(); ok {
		if err := tplCheckSecret("encrypted_key", v, 16); err != nil {
			return err
		}
	}
	return nil
}

// roomNameFree answers 99995 when another room of the domain (not self)
// has the name.
func (m *Module) roomNameFree(ctx context.Context, domain string, name string, self string) error {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindRoom, DomainMoid: domain})
	if err != nil {
		return err
	}
	if taken, err := nameTaken(recs, self, name); err != nil || !taken {
		return err
	}
	return wire.Errorf(CodeRoomNameExists, "a virtual meeting room named %q already exists", fmt.Sprint(name))
}

// roomsInUse maps the ids of the domain's rooms that a running conference
// was created from (create_type 4, template_id the room; reference 04
// "创建会议") to that conference's name.
func (m *Module) roomsInUse(ctx context.Context, domain string) (map[string]string, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, DomainMoid: domain,
		States: []string{engine.StateRunning}})
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, rec := range recs {
		d, err := shape.Decode(rec.Data)
		if err != nil {
			return nil, err
		}
		if fmt.Sprint(d["create_type"]) == "4" && d["template_id"] != nil {
			name, _ := d["name"].(string)
			out[fmt.Sprint(d["template_id"])] = name
		}
	}
	return out, nil
}

// roomLive is a room's status and conf_name: those of the conference
// that uses the room, if one runs, else the stored ones.
func roomLive(id string, status int, confName string, inUse map[string]string) (int, string) {
	if name, ok := inUse[id]; ok {
		return 1, name
	}
	return status, confName
}

// roomShowsKey tells whether a reply shows a room's encrypted_key: only
// when its encryption is AES (reference 04: "传输加密AES加密密钥,仅AES加密时返回").
func roomShowsKey(encryptedType int) bool { return encryptedType == 2 }
