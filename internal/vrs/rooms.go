package vrs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Recording and playback rooms share their life: a room is a record of
// the user domain (kind "vrs_recroom" or "vrs_playroom", id the roomid
// from the counter of the same name) whose document holds the room's
// configuration under "cfg" and its state beside it. A room is an E.164
// endpoint of the platform: it is put in the terminal directory under its
// roomno (gkstate 1, registered), so a conference that invites the number
// reaches the room, which answers after a second; while a conference has
// it online the room is occupied and shows that conference (recobj,
// playobj, mte164).

const (
	kindRecRoom  = "vrs_recroom"
	kindPlayRoom = "vrs_playroom"

	roomNameMax   = 64
	roomAnswerIn  = time.Second
	badNameChars  = "%&*^~'\"?/\\<>`"
	roomNumberMax = 32
)

type room struct {
	rec store.Record
	doc roomDoc
}

func (rm room) cfg() roomCfg { return rm.doc.Cfg }

func (rm room) id() int { n, _ := strconv.Atoi(rm.rec.ID); return n }

func (rm room) number() string { return rm.doc.Cfg.Roomno }

// roomOfRecord decodes a room's stored document.
func roomOfRecord(rec store.Record) (room, error) {
	rm := room{rec: rec}
	return rm, json.Unmarshal(rec.Data, &rm.doc)
}

