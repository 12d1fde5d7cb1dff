package vrs

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/vrs/program"
	"github.com/confer-platform/confer/internal/wire"
)

// Recording rooms (reference 09 "获取录像室列表" to "录像室停止直播").
// roomtype 0 records, 1 broadcasts live, 2 does both. Starting a
// recording starts a program (internal/vrs/program) named after
// preprgname and the start time, at the bit rate of the conference that
// has the room online (else confrate, else 2048 kbit/s); pausing and
// resuming pause and resume its length, stopping finishes it (published
// when bpublish is 1). A live broadcast is listed among the live rooms
// while it runs. The room's state beside cfg:
//
//	recstate     0 idle, 1 recording, 2 paused; rec_prggid the program, rec_since_ms its start
//	lcaststate   0 or 1 live; live_since_ms the start of the live

// Room types and recording states (reference 09).
const (
	roomRecordOnly = 0
	roomLiveOnly   = 1
	recIdle        = 0
	recOn          = 1
	recPaused      = 2
)

func (m *Module) recRoomCreate(ctx context.Context, r *api.Request) (*model.VRSRecroomCreateReply, error) {
	id, err := m.roomCreate(ctx, r, kindRecRoom, MaxRecRooms, CodeRecRoomLimit)
	if err != nil {
		return nil, err
	}
	return &model.VRSRecroomCreateReply{Roomid: id}, nil
}

// roomCheck checks the kind-specific configuration of a room.
func (m *Module) roomCheck(ctx context.Context, kind, domain string, cfg roomCfg) error {
	if kind == kindRecRoom {
		return checkFileName("room.preprgname", cfg.Preprgname)
	}
	return m.playRoomCheck(ctx, domain, cfg)
}

// recRoomAction runs a state change of a room of the caller's domain,
// which only an administrator makes.
func (m *Module) recRoomAction(act func(ctx context.Context, r *api.Request, rm room, calls map[string]caller) error) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error {
		if err := adminOnly(r); err != nil {
			return err
		}
		rm, err := m.roomOf(ctx, kindRecRoom, r.Principal.DomainMoid, r.Path("id"))
		if err != nil {
			return err
		}
		calls, err := m.callers(ctx, r.Principal.DomainMoid)
		if err != nil {
			return err
		}
		return act(ctx, r, rm, calls)
	})
}

// setRoom changes a room's state with set when the state that state
// reads is still the one it was read in, was (24206 when it changed
// meanwhile).
func (m *Module) setRoom(ctx context.Context, rm room, state func(*roomDoc) *int, was int, set func(*roomDoc)) error {
	_, err := m.roomUpdate(ctx, rm.rec.Kind, rm.rec.DomainMoid, rm.rec.ID, func(cur *room) error {
		if *state(&cur.doc) != was {
			return wire.Errorf(CodeBadState, "room %s changed meanwhile", rm.rec.ID)
		}
		set(&cur.doc)
		return nil
	})
	return err
}

// recState and liveState are the state members setRoom checks.
func recState(d *roomDoc) *int  { return &d.Recstate }
func liveState(d *roomDoc) *int { return &d.Lcaststate }

func badState(rm room, what string) error {
	return wire.Errorf(CodeBadState, "recording room %s %s", rm.rec.ID, what)
}

// running counts the recordings and live broadcasts of the platform:
// the rooms' and vc's (the recorders of the running conferences, kept by
// internal/vc under vc_recorders; recorder_mode 1 records, 2 broadcasts,
// 3 does both).
func (m *Module) running(ctx context.Context) (recs, lives int, err error) {
	rooms, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: kindRecRoom})
	if err != nil {
		return 0, 0, err
	}
	for _, rec := range rooms {
		rm, err := roomOfRecord(rec)
		if err != nil {
			return 0, 0, err
		}
		if rm.doc.Recstate != recIdle {
			recs++
		}
		lives += rm.doc.Lcaststate
	}
	confs, err := m.confs.List(ctx, "", "", engine.StateRunning) // every domain's
	if err != nil {
		return 0, 0, err
	}
	for _, c := range confs {
		for _, rc := range c.Recorders {
			switch rc.RecorderMode {
			case 1:
				recs++
			case 2:
				lives++
			case 3:
				recs++
				lives++
			}
		}
	}
	return recs, lives, nil
}

