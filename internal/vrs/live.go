package vrs

import (
	"cmp"
	"context"
	"github.com/confer-platform/confer/internal/model"
	"slices"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/live"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
)

// Live rooms and reserved live rooms (reference 09 "获取直播室列表",
// "获取预约直播室列表"). The live rooms are the live broadcasts running now:
// the recording rooms that are live (roomid the room's, prgid the program
// they record, 0 for a live-only room) and the conferences whose vc
// recorder broadcasts (recorder_mode 2 or 3; roomid the rec_id, mte164 the
// conference number). Their live type is the room's livetype (0 HTML5, 1
// ASF, 2 both; a vc broadcast is HTML5); the livetype filter keeps the
// lives of that type (2: every live). The reserved live rooms are the
// booked conferences of the domain whose recorder is set to broadcast
// (recorder.recorder_mode 2 or 3).
//
// With real media (SetLive; docs/live.md "Live broadcasts") a vc
// broadcast's livestreampath is the address of its descriptor (the
// reference's "直播源描述文件"; internal/live): JSON with the WHEP link and,
// with ffmpeg, the HLS playlist; livestatnum counts its WHEP viewers on
// this node; livesnapshotpath stays empty (Confer decodes no video).

// SetLive gives the live rooms the viewers of vc broadcasts.
func (m *Module) SetLive(viewers func(confID, recID string) int) { m.liveViewers = viewers }

// liveOf tells whether a live of type t passes the livetype filter f.
func liveOf(f, t int) bool { return f == 2 || t == 2 || f == t }

func (m *Module) liveList(ctx context.Context, r *api.Request) (*model.VRSLiveroomListReply, error) {
	var q model.VRSLiveroomListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		return nil, err
	}
	var lives []liveView
	if domainSelected(q.Userdomainmoid.Value, r.Principal.DomainMoid) {
		var err error
		if lives, err = m.lives(ctx, r.BaseURL, r.Principal.DomainMoid); err != nil {
			return nil, err
		}
	}
	filter := q.Livetype.Value
	var out []liveView
	for _, l := range lives {
		if liveOf(filter, l.livetype) && includes(q.Includename.Value, l.Roomname) {
			out = append(out, l)
		}
	}
	keys := map[int]func(v *liveView) any{
		1: func(v *liveView) any { return v.Roomname },
		2: func(v *liveView) any { return v.Createtime },
		7: func(v *liveView) any { return v.Livestatnum },
	}
	key, ok := keys[q.Orderindex.Value]
	if !ok {
		key = keys[2]
	}
	desc := ok && q.Desc.Value == 1
	slices.SortStableFunc(out, func(a, b liveView) int {
		c := compareAny(key(&a), key(&b))
		if c == 0 {
			c = cmp.Compare(a.Roomid, b.Roomid)
		}
		if desc {
			return -c
		}
		return c
	})
	pg := page(q.Prgs1page, q.Pageid)
	reply := model.VRSLiveroomListReply{Roomcount: len(out), Pageid: pg.ID}
	for _, l := range paging.Cut(out, pg.Window()) {
		reply.Roomstate = append(reply.Roomstate, l.VRSLiveroomListReplyRoomstateItem)
	}
	return &reply, nil
}

// liveView is a live room with its live type (the livetype filter).
type liveView struct {
	model.VRSLiveroomListReplyRoomstateItem
	livetype int
}

// lives returns the live broadcasts of a domain at now.
func (m *Module) lives(ctx context.Context, base, domain string) ([]liveView, error) {
	now := m.clk.Now()
	rooms, err := m.rooms(ctx, kindRecRoom, domain)
	if err != nil {
		return nil, err
	}
	calls, err := m.callers(ctx, domain)
	if err != nil {
		return nil, err
	}
	var out []liveView
	for _, rm := range rooms {
		if rm.doc.Lcaststate == 0 {
			continue
		}
		cfg := rm.cfg()
		start := time.UnixMilli(rm.doc.LiveSinceMs)
		stream, snap := livePaths(start, "room"+rm.rec.ID)
		out = append(out, liveView{model.VRSLiveroomListReplyRoomstateItem{
			Roomid: rm.id(), Roomidstr: rm.rec.ID, Roomname: cfg.Roomname, Userdomainmoid: domain,
			Prgid: rm.doc.RecPrggid, Elapse: int(now.Sub(start) / time.Second),
			Lcastpoint: cfg.Roomname, Livestreampath: stream, Livesnapshotpath: snap,
			Mte164: calls[rm.number()].confID, Createtime: int(start.Unix()), Encmode: 1, Authmode: 1,
		}, cfg.Livetype})
	}
	confs, err := m.confs.List(ctx, domain, "", engine.StateRunning)
	if err != nil {
		return nil, err
	}
	for _, c := range confs {
		for _, rc := range c.Recorders { // vc's running recordings (engine.Recording)
			if mode := rc.RecorderMode; mode != 2 && mode != 3 {
				continue
			}
			start := time.UnixMilli(rc.StartedAt)
			stream, snap := livePaths(start, "conf"+c.ID())
			id := rc.RecID
			n, _ := strconv.Atoi(id)
			viewers := 0
			if m.liveViewers != nil {
				stream, snap, viewers = base+live.Path(domain, c.ID(), id), "", m.liveViewers(c.ID(), id)
			}
			out = append(out, liveView{VRSLiveroomListReplyRoomstateItem: model.VRSLiveroomListReplyRoomstateItem{
				Roomid: n, Roomidstr: id, Roomname: rc.VideoName, Userdomainmoid: domain,
				Elapse: int(now.Sub(start) / time.Second), Lcastpoint: c.Name(),
				Livestreampath: stream, Livesnapshotpath: snap, Mte164: c.ID(), Livestatnum: viewers,
				Createtime: int(start.Unix()), Encmode: 1, Authmode: 1, Prgwatermark: rc.Watermark,
			}})
		}
	}
	return out, nil
}

// resList pages through the booked conferences that will broadcast.
func (m *Module) resList(ctx context.Context, r *api.Request) (*model.VRSResroomListReply, error) {
	var q model.VRSResroomListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		return nil, err
	}
	var out []model.VRSResroomListReplyLiveinfoItem
	if domainSelected(q.Userdomainmoid.Value, r.Principal.DomainMoid) {
		confs, err := m.confs.List(ctx, r.Principal.DomainMoid, "", engine.StateBooked)
		if err != nil {
			return nil, err
		}
		for _, c := range confs {
			var rec struct {
				RecorderMode record.Integer `json:"recorder_mode"` // 2, 3: the recording is broadcast
			}
			c.Member("recorder", &rec) // absent or of another form: 0
			if mode := rec.RecorderMode; (mode != 2 && mode != 3) || !includes(q.Includename.Value, c.Name()) {
				continue
			}
			start := c.StartTime()
			out = append(out, model.VRSResroomListReplyLiveinfoItem{Confname: c.Name(), Starttime: start.Format("2006-01-02 15:04:05"), Encmode: 1})
		}
	}
	pg := page(q.Prgs1page, q.Pageid)
	reply := model.VRSResroomListReply{Livecount: len(out), Pageid: pg.ID, Liveinfo: paging.Cut(out, pg.Window())}
	return &reply, nil
}