// rooms lists a domain's rooms of a kind by id.
func (m *Module) rooms(ctx context.Context, kind, domain string) ([]room, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: kind, DomainMoid: domain})
	if err != nil {
		return nil, err
	}
	out := make([]room, 0, len(recs))
	for _, rec := range recs {
		rm, err := roomOfRecord(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, rm)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].id() < out[j-1].id(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// roomOf reads a room of the caller's domain; A5 24203 when there is none.
func (m *Module) roomOf(ctx context.Context, kind, domain, id string) (room, error) {
	rec, err := m.st.GetRecord(ctx, kind, domain, id)
	if errors.Is(err, store.ErrNotFound) {
		return room{}, wire.Errorf(CodeNoRoom, "room %s does not exist", id)
	}
	if err != nil {
		return room{}, err
	}
	return roomOfRecord(rec)
}

// roomUpdate reads a room, applies change and writes it over the version
// read, retrying when another writer got there first.
func (m *Module) roomUpdate(ctx context.Context, kind, domain, id string, change func(rm *room) error) (room, error) {
	for {
		rm, err := m.roomOf(ctx, kind, domain, id)
		if err != nil {
			return rm, err
		}
		if err := change(&rm); err != nil {
			return rm, err
		}
		rm.rec.Data, _ = json.Marshal(rm.doc)
		rm.rec.UpdatedAt = m.clk.Now()
		err = m.st.SwapRecord(ctx, rm.rec)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return rm, err
	}
}

// roomSent reads the room object of an add or modify of a room of kind
// (the creation's and the modification's room are one type).
func roomSent(r *api.Request, kind string) (roomCfg, error) {
	if kind == kindRecRoom {
		var q model.VRSRecroomCreateRequest
		err := q.Decode(r.Args)
		return recRoomCfg(q.Room), err
	}
	var q model.VRSPlayroomCreateRequest
	err := q.Decode(r.Args)
	return playRoomCfg(q.Room), err
}

// roomConfig checks the room object of an add or modify: a name of at
// most 64 bytes unique among the domain's rooms, an E.164 roomno (digits)
// that no other room or terminal of the platform has (A5 24202).
func (m *Module) roomConfig(ctx context.Context, r *api.Request, self room) (roomCfg, error) {
	cfg, err := roomSent(r, self.rec.Kind)
	if err != nil {
		return cfg, err
	}
	name, no := strings.TrimSpace(cfg.Roomname), strings.TrimSpace(cfg.Roomno)
	switch {
	case name == "":
		return cfg, wire.InvalidParam("room.roomname", "must not be blank")
	case len(name) > roomNameMax:
		return cfg, wire.InvalidParam("room.roomname", fmt.Sprintf("must be at most %d bytes", roomNameMax))
	case no == "" || len(no) > roomNumberMax || strings.Trim(no, "0123456789") != "":
		return cfg, wire.InvalidParam("room.roomno", fmt.Sprintf("must be an E.164 number of 1 to %d digits", roomNumberMax))
	}
	cfg.Roomname, cfg.Roomno = name, no
	domain := r.Principal.DomainMoid
	for _, kind := range []string{kindRecRoom, kindPlayRoom} {
		rs, err := m.rooms(ctx, kind, domain)
		if err != nil {
			return cfg, err
		}
		for _, o := range rs {
			if o.rec.Kind == self.rec.Kind && o.rec.ID == self.rec.ID {
				continue
			}
			if o.doc.Cfg.Roomname == name {
				return cfg, wire.Errorf(CodeRoomExists, "a room named %q exists", name)
			}
		}
	}
	if self.rec.ID == "" || self.number() != no {
		if _, err := m.st.DirectoryEntry(ctx, no); err == nil {
			return cfg, wire.Errorf(CodeRoomExists, "number %s belongs to another room or terminal", no)
		} else if !errors.Is(err, store.ErrNotFound) {
			return cfg, err
		}
	}
	return cfg, nil
}

// roomRegister puts a room's number in the terminal directory.
func (m *Module) roomRegister(ctx context.Context, domain string, cfg roomCfg) error {
	no := cfg.Roomno
	return m.st.PutDirectoryEntry(ctx, store.DirectoryEntry{Account: no, DomainMoid: domain, Alias: cfg.Roomname,
		E164: no, AccountType: 5, MtType: 1, Behaviour: "answer", AnswerAfter: roomAnswerIn})
}

// roomUnregister takes a room's number out of the directory.
func (m *Module) roomUnregister(ctx context.Context, no string) error {
	if err := m.st.DeleteDirectoryEntry(ctx, no); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// roomCreate stores a new room and registers its number; it answers
// the room's id.
func (m *Module) roomCreate(ctx context.Context, r *api.Request, kind string, limit, limitCode int) (int, error) {
	if err := adminOnly(r); err != nil {
		return 0, err
	}
	domain := r.Principal.DomainMoid
	rs, err := m.rooms(ctx, kind, domain)
	if err != nil {
		return 0, err
	}
	if len(rs) >= limit {
		return 0, wire.Errorf(limitCode, "the user domain has %d such rooms, the most it may have", limit)
	}
	cfg, err := m.roomConfig(ctx, r, room{rec: store.Record{Kind: kind}})
	if err != nil {
		return 0, err
	}
	if err := m.roomCheck(ctx, kind, domain, cfg); err != nil {
		return 0, err
	}
	id, err := m.st.NextNumber(ctx, kind, 1, 1<<31-1)
	if err != nil {
		return 0, err
	}
	now := m.clk.Now()
	cfg.Roomid, cfg.Userdomainmoid, cfg.Createtime = int(id), domain, now.Unix()
	data, err := json.Marshal(roomDoc{Cfg: cfg})
	if err != nil {
		return 0, err
	}
	if err := m.st.CreateRecord(ctx, store.Record{Kind: kind, ID: strconv.FormatInt(id, 10), DomainMoid: domain,
		OwnerMoid: r.Principal.AccountMoid, Data: data, CreatedAt: now, UpdatedAt: now}); err != nil {
		return 0, err
	}
	if err := m.roomRegister(ctx, domain, cfg); err != nil {
		return 0, err
	}
	return int(id), nil
}

// roomModify replaces an idle room's configuration (24206 while it records,
// broadcasts or plays) and moves its directory entry when its number changes.
func (m *Module) roomModify(ctx context.Context, r *api.Request, kind string) error {
	if err := adminOnly(r); err != nil {
		return err
	}
	domain := r.Principal.DomainMoid
	old, err := m.roomOf(ctx, kind, domain, r.Path("id"))
	if err != nil {
		return err
	}
	cfg, err := m.roomConfig(ctx, r, old)
	if err != nil {
		return err
	}
	if err := m.roomCheck(ctx, kind, domain, cfg); err != nil {
		return err
	}
	rm, err := m.roomUpdate(ctx, kind, domain, old.rec.ID, func(rm *room) error {
		if roomBusy(*rm) {
			return wire.Errorf(CodeBadState, "room %s is in use and cannot change", rm.rec.ID)
		}
		cfg.Roomid, cfg.Userdomainmoid, cfg.Createtime = rm.doc.Cfg.Roomid, rm.doc.Cfg.Userdomainmoid, rm.doc.Cfg.Createtime
		rm.doc.Cfg = cfg
		return nil
	})
	if err != nil {
		return err
	}
	if old.number() != rm.number() {
		if err := m.roomUnregister(ctx, old.number()); err != nil {
			return err
		}
	}
	return m.roomRegister(ctx, domain, rm.cfg())
}

// roomDelete deletes an idle room (24206 while in use) and its number.
func (m *Module) roomDelete(ctx context.Context, r *api.Request, kind string) error {
	if err := adminOnly(r); err != nil {
		return err
	}
	rm, err := m.roomOf(ctx, kind, r.Principal.DomainMoid, r.Path("id"))
	if err != nil {
		return err
	}
	if roomBusy(rm) {
		return wire.Errorf(CodeBadState, "room %s is in use and cannot be deleted", rm.rec.ID)
	}
	err = m.st.DeleteRecord(ctx, kind, rm.rec.DomainMoid, rm.rec.ID)
	if errors.Is(err, store.ErrNotFound) {
		return wire.Errorf(CodeNoRoom, "room %s does not exist", rm.rec.ID)
	} else if err != nil {
		return err
	}
	return m.roomUnregister(ctx, rm.number())
}

// roomBusy tells whether a room records, broadcasts or plays.
func roomBusy(rm room) bool {
	return rm.doc.Recstate != 0 || rm.doc.Lcaststate != 0 || rm.doc.Playstate != 0
}

// caller is the conference that has a room online, if any.
type caller struct {
	confID, confName string
	bitrate          int
}

// callers maps room numbers to the running conferences of the domain that
// have them online (the terminals of kind "mt" whose account or E.164 is
// the number).
func (m *Module) callers(ctx context.Context, domain string) (map[string]caller, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, DomainMoid: domain, States: []string{engine.StateOnline}})
	if err != nil {
		return nil, err
	}
	out := map[string]caller{}
	type conf struct {
		name    string
		running bool
	}
	confs := map[string]conf{}
	for _, rec := range recs {
		mt, err := engine.DecodeTerminal(rec)
		if err != nil {
			return nil, err
		}
		cf, ok := confs[rec.OwnerMoid]
		if !ok {
			c, err := m.confs.Get(ctx, domain, rec.OwnerMoid, engine.StateRunning)
			if err == nil {
				cf = conf{c.Name(), true}
			}
			confs[rec.OwnerMoid] = cf
		}
		if !cf.running {
			continue
		}
		c := caller{confID: rec.OwnerMoid, confName: cf.name, bitrate: mt.Bitrate()}
		for _, no := range []string{mt.Account(), mt.E164()} {
			if no != "" {
				out[no] = c
			}
		}
	}
	return out, nil
}

