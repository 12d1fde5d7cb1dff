package mc

import (
	"context"
	"errors"
	"github.com/confer-platform/confer/internal/model"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Conference history and call records (Confer's extension, issue 41;
// docs/conferences.md "History"; the engine keeps them, engine/history.go).
// Administrators see their user domain's ended conferences, other
// accounts the ones they created.

// listHistory answers mc.history.list.
func (m *Module) listHistory(ctx context.Context, r *api.Request) (*model.MCHistoryListReply, error) {
	q := engine.HistoryQuery{DomainMoid: r.Principal.DomainMoid, Keyword: r.Args.Query.Get("keyword")}
	if !r.Principal.Admin {
		q.Owner = r.Principal.AccountMoid
	}
	var err error
	if q.From, q.To, err = record.Window(r.Args.Query); err != nil {
		return nil, err
	}
	w, _ := listPage(r)
	q.Start, q.Count = w.Start, w.Count
	hs, total, err := m.confs.Histories(ctx, q)
	if err != nil {
		return nil, err
	}
	reply := &model.MCHistoryListReply{Total: total, Confs: make([]model.MCHistoryListReplyConf, 0, len(hs))}
	for _, h := range hs {
		d := historyDoc(h, false)
		reply.Confs = append(reply.Confs, model.MCHistoryListReplyConf{HistoryID: d.HistoryID, ConfID: d.ConfID, Name: d.Name,
			Creator: d.Creator, StartTime: d.StartTime, EndTime: d.EndTime, Duration: d.Duration, Participants: d.Participants,
			CallsCount: d.CallsCount})
	}
	return reply, nil
}

// getHistory answers mc.history.get.
func (m *Module) getHistory(ctx context.Context, r *api.Request) (*model.MCHistoryGetReply, error) {
	owner := ""
	if !r.Principal.Admin {
		owner = r.Principal.AccountMoid
	}
	id := r.Path("history_id")
	h, err := m.confs.History(ctx, r.Principal.DomainMoid, owner, id)
	if errors.Is(err, engine.ErrHistoryNotFound) {
		return nil, wire.Errorf(wire.CodeConfNotFound, "no ended conference %s in the history", id)
	}
	if err != nil {
		return nil, err
	}
	reply := historyDoc(h, true)
	return &reply, nil
}

// historyDoc is h as the catalogue's historyFields describe it.
func historyDoc(h engine.History, calls bool) model.MCHistoryGetReply {
	doc := model.MCHistoryGetReply{
		HistoryID: h.ID, ConfID: h.ConfID, Name: h.Name,
		Creator:   &model.MCHistoryGetReplyCreator{Name: h.CreatorName, Account: h.CreatorMoid},
		StartTime: record.FormatTime(h.Start), EndTime: record.FormatTime(h.End),
		Duration:     int(h.End.Sub(h.Start).Minutes()),
		Participants: h.Participants(), CallsCount: len(h.Calls) + h.CallsDropped,
	}
	if !calls {
		return doc
	}
	doc.Calls = make([]model.MCHistoryGetReplyCall, 0, len(h.Calls))
	for _, c := range h.Calls {
		join := c.Kind
		if join == "" {
			join = "called"
		}
		lost := 0
		if c.Lost {
			lost = 1
		}
		left := c.Left
		if left.IsZero() {
			left = h.End
		}
		doc.Calls = append(doc.Calls, model.MCHistoryGetReplyCall{
			MtID: c.MtID, Alias: c.Alias, Account: c.Account, Protocol: c.Protocol,
			E164: c.E164, IP: c.IP, JoinType: join,
			JoinTime: record.FormatTime(c.Joined), LeaveTime: record.FormatTime(left),
			Duration: int(left.Sub(c.Joined).Seconds()), Lost: lost,
		})
	}
	return doc
}
