package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// The upload terminal (reference 05 items 10 and 11, "获取上传终端",
// "上传终端操作", synchronous): the terminal whose streams the conference
// sends to its superior conference. It is stored in the conference
// document (engine.Conference.Roles.Upload, the member upload_mt_id; the
// vc info schema has no such field) and flagged upload 1 on the terminal. The
// reference makes it meaningful for a subordinate conference only; until
// conferences cascade (issue 13) every conference may hold one, so that
// the setting is ready when it is cascaded.

// getUpload answers the upload terminal, "" when there is none.
func (m *Module) getUpload(ctx context.Context, r *api.Request) (*model.VCConfsUploadGetReply, error) {
	c, _, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	return &model.VCConfsUploadGetReply{MtID: c.Roles.Upload}, nil
}

// setUpload makes an online terminal the upload terminal (12104, 20401,
// mtPresence) or, with mt_id "", cancels the upload: decode, the rule,
// the conference's write (ctlUpdate), then the flags' move in one apply
// (uploadFlags).
func (m *Module) setUpload(ctx context.Context, r *api.Request) error {
	var q model.VCConfsUploadUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	mtID := q.MtID
	var prev string
	c, err := m.ctlUpdate(ctx, r, func(c *engine.Conference) error {
		if mtID != "" {
			t, err := m.engine.Get(ctx, engine.ConfOf(*c), mtID)
			if err != nil && !errors.Is(err, engine.ErrNotFound) {
				return err
			}
			if err := mtPresence(c.ID(), mtID, err == nil, t.Rec.State, true); err != nil {
				return err
			}
		}
		prev = c.Roles.Upload
		c.Roles.Upload = mtID
		return nil
	})
	if err != nil {
		return err
	}
	return m.engine.Apply(ctx, engine.ConfOf(c), engine.Effects{Flags: uploadFlags(prev, mtID)})
}

// uploadFlags move the upload flag from the terminal prev to next ("" for
// none); a terminal gone meanwhile is skipped (engine.Effects.Flags).
func uploadFlags(prev, next string) []engine.TerminalFlags {
	var out []engine.TerminalFlags
	if prev != "" && prev != next {
		out = append(out, engine.TerminalFlags{MtID: prev, Upload: model.Some(0)})
	}
	if next != "" {
		out = append(out, engine.TerminalFlags{MtID: next, Upload: model.Some(1)})
	}
	return out
}
