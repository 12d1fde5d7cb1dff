package engine

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// State returns a terminal's record state (StateIdle, StateCalling,
// StateOnline) without decoding its document, for checks that need no
// more (the speaker and chairman when the store is no GuardedWriter or
// mt_id is cascaded, guarded.go); a cascaded mt_id reads the terminal in
// the subordinate conference.
func (e *Engine) State(ctx context.Context, c Conf, mtID string) (string, error) {
	c, mtID, err := e.Resolve(ctx, c, mtID)
	if err != nil {
		return "", err
	}
	rec, err := e.st.GetRecord(ctx, record.KindMT, c.DomainMoid, recID(c.ConfID, mtID))
	if errors.Is(err, store.ErrNotFound) {
		return "", ErrNotFound
	}
	return rec.State, err
}
