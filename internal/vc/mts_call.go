package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
)

// Calling and hanging up terminals of the conference (reference 05 items
// 15 and 16: "批量呼叫终端", asynchronous; "批量挂断终端", synchronous).
// Every mt_id must be a terminal of the conference (12104, and then
// nothing is done). forced_call (seizing a terminal held by another
// conference) has no effect: the simulated terminals are never held.

// callMts calls the terminals that are neither online nor being called;
// the others are left as they are. The call is answered, or fails and is
// retried, later (engine.RunDue).
func (m *Module) callMts(ctx context.Context, r *api.Request) error {
	return m.batchMts(ctx, r, m.engine.Call)
}

// hangupMts ends the terminals' calls, and any ringing or retrying of
// them; they stay terminals of the conference and can be called again.
// Hanging up a terminal that is not in the call changes nothing else.
// The engine's Features.Left (leave.go) drops them from the roles and the
// upload.
func (m *Module) hangupMts(ctx context.Context, r *api.Request) error {
	return m.batchMts(ctx, r, m.engine.Hangup)
}

// batchMts runs a batch operation of the engine on the terminals the
// request's mts list names, all of which must exist (12104 otherwise,
// nothing done).
func (m *Module) batchMts(ctx context.Context, r *api.Request, op func(context.Context, engine.Conf, []string) error) error {
	ids, err := mtIDs(r.Args)
	if err != nil {
		return err
	}
	_, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return err
	}
	if err := m.mtCheck(ctx, ec, ids); err != nil {
		return err
	}
	return mtErr(op(ctx, ec, ids), ec.ConfID, "")
}
