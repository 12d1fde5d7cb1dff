package mc

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Booked (scheduled) conferences of the caller's domain (reference 04
// "获取预约会议列表", "获取预约会议信息"). A conference leaves them when it
// starts.

// listBooked lists the booked conferences whose slot meets the window
// [start_time, end_time] of the query (start_time defaults to now, no
// end_time means no limit; a permanent conference's slot never ends),
// ordered by start time (order 1: latest first), paged by start and count.
func (m *Module) listBooked(ctx context.Context, r *api.Request) (wire.Object, error) {
	from, until, err := bookedWindow(r, m.clk.Now())
	if err != nil {
		return nil, err
	}
	recs, err := m.confs.Records(ctx, r.Principal.DomainMoid, "", engine.StateBooked)
	if err != nil {
		return nil, err
	}
	var in []booked
	for _, rec := range recs {
		b, err := bookedOf(rec)
		if err != nil {
			return nil, err
		}
		end, _ := record.ParseTime(b.item.EndTime)
		if (end.IsZero() || end.After(from)) && (until.IsZero() || !b.start.After(until)) {
			in = append(in, b)
		}
	}
	slices.SortStableFunc(in, func(a, b booked) int { // as engine.Conferences.List
		if c := a.start.Compare(b.start); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	w, _ := listPage(r)
	if r.Args.Query.Get("order") == "1" {
		slices.Reverse(in)
	}
	reply := model.MCBookedConfsListReply{Total: len(in)}
	for _, b := range paging.Cut(in, w) {
		reply.BookedConfs = append(reply.BookedConfs, b.item)
	}
	return reply.Wire(), nil
}

// booked is a booked conference as the list reads it: its number, its
// start time (engine.Conference.StartTime) and its stored document read
// into the reply's item, with no map in between (a member of another form
// than the item's reads as its zero value; the conference's own members
// are none of the item's).
type booked struct {
	id    string
	start time.Time
	item  model.MCBookedConfsListReplyBookedConf
}

// bookedOf reads a booked conference's record; an error for a document
// that is not JSON (as engine.Conferences.List).
func bookedOf(rec store.Record) (booked, error) {
	b := booked{id: rec.ID, start: rec.CreatedAt}
	var wrongType *json.UnmarshalTypeError
	if err := json.Unmarshal(rec.Data, &b.item); err != nil && !errors.As(err, &wrongType) {
		return booked{}, err // a member of another form reads as its zero value, as record.Member
	}
	if t, err := record.ParseTime(b.item.StartTime); err == nil {
		b.start = t
	}
	return b, nil
}

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
// any other (including one that has started).
func (m *Module) getBooked(ctx context.Context, r *api.Request) (wire.Object, error) {
	c, err := m.confs.Get(ctx, r.Principal.DomainMoid, r.Path("conf_id"), engine.StateBooked)
	if err != nil {
		return nil, err
	}
	return shape.Project(c.Doc, r.Endpoint.Reply), nil
}