func (m *Module) startRec(ctx context.Context, r *api.Request, rm room, calls map[string]caller) error {
	cfg := rm.cfg()
	switch {
	case cfg.Roomtype == roomLiveOnly:
		return badState(rm, "broadcasts live only and does not record")
	case rm.doc.Recstate != recIdle:
		return badState(rm, "is recording already")
	}
	recs, _, err := m.running(ctx)
	if err != nil {
		return err
	}
	if recs >= MaxRecordings {
		return wire.Errorf(CodeNoRecResource, "%d recordings run, the most the recording system takes", MaxRecordings)
	}
	now := m.clk.Now()
	call := calls[rm.number()]
	bitrate := call.bitrate
	if bitrate == 0 {
		bitrate = cfg.Confrate
	}
	suffix := "asf"
	if cfg.Prgtype == 2 {
		suffix = "wmv"
	}
	domain := rm.rec.DomainMoid
	p, err := program.Start(ctx, m.st, now, program.Spec{
		DomainMoid: domain, OwnerMoid: r.Principal.AccountMoid, Alias: program.Alias(cfg.Preprgname, now),
		Bitrate: bitrate, Suffix: suffix, Publish: cfg.Bpublish == 1,
		Live: rm.doc.Lcaststate == 1, VRSMoid: ServerID(domain), Source: "recroom",
		Room: &program.RoomSource{RoomID: rm.id(), ConfID: call.confID, ConfName: call.confName},
	})
	if err != nil {
		return err
	}
	err = m.setRoom(ctx, rm, recState, recIdle, func(d *roomDoc) {
		d.Recstate, d.RecPrggid, d.RecSinceMs = recOn, p.GID(), now.UnixMilli()
	})
	if err != nil { // another request started it first: drop the program just made
		_ = program.Delete(ctx, m.st, domain, p.GID())
	}
	return err
}

// recProgram applies change to the program a room records.
func (m *Module) recProgram(ctx context.Context, rm room, change func(p *program.Program, now time.Time)) error {
	now := m.clk.Now()
	_, err := program.Update(ctx, m.st, now, rm.rec.DomainMoid, rm.doc.RecPrggid, func(p *program.Program) error {
		if p.Recording() {
			change(p, now)
		}
		return nil
	})
	if errors.Is(err, program.ErrNotFound) { // deleted meanwhile: the room just stops
		return nil
	}
	return err
}

func (m *Module) stopRec(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	state := rm.doc.Recstate
	if state == recIdle {
		return badState(rm, "is not recording")
	}
	if err := m.setRoom(ctx, rm, recState, state, func(d *roomDoc) { d.Recstate, d.RecPrggid, d.RecSinceMs = recIdle, 0, 0 }); err != nil {
		return err
	}
	return m.recProgram(ctx, rm, program.Finish)
}

func (m *Module) pauseRec(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	if rm.doc.Recstate != recOn {
		return badState(rm, "is not recording")
	}
	if err := m.setRoom(ctx, rm, recState, recOn, func(d *roomDoc) { d.Recstate = recPaused }); err != nil {
		return err
	}
	return m.recProgram(ctx, rm, program.Pause)
}

func (m *Module) resumeRec(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	if rm.doc.Recstate != recPaused {
		return badState(rm, "is not paused")
	}
	if err := m.setRoom(ctx, rm, recState, recPaused, func(d *roomDoc) { d.Recstate = recOn }); err != nil {
		return err
	}
	return m.recProgram(ctx, rm, program.Resume)
}

func (m *Module) startLive(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	switch {
	case rm.doc.Cfg.Roomtype == roomRecordOnly:
		return badState(rm, "records only and does not broadcast live")
	case rm.doc.Lcaststate != 0:
		return badState(rm, "is live already")
	}
	_, lives, err := m.running(ctx)
	if err != nil {
		return err
	}
	if lives >= MaxLives {
		return wire.Errorf(CodeNoLiveResource, "%d live broadcasts run, the most the recording system takes", MaxLives)
	}
	now := m.clk.Now()
	if err := m.setRoom(ctx, rm, liveState, 0, func(d *roomDoc) { d.Lcaststate, d.LiveSinceMs = 1, now.UnixMilli() }); err != nil {
		return err
	}
	return m.setLive(ctx, rm, 1)
}

