package mc

import (
	"context"
	"slices"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// Booked (scheduled) conferences of the caller's domain (reference 04
// "获取预约会议列表", "获取预约会议信息"). A conference leaves them when it
// starts.

// listBooked lists the booked conferences whose slot meets the window
// [start_time, end_time] of the query (start_time defaults to now, no
// end_time means no limit; a permanent conference's slot never ends),
// ordered by start time (order 1: latest first), paged by start and count.
func (m *Module) listBooked(ctx context.Context, r *api.Request) (*model.MCBookedConfsListReply, error) {
	from, until, err := bookedWindow(r, m.clk.Now())
	if err != nil {
		return nil, err
	}
	all, err := engine.ListAs(ctx, m.confs, r.Principal.DomainMoid, "", engine.StateBooked, bookedItemStart)
	if err != nil {
		return nil, err
	}
	var in []engine.Read[bookedItem]
	for _, b := range all {
		end, _ := record.ParseTime(b.Doc.EndTime)
		if (end.IsZero() || end.After(from)) && (until.IsZero() || !b.Start.After(until)) {
			in = append(in, b)
		}
	}
	w, _ := listPage(r)
	if r.Args.Query.Get("order") == "1" {
		slices.Reverse(in)
	}
	reply := &model.MCBookedConfsListReply{Total: len(in)}
	for _, b := range paging.Cut(in, w) {
		reply.BookedConfs = append(reply.BookedConfs, b.Doc)
	}
	return reply, nil
}

// bookedItem is a booked conference as the list shows it: its stored
// document read into the reply's item (engine.ListAs).
type bookedItem = model.MCBookedConfsListReplyBookedConf

func bookedItemStart(it *bookedItem) string { return it.StartTime }

// bookedWindow reads the start_time and end_time filters.
func bookedWindow(r *api.Request, now time.Time) (from, until time.Time, err error) {
	from = now
	if s := r.Args.Query.Get("start_time"); s != "" {
		if from, err = record.ParseTime(s); err != nil {
			return from, until, wire.InvalidParam("start_time", "must be a time such as 2026-03-01T10:00:00+08:00 or 2026-03-01 10:00:00")
		}
	}
	if s := r.Args.Query.Get("end_time"); s != "" {
		if until, err = record.ParseTime(s); err != nil {
			return from, until, wire.InvalidParam("end_time", "must be a time such as 2026-03-01T12:00:00+08:00 or 2026-03-01 12:00:00")
		}
	}
	return from, until, nil
}

// getBooked shows one booked conference of the caller's domain; 12103 for
// any other (including one that has started). Its reply echoes the stored
// conference document projected with the reply's schema, as vc's getConf
// does for a running one: the stored members keep the form they were
// stored in (a creation's parameter as sent), which the generated reply's
// fixed member types cannot hold, so this reply stays a wire object until
// the engine holds the conference document as a model.Conference.
func (m *Module) getBooked(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, err := m.confs.Get(ctx, r.Principal.DomainMoid, r.Path("conf_id"), engine.StateBooked)
	if err != nil {
		return nil, err
	}
	return shape.Project(c.Document(), r.Endpoint.Reply), nil
}