// roomList pages through a domain's rooms of a kind, each shown by view;
// roomid names one room and then the other parameters do not apply. It
// returns the page, the count of rooms that passed and the page's id. q
// is the request of either room list (the play room list's has the same
// members).
func roomList[V any](ctx context.Context, m *Module, r *api.Request, q model.VRSRecroomListRequest, kind string, view func(room, map[string]caller) V) ([]V, int, int, error) {
	var rs []room
	var err error
	if domainSelected(q.Userdomainmoid.Value, r.Principal.DomainMoid) {
		if rs, err = m.rooms(ctx, kind, r.Principal.DomainMoid); err != nil {
			return nil, 0, 0, err
		}
	}
	calls, err := m.callers(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, 0, 0, err
	}
	id := q.Roomid.Value
	var views []V
	for _, rm := range rs {
		if (id != 0 && rm.id() != id) || (id == 0 && !includes(q.Includename.Value, rm.doc.Cfg.Roomname)) {
			continue
		}
		views = append(views, view(rm, calls))
	}
	pg := page(q.Prgs1page, q.Pageid)
	if id != 0 {
		pg = paging.Page{Size: max(len(views), 1), ID: 1}
	}
	return paging.Cut(views, pg.Window()), len(views), pg.ID, nil
}

// checkFileName answers A5 24103 when a file name has a character that
// file names must not have.
func checkFileName(field, name string) error {
	if strings.TrimSpace(name) == "" {
		return wire.InvalidParam(field, "must not be blank")
	}
	if strings.ContainsAny(name, badNameChars) {
		return wire.Errorf(CodeBadFileName, "%s %q contains one of %s", field, name, badNameChars)
	}
	return nil
}
