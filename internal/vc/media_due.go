package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/conference"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// RunDueMedia keeps the vmp flags of terminals in step with compositions
// whose panes change without a request: automatic fills (a terminal that
// comes online), channels that follow a role or a poll, batch and
// single-channel polls turning with the clock. What the compositions show
// is computed at every read from their stored start times; only the
// terminals' flags are written, and only where they differ. The server's
// tick runs it with the other due work; a composition that no request
// changes keeps its flags as of its last change until then.
func (m *Module) RunDueMedia(ctx context.Context) error {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: conference.KindConf, States: []string{conference.StateRunning}})
	if err != nil {
		return err
	}
	for _, rec := range recs {
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			return err
		}
		if !vmpMoves(mdObj(doc, docVMP)) {
			continue
		}
		if err := m.mediaFlags(ctx, conference.Conf{Rec: rec, Doc: doc}); err != nil {
			return err
		}
	}
	return nil
}

// vmpMoves tells whether a composition's panes can change without a
// request: an automatic or batch-poll mode, or a channel that follows a
// role or polls.
func vmpMoves(cfg map[string]any) bool {
	if cfg == nil {
		return false
	}
	if conference.Int(cfg, "mode") != 1 {
		return true
	}
	for _, ch := range mdObjs(cfg, "members") {
		if conference.Int(ch, "member_type") != mtypeChosen {
			return true
		}
	}
	return false
}
