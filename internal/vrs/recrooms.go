package vrs

import (
	"context"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
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

func (m *Module) recRoomCreate(ctx context.Context, r *api.Request) (wire.Object, error) {
	return m.roomCreate(ctx, r, kindRecRoom, MaxRecRooms, CodeRecRoomLimit, map[string]any{"recstate": 0, "lcaststate": 0})
}

// roomCheck checks the kind-specific configuration of a room.
func (m *Module) roomCheck(ctx context.Context, kind, domain string, cfg map[string]any) error {
	if kind == kindRecRoom {
		return checkFileName("room.preprgname", paramStr(cfg, "preprgname"))
	}
	return m.playRoomCheck(ctx, domain, cfg)
}

// recRoomAction runs a state change of a room of the caller's domain,
// which only an administrator makes.
func (m *Module) recRoomAction(act func(ctx context.Context, r *api.Request, rm room, calls map[string]caller) error) func(context.Context, *api.Request) (wire.Object, error) {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) {
		if err := adminOnly(r); err != nil {
			return nil, err
		}
		rm, err := m.roomOf(ctx, kindRecRoom, r.Principal.DomainMoid, r.Path("id"))
		if err != nil {
			return nil, err
		}
		calls, err := m.callers(ctx, r.Principal.DomainMoid)
		if err != nil {
			return nil, err
		}
		return nil, act(ctx, r, rm, calls)
	}
}

// setRoom writes a room's state fields when the room is still in the
// state it was read in (24206 when it changed meanwhile).
func (m *Module) setRoom(ctx context.Context, rm room, field string, was int, set map[string]any) error {
	_, err := m.roomUpdate(ctx, rm.rec.Kind, rm.rec.DomainMoid, rm.rec.ID, func(cur *room) error {
		if record.Int(cur.doc, field) != was {
			return wire.Errorf(CodeBadState, "room %s changed meanwhile", rm.rec.ID)
		}
		for k, v := range set {
			cur.doc[k] = v
		}
		return nil
	})
	return err
}

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
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			return 0, 0, err
		}
		if record.Int(doc, "recstate") != recIdle {
			recs++
		}
		lives += record.Int(doc, "lcaststate")
	}
	confs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, States: []string{engine.StateRunning}})
	if err != nil {
		return 0, 0, err
	}
	for _, rec := range confs {
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			return 0, 0, err
		}
		l, _ := doc["vc_recorders"].([]any)
		for _, v := range l {
			rc, _ := v.(map[string]any)
			switch record.Int(rc, "recorder_mode") {
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
	case record.Int(cfg, "roomtype") == roomLiveOnly:
		return badState(rm, "broadcasts live only and does not record")
	case record.Int(rm.doc, "recstate") != recIdle:
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
		bitrate = record.Int(cfg, "confrate")
	}
	suffix := "asf"
	if record.Int(cfg, "prgtype") == 2 {
		suffix = "wmv"
	}
	domain := rm.rec.DomainMoid
	p, err := program.Start(ctx, m.st, now, program.Spec{
		DomainMoid: domain, OwnerMoid: r.Principal.AccountMoid, Alias: program.Alias(record.Str(cfg, "preprgname"), now),
		Bitrate: bitrate, Suffix: suffix, Publish: record.Int(cfg, "bpublish") == 1,
		Live: record.Int(rm.doc, "lcaststate") == 1, VRSMoid: ServerID(domain), Source: "recroom",
		Extra: map[string]any{"roomid": rm.id(), "conf_id": call.confID, "conf_name": call.confName},
	})
	if err != nil {
		return err
	}
	err = m.setRoom(ctx, rm, "recstate", recIdle, map[string]any{"recstate": recOn, "rec_prggid": p.GID(), "rec_since_ms": now.UnixMilli()})
	if err != nil { // another request started it first: drop the program just made
		_ = program.Delete(ctx, m.st, domain, p.GID())
	}
	return err
}

