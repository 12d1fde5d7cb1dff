package amc

import (
	"context"
	"sort"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/audit"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// listAudit answers amc.audit.list: the stored audit trail of the
// caller's user domain (docs/operations.md "Audit trail"), to its
// administrators only (20005 for anyone else), newest first.
func (m *Module) listAudit(ctx context.Context, r *api.Request) (*model.AMCAuditListReply, error) {
	if err := adminOnly(r, "read the audit trail"); err != nil {
		return nil, err
	}
	q := r.Args.Query
	from, to, err := record.Window(q)
	if err != nil {
		return nil, err
	}
	account, action, conf := q.Get("account"), strings.ToLower(q.Get("action")), q.Get("conf_id")
	failed := q.Get("failed") == "1"
	filter := account != "" || action != "" || conf != "" || failed || !from.IsZero() || !to.IsZero()
	w := paging.Read(r.Args.Query, paging.Offsets)
	sq := store.RecordQuery{Kind: record.KindAudit, DomainMoid: r.Principal.DomainMoid, Desc: true}
	if !filter {
		sq.Start, sq.Count = w.Start, w.Count
	}
	recs, total, err := m.st.ListRecords(ctx, sq)
	if err != nil {
		return nil, err
	}
	var out []model.AMCAuditListReplyEntry
	for _, rec := range recs {
		e, err := audit.Decode(rec)
		if err != nil {
			continue
		}
		if (account != "" && e.Account != account) || (action != "" && !strings.Contains(strings.ToLower(e.Action), action)) ||
			(conf != "" && e.Params["conf_id"] != conf) || (failed && e.ErrorCode == 0) ||
			(!from.IsZero() && e.Time.Before(from)) || (!to.IsZero() && !e.Time.Before(to)) {
			continue
		}
		out = append(out, auditDoc(e))
	}
	if filter {
		total = len(out)
		out = paging.Cut(out, w)
	}
	return &model.AMCAuditListReply{Total: total, Entries: out}, nil
}

// auditDoc is e as the catalogue's reply fields name it.
func auditDoc(e audit.Entry) model.AMCAuditListReplyEntry {
	names := make([]string, 0, len(e.Params))
	for k := range e.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	target := make([]string, 0, len(names))
	for _, k := range names {
		target = append(target, k+"="+e.Params[k])
	}
	return model.AMCAuditListReplyEntry{
		Time: e.Time.Format("2006-01-02T15:04:05.000-07:00"), Account: e.Account, AccountMoid: e.AccountMoid,
		Action: e.Action, ConfID: e.Params["conf_id"], MtID: e.Params["mt_id"], Target: strings.Join(target, " "),
		Client: e.Client, ErrorCode: e.ErrorCode,
	}
}
