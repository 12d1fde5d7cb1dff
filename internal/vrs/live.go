package vrs

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/live"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
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

func (m *Module) liveList(ctx context.Context, r *api.Request) (wire.Object, error) {
	var lives []map[string]any
	if domainSelected(r) {
		var err error
		if lives, err = m.lives(ctx, r.BaseURL, r.Principal.DomainMoid); err != nil {
			return nil, err
		}
	}
	filter := queryInt(r, "livetype")
	var out []map[string]any
	for _, l := range lives {
		if liveOf(filter, record.Int(l, "livetype")) && includes(r, record.Str(l, "roomname")) {
			out = append(out, l)
		}
	}
	keys := map[int]func(v map[string]any) any{
		1: func(v map[string]any) any { return record.Str(v, "roomname") },
		2: func(v map[string]any) any { return record.Int(v, "createtime") },
		7: func(v map[string]any) any { return record.Int(v, "livestatnum") },
	}
	key, ok := keys[queryInt(r, "orderindex")]
	if !ok {
		key = keys[2]
	}
	desc := ok && queryInt(r, "desc") == 1
	slices.SortStableFunc(out, func(a, b map[string]any) int {
		c := compareAny(key(a), key(b))
		if c == 0 {
			c = cmp.Compare(record.Int(a, "roomid"), record.Int(b, "roomid"))
		}
		if desc {
			return -c
		}
		return c
	})
	pg := page(r)
	return shape.Project(map[string]any{"roomcount": len(out), "pageid": pg.ID, "roomstate": toAny(paging.Cut(out, pg.Window()))}, r.Endpoint.Reply), nil
}

// lives returns the live broadcasts of a domain at now.
func (m *Module) lives(ctx context.Context, base, domain string) ([]map[string]any, error) {
	now := m.clk.Now()
	rooms, err := m.rooms(ctx, kindRecRoom, domain)
	if err != nil {
		return nil, err
	}
	calls, err := m.callers(ctx, domain)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, rm := range rooms {
		if record.Int(rm.doc, "lcaststate") == 0 {
			continue
		}
		cfg := rm.cfg()
		start := time.UnixMilli(int64(record.Int(rm.doc, "live_since_ms")))
		stream, snap := livePaths(start, "room"+rm.rec.ID)
		out = append(out, map[string]any{
			"roomid": rm.id(), "roomidstr": rm.rec.ID, "roomname": cfg["roomname"], "userdomainmoid": domain,
			"prgid": record.Int(rm.doc, "rec_prggid"), "elapse": int(now.Sub(start) / time.Second),
			"lcastpoint": cfg["roomname"], "livestreampath": stream, "livesnapshotpath": snap,
			"mte164": calls[rm.number()].confID, "livestatnum": 0, "createtime": start.Unix(),
			"encmode": 1, "authmode": 1, "prgwatermark": 0, "shorturl": "", "livetype": record.Int(cfg, "livetype"),
		})
	}
	confs, err := m.confs.List(ctx, domain, "", engine.StateRunning)
	if err != nil {
		return nil, err
	}
	for _, c := range confs {
		l, _ := c.Doc["vc_recorders"].([]any)
		for _, v := range l {
			rc, _ := v.(map[string]any)
			if mode := record.Int(rc, "recorder_mode"); mode != 2 && mode != 3 {
				continue
			}
			start := time.UnixMilli(int64(record.Int(rc, "started_at")))
			stream, snap := livePaths(start, "conf"+c.ID())
			id := record.Str(rc, "rec_id")
			n, _ := strconv.Atoi(id)
			viewers := 0
			if m.liveViewers != nil {
				stream, snap, viewers = base+live.Path(domain, c.ID(), id), "", m.liveViewers(c.ID(), id)
			}
			out = append(out, map[string]any{
				"roomid": n, "roomidstr": id, "roomname": record.Str(rc, "video_name"), "userdomainmoid": domain,
				"prgid": 0, "elapse": int(now.Sub(start) / time.Second), "lcastpoint": record.Str(c.Doc, "name"),
				"livestreampath": stream, "livesnapshotpath": snap, "mte164": c.ID(), "livestatnum": viewers,
				"createtime": start.Unix(), "encmode": 1, "authmode": 1, "prgwatermark": record.Int(rc, "watermark"),
				"shorturl": "", "livetype": 0,
			})
		}
	}
	return out, nil
}

// resList pages through the booked conferences that will broadcast.
func (m *Module) resList(ctx context.Context, r *api.Request) (wire.Object, error) {
	var out []any
	if domainSelected(r) {
		confs, err := m.confs.List(ctx, r.Principal.DomainMoid, "", engine.StateBooked)
		if err != nil {
			return nil, err
		}
		for _, c := range confs {
			rec, _ := c.Doc["recorder"].(map[string]any)
			if mode := record.Int(rec, "recorder_mode"); (mode != 2 && mode != 3) || !includes(r, record.Str(c.Doc, "name")) {
				continue
			}
			start := c.StartTime()
			out = append(out, map[string]any{"confname": c.Doc["name"], "starttime": start.Format("2006-01-02 15:04:05"), "encmode": 1})
		}
	}
	pg := page(r)
	return shape.Project(map[string]any{"livecount": len(out), "pageid": pg.ID, "liveinfo": paging.Cut(orEmpty(out), pg.Window())}, r.Endpoint.Reply), nil
}
