package amc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/wire"
)

// Conference approval (reference 08 "查询会议审批信息", "启用停用会议审批功能";
// from 5.2.0.4.0) and Confer's pending-conference endpoints. The rules
// live in internal/engine/approval.go: with video_approval on, a
// conference created by an account that is not an administrator of its
// domain waits pending until an administrator approves it.

// getApproval serves the settings of the caller's domain to every account
// of it; another domain's (user_domain_moid) does not exist (99992).
func (m *Module) getApproval(ctx context.Context, r *api.Request) (*model.AMCApprovalInfosGetReply, error) {
	if d := r.Args.Query.Get("user_domain_moid"); d != "" && d != r.Principal.DomainMoid {
		return nil, wire.Errorf(CodeNoDomain, "user domain %s does not exist", d)
	}
	a, err := engine.GetApproval(ctx, m.st, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	return &model.AMCApprovalInfosGetReply{RealApproval: a.Real, VideoApproval: a.Video}, nil
}

func (m *Module) setApproval(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r, "change conference approval"); err != nil {
		return err
	}
	var q model.AMCApprovalInfosUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	a := engine.Approval{Real: q.RealApproval, Video: q.VideoApproval}
	return engine.SetApproval(ctx, m.st, r.Principal.DomainMoid, a, m.clk.Now())
}

// listPending serves the conferences awaiting approval: the domain's to
// an administrator, the caller's own to anyone else.
func (m *Module) listPending(ctx context.Context, r *api.Request) (*model.AMCPendingConfsListReply, error) {
	owner := ""
	if !r.Principal.Admin {
		owner = r.Principal.AccountMoid
	}
	cs, err := engine.ListAs(ctx, m.confs, r.Principal.DomainMoid, owner, engine.StatePending, // as Conferences.Pending
		func(it *model.AMCPendingConfsListReplyConf) string { return it.StartTime })
	if err != nil {
		return nil, err
	}
	reply := model.AMCPendingConfsListReply{Total: len(cs)}
	for _, c := range paging.Cut(cs, paging.Read(r.Args.Query, paging.Offsets)) {
		reply.Confs = append(reply.Confs, c.Doc) // its stored document read into the reply's item
	}
	return &reply, nil
}

// approve releases a pending conference: approval rights are the domain
// administrators'.
func (m *Module) approve(ctx context.Context, r *api.Request) (*model.AMCPendingConfsApproveReply, error) {
	if err := adminOnly(r, "approve conferences"); err != nil {
		return nil, err
	}
	c, err := m.confs.Approve(ctx, r.Principal.DomainMoid, r.Path("conf_id"))
	if err != nil {
		return nil, err
	}
	// The stored document's conf_id is the conference's number (engine
	// insert) and its meeting_id the string the server wrote at creation.
	return &model.AMCPendingConfsApproveReply{ConfID: c.ID(), MeetingID: c.MeetingID(), State: c.Rec.State, Description: descDone}, nil
}

// rejectPending deletes a pending conference: an administrator rejects
// it, its creator withdraws it (20005 for anyone else).
func (m *Module) rejectPending(ctx context.Context, r *api.Request) (*model.AMCPendingConfsDeleteReply, error) {
	id := r.Path("conf_id")
	c, err := m.confs.Get(ctx, r.Principal.DomainMoid, id, engine.StatePending)
	if err != nil {
		return nil, err
	}
	if !r.Principal.Admin && c.Rec.OwnerMoid != r.Principal.AccountMoid {
		return nil, wire.Errorf(wire.CodeNoPermission, "only an administrator or the creator of conference %s may withdraw it", id)
	}
	if err := m.confs.Reject(ctx, r.Principal.DomainMoid, id); err != nil {
		return nil, err
	}
	return &model.AMCPendingConfsDeleteReply{Description: descDone}, nil
}