func (m *Module) stopLive(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	if rm.doc.Lcaststate == 0 {
		return badState(rm, "is not live")
	}
	if err := m.setRoom(ctx, rm, liveState, 1, func(d *roomDoc) { d.Lcaststate, d.LiveSinceMs = 0, 0 }); err != nil {
		return err
	}
	return m.setLive(ctx, rm, 0)
}

// setLive marks the program the room records as broadcast live or not.
func (m *Module) setLive(ctx context.Context, rm room, on int) error {
	if rm.doc.Recstate == recIdle {
		return nil
	}
	return m.recProgram(ctx, rm, func(p *program.Program, _ time.Time) { program.SetLive(p, on) })
}

// recRoomList shows the rooms with their state at now.
func (m *Module) recRoomList(ctx context.Context, r *api.Request) (*model.VRSRecroomListReply, error) {
	var q model.VRSRecroomListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		return nil, err
	}
	now := m.clk.Now()
	rooms, count, pageID, err := roomList(ctx, m, r, q, kindRecRoom, func(rm room, calls map[string]caller) model.VRSRecroomListReplyRoomstateItem {
		return m.recRoomView(ctx, rm, calls[rm.number()], now)
	})
	if err != nil {
		return nil, err
	}
	reply := model.VRSRecroomListReply{Roomcount: count, Pageid: pageID, Roomstate: rooms}
	return &reply, nil
}

func (m *Module) recRoomView(ctx context.Context, rm room, call caller, now time.Time) model.VRSRecroomListReplyRoomstateItem {
	cfg, doc := rm.cfg(), rm.doc
	recstate, live := doc.Recstate, doc.Lcaststate
	busy := recstate != recIdle || live != 0 || call.confID != ""
	v := model.VRSRecroomListReplyRoomstateItem{
		Roomcfg: cfg.recView(), Roomstate: boolInt(busy), Recstate: recstate, Lcaststate: live, Gkstate: 1, Sipstate: 0,
		Recobj: call.confName, Mte164: call.confID, Encmode: boolInt(busy), Authmode: boolInt(busy),
	}
	if recstate != recIdle {
		v.Recelapse = since(doc.RecSinceMs, now)
		if p, err := program.Get(ctx, m.st, rm.rec.DomainMoid, doc.RecPrggid); err == nil {
			v.Prgname = p.Alias() + "." + p.Suffix()
		}
	}
	if live != 0 {
		start := doc.LiveSinceMs
		v.Lcastelapse = since(start, now)
		if cfg.Roomtype == roomLiveOnly {
			v.Recelapse = v.Lcastelapse
		}
		v.Lcastname = cfg.Roomname
		v.Livestarttime = int(start / 1000)
		v.Livestreampath, v.Livesnapshotpath = livePaths(time.UnixMilli(start), "room"+rm.rec.ID)
	}
	if busy {
		v.Detail = []model.VRSRecroomListReplyRoomstateItemDetailItem{videoDetail(cfg)}
	}
	return v
}

// videoDetail is the video a room works with: its custom format (vtype 1)
// or the automatic one, H.264 1080p at 30 frames.
func videoDetail(cfg roomCfg) model.VRSRecroomListReplyRoomstateItemDetailItem {
	if cfg.Vtype == 1 {
		return model.VRSRecroomListReplyRoomstateItemDetailItem{Vformat: cfg.Vformat, Vwidth: cfg.Vwidth, Vheight: cfg.Vheight, Vframe: cfg.Vframe}
	}
	return model.VRSRecroomListReplyRoomstateItemDetailItem{Vformat: 106, Vwidth: 1920, Vheight: 1080, Vframe: 30}
}

// livePaths are the stream description file and snapshot of a live
// broadcast (reference 09 "获取直播室列表": livestreampath,
// livesnapshotpath), under the folder of its start day.
func livePaths(start time.Time, name string) (string, string) {
	dir := "hlsfile/" + start.UTC().Format("2006/01/02") + "/" + start.UTC().Format("20060102150405") + "_" + name
	return "/" + dir + "/Readme.json", dir + "/snapshot.jpeg"
}

// since is the whole seconds from a UNIX ms time to now.
func since(ms int64, now time.Time) int {
	if ms == 0 {
		return 0
	}
	return int(now.Sub(time.UnixMilli(ms)) / time.Second)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
