package mc

import (
	"context"
	"errors"

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
func (m *Module) listHistory(ctx context.Context, r *api.Request) (wire.Object, error) {
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
	docs := make([]map[string]any, 0, len(hs))
	for _, h := range hs {
		docs = append(docs, historyDoc(h, false))
	}
	return wire.Object{"total": total, "confs": projectList(r, "confs", docs)}, nil
}

// getHistory answers mc.history.get.
func (m *Module) getHistory(ctx context.Context, r *api.Request) (wire.Object, error) {
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
	return wire.Object(historyDoc(h, true)), nil
}

// historyDoc is h as the catalogue's historyFields describe it.
func historyDoc(h engine.History, calls bool) map[string]any {
	doc := map[string]any{
		"history_id": h.ID, "conf_id": h.ConfID, "name": h.Name,
		"creator":    map[string]any{"name": h.CreatorName, "account": h.CreatorMoid},
		"start_time": record.FormatTime(h.Start), "end_time": record.FormatTime(h.End),
		"duration":     int(h.End.Sub(h.Start).Minutes()),
		"participants": h.Participants(), "calls_count": len(h.Calls) + h.CallsDropped,
	}
	if !calls {
		return doc
	}
	list := make([]any, 0, len(h.Calls))
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
		list = append(list, map[string]any{
			"mt_id": c.MtID, "alias": c.Alias, "account": c.Account, "protocol": c.Protocol,
			"e164": c.E164, "ip": c.IP, "join_type": join,
			"join_time": record.FormatTime(c.Joined), "leave_time": record.FormatTime(left),
			"duration": int(left.Sub(c.Joined).Seconds()), "lost": lost,
		})
	}
	doc["calls"] = list
	return doc
}