// recProgram applies change to the program a room records.
func (m *Module) recProgram(ctx context.Context, rm room, change func(p *program.Program, now time.Time)) error {
	now := m.clk.Now()
	_, err := program.Update(ctx, m.st, now, rm.rec.DomainMoid, record.Int(rm.doc, "rec_prggid"), func(p *program.Program) error {
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
	state := record.Int(rm.doc, "recstate")
	if state == recIdle {
		return badState(rm, "is not recording")
	}
	if err := m.setRoom(ctx, rm, "recstate", state, map[string]any{"recstate": recIdle, "rec_prggid": 0, "rec_since_ms": 0}); err != nil {
		return err
	}
	return m.recProgram(ctx, rm, program.Finish)
}

func (m *Module) pauseRec(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	if record.Int(rm.doc, "recstate") != recOn {
		return badState(rm, "is not recording")
	}
	if err := m.setRoom(ctx, rm, "recstate", recOn, map[string]any{"recstate": recPaused}); err != nil {
		return err
	}
	return m.recProgram(ctx, rm, program.Pause)
}

func (m *Module) resumeRec(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	if record.Int(rm.doc, "recstate") != recPaused {
		return badState(rm, "is not paused")
	}
	if err := m.setRoom(ctx, rm, "recstate", recPaused, map[string]any{"recstate": recOn}); err != nil {
		return err
	}
	return m.recProgram(ctx, rm, program.Resume)
}

func (m *Module) startLive(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	switch {
	case record.Int(rm.cfg(), "roomtype") == roomRecordOnly:
		return badState(rm, "records only and does not broadcast live")
	case record.Int(rm.doc, "lcaststate") != 0:
		return badState(rm, "is live already")
	}
	_, lives, err := m.running(ctx)
	if err != nil {
		return err
	}
	if lives >= MaxLives {
		return wire.Errorf(CodeNoLiveResource, "%d live broadcasts run, the most the recording system takes", MaxLives)
	}
	if err := m.setRoom(ctx, rm, "lcaststate", 0, map[string]any{"lcaststate": 1, "live_since_ms": m.clk.Now().UnixMilli()}); err != nil {
		return err
	}
	return m.setLive(ctx, rm, 1)
}

func (m *Module) stopLive(ctx context.Context, r *api.Request, rm room, _ map[string]caller) error {
	if record.Int(rm.doc, "lcaststate") == 0 {
		return badState(rm, "is not live")
	}
	if err := m.setRoom(ctx, rm, "lcaststate", 1, map[string]any{"lcaststate": 0, "live_since_ms": 0}); err != nil {
		return err
	}
	return m.setLive(ctx, rm, 0)
}

// setLive marks the program the room records as broadcast live or not.
func (m *Module) setLive(ctx context.Context, rm room, on int) error {
	if record.Int(rm.doc, "recstate") == recIdle {
		return nil
	}
	return m.recProgram(ctx, rm, func(p *program.Program, _ time.Time) { p.Doc["live"] = on })
}

// recRoomList shows the rooms with their state at now.
func (m *Module) recRoomList(ctx context.Context, r *api.Request) (wire.Object, error) {
	now := m.clk.Now()
	return m.roomList(ctx, r, kindRecRoom, func(rm room, calls map[string]caller) map[string]any {
		return m.recRoomView(ctx, rm, calls[rm.number()], now)
	})
}

func (m *Module) recRoomView(ctx context.Context, rm room, call caller, now time.Time) map[string]any {
	cfg, doc := rm.cfg(), rm.doc
	recstate, live := record.Int(doc, "recstate"), record.Int(doc, "lcaststate")
	busy := recstate != recIdle || live != 0 || call.confID != ""
	v := map[string]any{
		"roomcfg": cfg, "roomstate": boolInt(busy), "recstate": recstate, "lcaststate": live, "gkstate": 1, "sipstate": 0,
		"recobj": call.confName, "mte164": call.confID, "encmode": boolInt(busy), "authmode": boolInt(busy), "detail": []any{},
	}
	if recstate != recIdle {
		v["recelapse"] = since(record.Int(doc, "rec_since_ms"), now)
		if p, err := program.Get(ctx, m.st, rm.rec.DomainMoid, record.Int(doc, "rec_prggid")); err == nil {
			v["prgname"] = p.Alias() + "." + record.Str(p.Doc, "suffix")
		}
	}
	if live != 0 {
		start := int64(record.Int(doc, "live_since_ms"))
		v["lcastelapse"] = since(int(start), now)
		if record.Int(cfg, "roomtype") == roomLiveOnly {
			v["recelapse"] = v["lcastelapse"]
		}
		v["lcastname"] = record.Str(cfg, "roomname")
		v["livestarttime"] = start / 1000
		v["livestreampath"], v["livesnapshotpath"] = livePaths(time.UnixMilli(start), "room"+rm.rec.ID)
	}
	if busy {
		v["detail"] = []any{videoDetail(cfg)}
	}
	return v
}

// videoDetail is the video a room works with: its custom format (vtype 1)
// or the automatic one, H.264 1080p at 30 frames.
func videoDetail(cfg map[string]any) map[string]any {
	if record.Int(cfg, "vtype") == 1 {
		return map[string]any{"vformat": cfg["vformat"], "vwidth": cfg["vwidth"], "vheight": cfg["vheight"], "vframe": cfg["vframe"]}
	}
	return map[string]any{"vformat": 106, "vwidth": 1920, "vheight": 1080, "vframe": 30}
}

// livePaths are the stream description file and snapshot of a live
// broadcast (reference 09 "获取直播室列表": livestreampath,
// livesnapshotpath), under the folder of its start day.
func livePaths(start time.Time, name string) (string, string) {
	dir := "hlsfile/" + start.UTC().Format("2006/01/02") + "/" + start.UTC().Format("20060102150405") + "_" + name
	return "/" + dir + "/Readme.json", dir + "/snapshot.jpeg"
}

// since is the whole seconds from a UNIX ms time to now.
func since(ms int, now time.Time) int {
	if ms == 0 {
		return 0
	}
	return int(now.Sub(time.UnixMilli(int64(ms))) / time.Second)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
